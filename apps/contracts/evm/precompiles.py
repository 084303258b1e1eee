"""The EVM's precompiles, each started only when the time limit leaves room for it.

A precompile runs as one step of its caller's opcode loop, so the loop's look at the clock
never sees it, and py-evm's are pure Python: at the gas a call may carry, one BLAKE2F or
pairing call runs for minutes. Each precompile's time is predicted from the gas it charges,
at the slowest rate measured for it (`bench/precompiles.py`, the worst inputs per address,
with room for a loaded machine): one predicted to end past the request's deadline is not
run, and the request answers 503 as past the time limit.
"""

from collections.abc import Callable

# Gas a second each precompile runs at its slowest; keyed by address.
GAS_PER_SECOND = {
    0x1: 350_000,  # ECRECOVER
    0x2: 30_000_000,  # SHA256
    0x3: 100_000_000,  # RIPEMD160
    0x4: 15_000_000,  # IDENTITY
    0x5: 5_000_000,  # MODEXP
    0x6: 3_000_000,  # BN254 add
    0x7: 450_000,  # BN254 multiply
    0x8: 65_000,  # BN254 pairing, per added pair
    0x9: 90_000,  # BLAKE2F, per round
    0xA: 15_000,  # KZG point evaluation (loads the trusted setup every call)
    0xB: 1_200_000,  # BLS12-381 G1 add
    0xC: 200_000,  # BLS12-381 G1 MSM, at the largest discount
    0xD: 450_000,  # BLS12-381 G2 add
    0xE: 70_000,  # BLS12-381 G2 MSM, at the largest discount
    0xF: 25_000,  # BLS12-381 pairing, per added pair
    0x10: 1_300_000,  # BLS12-381 map to G1
    0x11: 140_000,  # BLS12-381 map to G2
}


def time_bounded(precompiles: dict[bytes, Callable]) -> dict[bytes, Callable]:
    return {
        address: _bounded(precompile, GAS_PER_SECOND[int.from_bytes(address, "big")])
        for address, precompile in precompiles.items()
    }


def _bounded(precompile: Callable, gas_per_second: int) -> Callable:
    """`precompile`, checking its predicted time against the deadline as it charges its gas
    (every precompile charges before it computes)."""

    def run(computation):
        charge = computation.consume_gas

        def consume_gas(amount: int, reason: str) -> None:
            charge(amount, reason)
            computation.state.ensure_time_for(amount / gas_per_second)

        computation.consume_gas = consume_gas
        try:
            return precompile(computation)
        finally:
            # A failed precompile burns the rest of its gas after this: that costs no time.
            del computation.consume_gas

    return run
