"""Gas per second of each EVM precompile at its slowest inputs, on this machine.

    .venv/bin/python bench/precompiles.py

Runs py-evm's Prague precompiles directly (no state, no Django) on the inputs that cost
the most time per gas each has, and prints the gas a second of them buys. The slowest
per address is what `apps/contracts/evm/precompiles.py` must bound (`GAS_PER_SECOND`).
"""

import hashlib
import time
from types import SimpleNamespace

from eth.vm.forks.prague.computation import PragueComputation
from eth_keys import keys
from py_ecc import optimized_bls12_381 as bls
from py_ecc import optimized_bn128 as bn

PRECOMPILES = PragueComputation.get_precompiles()
MIN_SECONDS = 0.5


class Probe:
    """What a precompile reads and writes of its computation."""

    def __init__(self, data: bytes):
        self.msg = SimpleNamespace(data=data, data_as_bytes=data, value=0)
        self.gas = 0
        self.output = b""

    def consume_gas(self, amount: int, reason: str) -> None:
        self.gas += amount


def gas_per_second(address: int, data: bytes) -> tuple[int, float]:
    """(gas of one run, gas a second), from as many runs as fill MIN_SECONDS."""
    precompile = PRECOMPILES[address.to_bytes(20, "big")]
    runs, started = 0, time.perf_counter()
    while True:
        probe = Probe(data)
        precompile(probe)
        runs += 1
        elapsed = time.perf_counter() - started
        if elapsed >= MIN_SECONDS:
            return probe.gas, probe.gas * runs / elapsed


def word(value: int) -> bytes:
    return value.to_bytes(32, "big")


def bls_fp(value) -> bytes:
    return int(value).to_bytes(64, "big")


def bls_g1(point) -> bytes:
    x, y = bls.normalize(point)
    return bls_fp(x.n) + bls_fp(y.n)


def bls_g2(point) -> bytes:
    x, y = bls.normalize(point)
    return b"".join(bls_fp(c) for c in (*x.coeffs, *y.coeffs))


def bn_g2(point) -> bytes:
    x, y = bn.normalize(point)
    return b"".join(word(int(c)) for c in (x.coeffs[1], x.coeffs[0], y.coeffs[1], y.coeffs[0]))


def modexp_input(base_length: int, exponent_length: int, modulus_length: int) -> bytes:
    return (
        word(base_length)
        + word(exponent_length)
        + word(modulus_length)
        + b"\xff" * base_length
        + b"\xff" * exponent_length
        + b"\xfd" * modulus_length
    )


def blake2f_input(rounds: int) -> bytes:
    return rounds.to_bytes(4, "big") + bytes(64 + 128 + 16) + b"\x01"


def cases():
    signer = keys.PrivateKey(b"\x01" * 32)
    digest = hashlib.sha256(b"probe").digest()
    signature = signer.sign_msg_hash(digest)
    yield 0x1, "ecrecover", digest + word(signature.v + 27) + word(signature.r) + word(signature.s)
    yield 0x2, "sha256 of 32 bytes", bytes(32)
    yield 0x3, "ripemd160 of 32 bytes", bytes(32)
    yield 0x4, "identity of 32 bytes", bytes(32)
    for base, exponent, modulus in ((32, 32, 32), (64, 64, 64), (256, 32, 256), (1024, 32, 1024), (1, 1024, 1)):
        yield 0x5, f"modexp {base}/{exponent}/{modulus} bytes", modexp_input(base, exponent, modulus)
    g1 = word(1) + word(2)
    yield 0x6, "ecadd", g1 + g1
    yield 0x7, "ecmul, full scalar", g1 + b"\xff" * 32
    for pairs in (1, 2):
        yield 0x8, f"ecpairing, {pairs} pairs", (g1 + bn_g2(bn.G2)) * pairs
    yield 0x9, "blake2f, 100,000 rounds", blake2f_input(100_000)
    commitment = b"\xc0" + bytes(47)
    versioned_hash = b"\x01" + hashlib.sha256(commitment).digest()[1:]
    yield 0xA, "point evaluation", versioned_hash + bytes(64) + commitment + commitment
    g1_bls, g2_bls = bls_g1(bls.G1), bls_g2(bls.G2)
    scalar = b"\xff" * 32
    yield 0xB, "bls g1add", g1_bls + g1_bls
    for points in (1, 2, 16):
        yield 0xC, f"bls g1msm, {points} points", (g1_bls + scalar) * points
    yield 0xD, "bls g2add", g2_bls + g2_bls
    for points in (1, 2, 16):
        yield 0xE, f"bls g2msm, {points} points", (g2_bls + scalar) * points
    for pairs in (1, 2):
        yield 0xF, f"bls pairing, {pairs} pairs", (g1_bls + g2_bls) * pairs
    yield 0x10, "bls map fp to g1", bls_fp(2**380 + 7)
    yield 0x11, "bls map fp2 to g2", bls_fp(2**380 + 7) + bls_fp(2**380 + 9)


def main() -> None:
    slowest: dict[int, float] = {}
    print(f"{'address':>7}  {'case':<34} {'gas':>10} {'gas/s':>12}")
    for address, name, data in cases():
        gas, rate = gas_per_second(address, data)
        slowest[address] = min(rate, slowest.get(address, rate))
        print(f"{address:#7x}  {name:<34} {gas:>10,} {rate:>12,.0f}")
    print("\nslowest gas/s per address:")
    for address, rate in sorted(slowest.items()):
        print(f"  {address:#x}: {rate:,.0f}")


if __name__ == "__main__":
    main()
