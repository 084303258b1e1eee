"""One trace entry per executed opcode, as the upstream's opcode tracer reports them.

Each entry is taken after its opcode ran (gas left after its cost, the stack, memory and
storage it left), at the position the opcode started in, so a CALL comes before the
opcodes of the frame it opened.
"""

from dataclasses import dataclass, field

# py-evm's names where the upstream's EVM names an opcode otherwise.
_UPSTREAM_NAMES = {"SHA3": "KECCAK256", "DIFFICULTY": "PREVRANDAO"}


def _word(value) -> str:
    number = value if isinstance(value, int) else int.from_bytes(value, "big")
    return "0x" + format(number, "064x")


@dataclass
class Tracer:
    stack: bool = True
    memory: bool = False
    storage: bool = False
    opcodes: list[dict] = field(default_factory=list)

    def before(self, computation, opcode_fn) -> tuple[dict, int]:
        name = opcode_fn.mnemonic
        entry = {
            "pc": computation.code.program_counter - 1,
            "op": _UPSTREAM_NAMES.get(name, name),
            "gas": 0,
            "gas_cost": 0,
            "depth": computation.msg.depth,
            "stack": [],
            "memory": [],
            "storage": {},
            "reason": None,
        }
        self.opcodes.append(entry)
        return entry, computation.get_gas_remaining()

    def after(self, computation, step: tuple[dict, int]) -> None:
        entry, gas_before = step
        gas_left = computation.get_gas_remaining()
        entry["gas"] = gas_left
        entry["gas_cost"] = gas_before - gas_left
        if entry["op"] == "REVERT":
            entry["reason"] = "0x" + bytes(computation.output).hex()
        if self.stack:
            entry["stack"] = [_word(value) for value in computation._stack.values]
        if self.memory:
            memory = bytes(computation._memory._bytes)
            entry["memory"] = ["0x" + memory[offset : offset + 32].hex() for offset in range(0, len(memory), 32)]
        if self.storage:
            accessed = computation.state.accessed_storage(computation.msg.storage_address)
            entry["storage"] = {_word(slot): _word(value) for slot, value in sorted(accessed.items())}
