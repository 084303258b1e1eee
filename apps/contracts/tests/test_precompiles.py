"""Precompiles within the time limit: one predicted to end past it is refused at once (503),
on the server (through the execution pool) as in process."""

import time

import orjson
import pytest
from django.test import Client
from eth.vm.forks.prague.computation import PragueComputation
from py_ecc import optimized_bls12_381 as bls

# The EVM loads on first use: loaded with the tests, their timings measure execution alone.
from apps.contracts.evm import (
    executor,  # noqa: F401
    throttle,
)
from apps.contracts.evm.precompiles import GAS_PER_SECOND
from apps.contracts.tests.evm_ledger import load_ledger

URL = "/api/v1/contracts/call"
BLAKE2F = "0x" + (0x9).to_bytes(20, "big").hex()
BLS_PAIRING = "0x" + (0xF).to_bytes(20, "big").hex()


def blake2f_input(rounds: int) -> str:
    return "0x" + (rounds.to_bytes(4, "big") + bytes(64 + 128 + 16) + b"\x01").hex()


def bls_pairs(count: int) -> str:
    def fp(value) -> bytes:
        return int(value).to_bytes(64, "big")

    (g1x, g1y), (g2x, g2y) = bls.normalize(bls.G1), bls.normalize(bls.G2)
    pair = fp(g1x.n) + fp(g1y.n) + b"".join(fp(c) for c in (*g2x.coeffs, *g2y.coeffs))
    return "0x" + (pair * count).hex()


def looping_blake2f(rounds: int) -> str:
    """Init code calling BLAKE2F with `rounds` rounds again and again, until out of gas."""
    data = bytes.fromhex(blake2f_input(rounds)[2:])
    # MSTORE(offset, 32 bytes of the input) for each word of it
    stores = b"".join(b"\x7f" + data[i : i + 32].ljust(32, b"\x00") + b"\x60" + bytes([i]) + b"\x52" for i in range(0, 213, 32))
    # loop: JUMPDEST; STATICCALL(gas, 0x09, 0, 213, 0, 0); POP; JUMP loop
    loop = bytes.fromhex("5b" "6000" "6000" "60d5" "6000" "6009" "5a" "fa" "50")
    start = len(stores)
    return "0x" + (stores + loop + b"\x60" + bytes([start]) + b"\x56").hex()


def error_body(detail: str) -> dict:
    return {"_status": {"messages": [{"message": "Service Unavailable", "detail": detail, "data": ""}]}}


def test_every_precompile_has_a_rate():
    assert {int.from_bytes(address, "big") for address in PragueComputation.get_precompiles()} == set(GAS_PER_SECOND)


@pytest.mark.django_db
class TestInProcess:
    @pytest.fixture(autouse=True)
    def ledger(self):
        throttle.reset()
        load_ledger()
        yield
        throttle.reset()

    def post(self, body: dict):
        started = time.monotonic()
        response = Client(raise_request_exception=False).post(URL, orjson.dumps(body), content_type="application/json")
        return response, time.monotonic() - started

    def test_blake2f_predicted_past_the_limit_is_refused_at_once(self, settings):
        settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 1}
        # 200,000 rounds: about 1.5 s of pure Python, past the limit.
        response, took = self.post({"to": BLAKE2F, "data": blake2f_input(200_000)})
        assert response.status_code == 503
        assert response.json() == error_body("Execution exceeded the time limit of 1 s")
        assert took < 0.5

    def test_a_pairing_predicted_past_the_limit_is_refused_at_once(self, settings):
        settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 2}
        response, took = self.post({"to": BLS_PAIRING, "data": bls_pairs(10)})
        assert response.status_code == 503
        assert took < 0.5

    def test_a_precompile_within_the_limit_runs(self):
        response, _ = self.post({"to": BLAKE2F, "data": blake2f_input(12)})
        assert response.status_code == 200
        assert len(bytes.fromhex(response.json()["result"][2:])) == 64

    def test_a_failing_precompile_burns_its_gas_without_a_time_check(self, settings):
        # Input of the wrong length fails before any charge, then burns all the call's gas,
        # which costs no time.
        settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 1}
        response, _ = self.post({"to": BLAKE2F, "data": "0x00", "gas": 15_000_000})
        assert response.status_code == 400
        assert response.json()["_status"]["messages"][0]["message"] == "CONTRACT_EXECUTION_EXCEPTION"

    def test_repeated_precompile_calls_stop_at_the_limit(self, settings):
        settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 1}
        response, took = self.post({"data": looping_blake2f(20_000), "gas": 15_000_000})
        assert response.status_code == 503
        assert took < 2


@pytest.mark.django_db(transaction=True)
def test_the_server_answers_precompiles_past_the_limit_within_a_second_of_it(committed_ledger, start_call_server):
    limit = 2
    server = start_call_server(HIERO_MIRROR_WEB3_REQUESTTIMEOUT=f"{limit}s")
    cases = {
        "BLAKE2F, 3,000,000 rounds": {"to": BLAKE2F, "data": blake2f_input(3_000_000)},
        "BLS12-381 pairing, 20 pairs": {"to": BLS_PAIRING, "data": bls_pairs(20)},
        "BLAKE2F again and again": {"data": looping_blake2f(20_000), "gas": 15_000_000},
    }
    for name, body in cases.items():
        started = time.monotonic()
        answer = server.request("POST", URL, {"Content-Type": "application/json"}, orjson.dumps(body), timeout=30)
        took = time.monotonic() - started
        assert answer.status == 503, (name, answer.body)
        assert answer.json() == error_body(f"Execution exceeded the time limit of {limit} s"), name
        assert took < limit + 1, (name, took)
