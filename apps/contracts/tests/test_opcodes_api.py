"""`GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes` (and its alias): the trace of a
stored transaction re-executed on the state just before it."""

import gzip

import orjson
import pytest
from django.test import Client

from apps.common.database.fixtures import empty_mirror_tables, load_rows
from apps.contracts.evm import throttle
from apps.contracts.tests.evm_ledger import (
    BLOCKS,
    EOA,
    REVERTER,
    SECOND,
    STORAGE,
    STORAGE_ADDRESS,
    calldata,
    hex0x,
    load_ledger,
)

pytestmark = pytest.mark.django_db

SET_AT = BLOCKS[3][0] + 10
REVERT_AT = BLOCKS[3][0] + 20
ETHEREUM_AT = BLOCKS[3][0] + 30
VALID_START = 1_699_999_999 * SECOND + 5
SET_HASH = "aa" * 32
REVERT_HASH = "bb" * 32
ETHEREUM_HASH = "cc" * 32


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def _result(timestamp: int, contract: int, data: str, *, result: int = 22) -> dict:
    return {
        "consensus_timestamp": timestamp, "contract_id": contract, "payer_account_id": EOA, "sender_id": EOA,
        "function_parameters": "\\x" + data[2:], "gas_limit": 100_000, "transaction_result": result,
        "transaction_nonce": 0, "amount": 0,
    }


def _transaction(timestamp: int, valid_start: int, *, type: int = 7, result: int = 22) -> dict:
    return {"consensus_timestamp": timestamp, "type": type, "result": result, "payer_account_id": EOA,
            "valid_start_ns": valid_start, "scheduled": False, "nonce": 0, "high_volume": False}


def _hash(timestamp: int, hash_hex: str, entity: int, *, result: int = 22) -> dict:
    return {"consensus_timestamp": timestamp, "hash": "\\x" + hash_hex, "payer_account_id": EOA,
            "entity_id": entity, "transaction_result": result}


@pytest.fixture(autouse=True)
def ledger(settings):
    # Unthrottled but for the throttle's own test (the default is one trace a second).
    settings.WEB3 = {**settings.WEB3, "OPCODE_REQUESTS_PER_SECOND": 0}
    throttle.reset()
    load_ledger()
    set_data = calldata("set(uint256)", ["uint256"], [99])
    load_rows(
        {
            "contract_result": [
                _result(SET_AT, STORAGE, set_data),
                _result(REVERT_AT, REVERTER, calldata("withReason()"), result=33),
                _result(ETHEREUM_AT, STORAGE, "0x"),
            ],
            "transaction": [
                _transaction(SET_AT, VALID_START),
                _transaction(REVERT_AT, VALID_START + 1, result=33),
                _transaction(ETHEREUM_AT, VALID_START + 2, type=50),
            ],
            "contract_transaction_hash": [
                _hash(SET_AT, SET_HASH, STORAGE),
                _hash(REVERT_AT, REVERT_HASH, REVERTER, result=33),
                _hash(ETHEREUM_AT, ETHEREUM_HASH, STORAGE),
            ],
            # An Ethereum transaction's own gas, call data and receiver win over the contract result's.
            "ethereum_transaction": [
                {
                    "consensus_timestamp": ETHEREUM_AT, "data": "\\x00", "gas_limit": 50_000,
                    "hash": "\\x" + ETHEREUM_HASH, "max_gas_allowance": 0, "nonce": 3, "payer_account_id": EOA,
                    "signature_r": "\\x00", "signature_s": "\\x00", "type": 2,
                    "call_data": "\\x" + calldata("burn(uint256)", ["uint256"], [2])[2:],
                    "to_address": "\\x" + STORAGE_ADDRESS.hex(), "value": "\\x00",
                }
            ],
        },
        source="opcodes",
    )
    yield
    throttle.reset()


def get(client, path: str, query: str = "", **headers):
    headers.setdefault("HTTP_ACCEPT_ENCODING", "gzip")
    return client.get(f"/api/v1/contracts/results/{path}/opcodes{query}", **headers)


def body_of(response) -> dict:
    content = response.content
    if response.get("Content-Encoding") == "gzip":
        content = gzip.decompress(content)
    return orjson.loads(content)


def trace_of(client, path: str, query: str = "") -> dict:
    response = get(client, path, query)
    assert response.status_code == 200, body_of(response)
    return body_of(response)


def test_trace_of_a_stored_call_by_hash(client):
    trace = trace_of(client, SET_HASH, "?storage=true")
    assert trace["address"] == hex0x(STORAGE_ADDRESS)
    assert trace["contract_id"] == f"0.0.{STORAGE}"
    assert trace["failed"] is False
    assert trace["return_value"] == "0x"
    assert 21000 < trace["gas"] < 100_000
    opcodes = trace["opcodes"]
    assert opcodes[0]["op"] == "PUSH1" and opcodes[0]["pc"] == 0 and opcodes[0]["depth"] == 0
    # The first opcode starts with the gas left after the intrinsic gas (5 non-zero, 31 zero bytes).
    assert opcodes[0]["gas"] + opcodes[0]["gas_cost"] == 100_000 - 21000 - 16 * 5 - 4 * 31
    assert opcodes[-1]["op"] == "STOP"
    store = next(opcode for opcode in opcodes if opcode["op"] == "SSTORE")
    # The state just before the transaction held 7 in slot 0; the trace shows it overwritten.
    assert store["storage"] == {"0x" + "00" * 32: "0x" + format(99, "064x")}
    assert all(opcode["reason"] is None for opcode in opcodes)


def test_trace_by_transaction_id_and_by_the_alias(client):
    transaction_id = f"0.0.{EOA}-{VALID_START // SECOND}-{VALID_START % SECOND}"
    by_id = trace_of(client, transaction_id)
    assert by_id == trace_of(client, "0x" + SET_HASH)
    alias = client.get(f"/api/v1/contracts/{transaction_id}/results/opcodes", HTTP_ACCEPT_ENCODING="gzip")
    assert body_of(alias) == by_id


def test_flags_choose_stack_memory_and_storage(client):
    default = trace_of(client, SET_HASH)["opcodes"]
    assert any(opcode["stack"] for opcode in default)
    assert all(opcode["memory"] == [] and opcode["storage"] == {} for opcode in default)
    everything = trace_of(client, SET_HASH, "?stack=false&memory=true&storage=true")["opcodes"]
    assert all(opcode["stack"] == [] for opcode in everything)
    assert any(opcode["memory"] for opcode in everything)
    assert all(len(word) == 66 for opcode in everything for word in opcode["memory"])
    mstore = next(opcode for opcode in everything if opcode["op"] == "MSTORE")
    assert mstore["memory"][2] == "0x" + format(0x80, "064x")


def test_stack_is_bottom_first_as_words(client):
    opcodes = trace_of(client, SET_HASH)["opcodes"]
    assert opcodes[0]["stack"] == ["0x" + format(0x80, "064x")]
    assert opcodes[1]["stack"] == ["0x" + format(0x80, "064x"), "0x" + format(0x40, "064x")]


def test_trace_of_a_reverted_call(client):
    trace = trace_of(client, REVERT_HASH)
    assert trace["failed"] is True
    assert trace["contract_id"] == f"0.0.{REVERTER}"
    revert = trace["opcodes"][-1]
    assert revert["op"] == "REVERT"
    assert revert["reason"] == trace["return_value"]
    assert revert["reason"].startswith("0x08c379a0")


def test_an_ethereum_transaction_replays_its_own_call_on_the_state_just_before_it(client):
    trace = trace_of(client, ETHEREUM_HASH, "?storage=true")
    assert (trace["address"], trace["failed"]) == (hex0x(STORAGE_ADDRESS), False)
    # Its gas limit (50,000) and call data (burn(2)), not the contract result's (100,000 and none).
    first = trace["opcodes"][0]
    assert first["gas"] + first["gas_cost"] == 50_000 - 21000 - 16 * 5 - 4 * 31
    slot = "0x" + "00" * 32
    loads = [opcode["storage"][slot] for opcode in trace["opcodes"] if opcode["op"] == "SLOAD"]
    stores = [opcode["storage"][slot] for opcode in trace["opcodes"] if opcode["op"] == "SSTORE"]
    # Slot 0 held 7 before the transaction (block 3); burn(2) adds 0 then 1.
    assert loads[0] == "0x" + format(7, "064x")
    assert stores == ["0x" + format(7, "064x"), "0x" + format(8, "064x")]


def test_gzip_is_required(client):
    response = client.get(f"/api/v1/contracts/results/{SET_HASH}/opcodes")
    assert response.status_code == 406
    assert body_of(response) == {"_status": {"messages": [
        {"message": "Not Acceptable", "detail": "Accept-Encoding: gzip header is required", "data": ""}]}}


def test_the_answer_is_gzipped(client):
    response = get(client, SET_HASH)
    assert response["Content-Encoding"] == "gzip"


@pytest.mark.parametrize(
    ("path", "status", "detail"),
    [
        ("0x" + "dd" * 32, 404, "Contract transaction hash not found: 0x" + "dd" * 32),
        ("0.0.1001-1-1", 404, "Transaction not found: 0.0.1001-1-1"),
        ("abc", 400, "Unsupported ID format: 'abc'"),
        ("0x1234", 400, "Unsupported ID format: '0x1234'"),
    ],
)
def test_lookup_errors(client, path, status, detail):
    response = get(client, path)
    assert response.status_code == status
    message = "Not Found" if status == 404 else "Bad Request"
    assert body_of(response) == {"_status": {"messages": [{"message": message, "detail": detail, "data": ""}]}}


def test_a_transaction_without_a_contract_result_is_404(client):
    load_rows({"contract_transaction_hash": [_hash(SET_AT + 1, "ee" * 32, STORAGE)]}, source="test")
    response = get(client, "ee" * 32)
    assert response.status_code == 404
    assert body_of(response)["_status"]["messages"][0]["detail"] == f"Contract result not found: {SET_AT + 1}"


def test_a_bad_flag_is_400(client):
    response = get(client, SET_HASH, "?memory=maybe")
    assert response.status_code == 400
    assert body_of(response) == {"_status": {"messages": [
        {"message": "Bad Request", "detail": "Failed to convert 'memory'", "data": ""}]}}


def test_opcode_requests_are_throttled(client, settings):
    settings.WEB3 = {**settings.WEB3, "OPCODE_REQUESTS_PER_SECOND": 1}
    throttle.reset()
    assert get(client, SET_HASH).status_code == 200
    response = get(client, SET_HASH)
    assert response.status_code == 429
    assert body_of(response)["_status"]["messages"][0]["detail"] == "Requests per second rate limit exceeded"


@pytest.mark.django_db(transaction=True)
def test_the_server_traces_in_its_execution_pool(client, start_call_server):
    # Transactional: the ledger above is committed, for the server to read.
    try:
        server = start_call_server()
        answer = server.get(f"/api/v1/contracts/results/{SET_HASH}/opcodes?storage=true", {"Accept-Encoding": "gzip"})
        assert answer.status == 200
        assert orjson.loads(gzip.decompress(answer.body)) == trace_of(client, SET_HASH, "?storage=true")
    finally:
        empty_mirror_tables()
