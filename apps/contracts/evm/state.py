"""py-evm's account database and state over a `MirrorReader`.

Writes go to an in-memory overlay with an undo journal (snapshots are positions
in it), so a call can change anything and nothing persists. Storage is keyed by
the entity an address resolves to, so the long-zero and the EVM address of one
contract share it.
"""

import time

from eth.abc import AccountDatabaseAPI
from eth.constants import BLANK_ROOT_HASH, EMPTY_SHA3
from eth.db.journal import get_next_checkpoint
from eth.vm.forks.prague import PragueState
from eth.vm.forks.prague.computation import PragueComputation
from eth_hash.auto import keccak

from apps.contracts.evm.errors import TimedOut
from apps.contracts.evm.mirror import (
    MINIMUM_PAYER_BALANCE,
    WEIBARS_PER_TINYBAR,
    Account,
    MirrorReader,
)
from apps.contracts.evm.precompiles import time_bounded
from apps.contracts.evm.system import SYSTEM_CONTRACTS, call_token

_MISSING = object()


class MirrorAccountDB(AccountDatabaseAPI):
    def __init__(self, reader: MirrorReader, *, payer: bytes | None = None):
        self.reader = reader
        self._payer = payer
        # (kind, address[, slot]) -> value written during the call
        self._overlay: dict[tuple, object] = {}
        self._journal: list[tuple[tuple, object]] = []
        self._checkpoints: dict[int, int] = {}
        self._warm_addresses: set[bytes] = set()
        self._warm_slots: set[tuple[bytes, int]] = set()
        self._accessed_slots: dict[tuple[bytes, int], int] = {}

    # -- the journal --
    def _write(self, key: tuple, value) -> None:
        self._journal.append((key, self._overlay.get(key, _MISSING)))
        self._overlay[key] = value

    def record(self):
        """A new checkpoint at the journal's end; its id comes from py-evm's process-wide
        sequence, as the transient storage's journal shares it."""
        checkpoint = get_next_checkpoint()
        self._checkpoints[checkpoint] = len(self._journal)
        return checkpoint

    def discard(self, checkpoint) -> None:
        position = self._checkpoints.pop(checkpoint)
        while len(self._journal) > position:
            key, previous = self._journal.pop()
            if previous is _MISSING:
                self._overlay.pop(key, None)
            else:
                self._overlay[key] = previous

    def commit(self, checkpoint) -> None:
        """Nested snapshots stay undoable by their parents: nothing to do."""

    def lock_changes(self) -> None:
        """One call is one transaction: nothing to lock."""

    # -- accounts --
    def mirror_account(self, address: bytes) -> Account | None:
        return self.reader.account(bytes(address))

    def _read(self, kind: str, address: bytes, default):
        value = self._overlay.get((kind, address), _MISSING)
        if value is not _MISSING:
            return value
        if ("deleted", address) in self._overlay and self._overlay[("deleted", address)]:
            return default
        account = self.mirror_account(address)
        if account is None:
            return default
        if kind == "balance":
            balance = max(account.balance, MINIMUM_PAYER_BALANCE) if address == self._payer else account.balance
            return balance * WEIBARS_PER_TINYBAR
        return account.nonce if kind == "nonce" else account.code

    def get_balance(self, address):
        return self._read("balance", address, 0)

    def set_balance(self, address, balance):
        self._write(("balance", address), balance)

    def get_nonce(self, address):
        return self._read("nonce", address, 0)

    def set_nonce(self, address, nonce):
        self._write(("nonce", address), nonce)

    def increment_nonce(self, address):
        self.set_nonce(address, self.get_nonce(address) + 1)

    def get_code(self, address):
        return self._read("code", address, b"")

    def set_code(self, address, code):
        self._write(("code", address), code)

    def get_code_hash(self, address):
        if not self.account_exists(address):
            return b"\x00" * 32
        code = self.get_code(address)
        return keccak(code) if code else EMPTY_SHA3

    def delete_code(self, address):
        self.set_code(address, b"")

    def account_has_code_or_nonce(self, address):
        return bool(self.get_code(address)) or self.get_nonce(address) != 0

    def delete_account(self, address):
        self._write(("deleted", address), True)
        for kind, empty in (("balance", 0), ("nonce", 0), ("code", b"")):
            self._write((kind, address), empty)

    def account_exists(self, address):
        if ("touched", address) in self._overlay or ("balance", address) in self._overlay:
            return True
        return self.mirror_account(address) is not None

    def touch_account(self, address):
        self._write(("touched", address), True)

    def account_is_empty(self, address):
        return not self.account_has_code_or_nonce(address) and self.get_balance(address) == 0

    # -- storage --
    def _storage_owner(self, address: bytes) -> int | None:
        account = self.mirror_account(address)
        return account.entity_id if account else None

    def get_storage(self, address, slot, from_journal=True):
        value = self._overlay.get(("slot", address, slot), _MISSING)
        if value is _MISSING:
            entity_id = self._storage_owner(address)
            deleted = self._overlay.get(("deleted", address))
            value = 0 if entity_id is None or deleted else self.reader.storage(entity_id, slot)
        self._accessed_slots.setdefault((address, slot), value)
        return value

    def set_storage(self, address, slot, value):
        self._write(("slot", address, slot), value)
        self._accessed_slots[(address, slot)] = value

    def delete_storage(self, address):
        self._write(("deleted", address), True)

    def accessed_storage(self, address: bytes) -> dict[int, int]:
        """Every slot of `address` read or written so far, with its latest value (for traces)."""
        return {slot: value for (owner, slot), value in self._accessed_slots.items() if owner == address}

    def is_storage_warm(self, address, slot):
        return (address, slot) in self._warm_slots

    def mark_storage_warm(self, address, slot):
        self._warm_slots.add((address, slot))

    def is_address_warm(self, address):
        return address in self._warm_addresses

    def mark_address_warm(self, address):
        self._warm_addresses.add(address)

    # -- roots: a call has no state root --
    @property
    def state_root(self):
        return BLANK_ROOT_HASH

    @state_root.setter
    def state_root(self, value):
        """Reverting a snapshot sets the root back; ours never changes."""

    def has_root(self, state_root):
        return True

    def make_state_root(self):
        return BLANK_ROOT_HASH

    def persist(self):
        raise NotImplementedError("a call never persists")


class MirrorComputation(PragueComputation):
    """Prague with Hedera's system contracts and token addresses, a wall-time limit
    checked between opcodes and before each precompile, and an optional tracer (both hang
    off the state, so the opcode table is wrapped once per class)."""

    opcodes = {}
    _precompiles = {**time_bounded(PragueComputation.get_precompiles()), **SYSTEM_CONTRACTS}

    @classmethod
    def apply_computation(cls, state, message, transaction_context, parent_computation=None):
        if not message.is_create and not message.is_delegation:
            account = state.mirror_account(message.code_address)
            if account is not None and account.is_token:
                with cls(state, message, transaction_context) as computation:
                    call_token(computation, account)
                return computation
        return super().apply_computation(state, message, transaction_context, parent_computation)


def _guarded(opcode_fn):
    def run(computation):
        tracer = computation.state.before_opcode()
        if tracer is None:
            opcode_fn(computation=computation)
            return
        step = tracer.before(computation, opcode_fn)
        try:
            opcode_fn(computation=computation)
        finally:
            tracer.after(computation, step)

    # Some of py-evm's opcodes are wrapped functions that keep their mnemonic underneath.
    run.mnemonic = getattr(opcode_fn, "mnemonic", None) or opcode_fn.__wrapped__.mnemonic
    return run


MirrorComputation.opcodes = {value: _guarded(fn) for value, fn in PragueComputation.opcodes.items()}

# How many opcodes run between two looks at the clock.
_CLOCK_EVERY = 1024


class MirrorState(PragueState):
    computation_class = MirrorComputation

    def __init__(
        self,
        reader: MirrorReader,
        execution_context,
        *,
        payer: bytes | None,
        deadline: float,
        seconds: float,
        ledger_id: str,
    ):
        self._db = None
        self.ledger_id = ledger_id
        self.execution_context = execution_context
        self._account_db = MirrorAccountDB(reader, payer=payer)
        self.reader = reader
        self._deadline = deadline
        self._seconds = seconds
        self._countdown = _CLOCK_EVERY
        self.tracer = None

    def set_system_contracts(self) -> None:
        """Hedera has neither the beacon-roots nor the history contract."""

    def before_opcode(self):
        """Checks the clock now and then; answers the tracer, if any."""
        self._countdown -= 1
        if not self._countdown:
            self._countdown = _CLOCK_EVERY
            if time.monotonic() > self._deadline:
                raise TimedOut(self._seconds)
        return self.tracer

    def ensure_time_for(self, seconds: float) -> None:
        """503 now when `seconds` more would run past the deadline."""
        if time.monotonic() + seconds > self._deadline:
            raise TimedOut(self._seconds)

    def get_ancestor_hash(self, block_number: int):
        if not 0 <= self.block_number - block_number - 1 < 256:
            return b""
        return self.reader.block_hash(block_number)

    def mirror_account(self, address: bytes) -> Account | None:
        return self._account_db.mirror_account(address)

    def accessed_storage(self, address: bytes) -> dict[int, int]:
        return self._account_db.accessed_storage(address)
