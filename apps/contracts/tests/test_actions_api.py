"""`/contracts/results/{transactionIdOrHash}/actions`."""

import pytest
from django.test import Client

from apps.contracts.tests.results_factories import (
    create_action,
    create_result,
    create_result_transaction,
    eth_hash,
)

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005
TRANSACTION_ID = f"0.0.8001-{(T - 100) // 10**9}-{(T - 100) % 10**9:09d}"
HASH = "0x" + eth_hash(T).hex()


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def indexes(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [action["index"] for action in response.json()["actions"]]


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def actions():
    result = create_result(T, 5001)
    create_result_transaction(result, T - 100)
    create_action(
        T, 0, recipient_contract=None, recipient_account=8002, call_operation_type=None, caller_type="ACCOUNT"
    )
    create_action(T, 1, recipient_address=bytes.fromhex("01" * 20), call_type=3, result_data_type=12)
    create_action(T, 2, call_operation_type=6, call_type=2, recipient_contract=None, result_data_type=13)
    # Another payer's actions at the same timestamp are not this transaction's.
    create_action(T, 3, payer=9999)


def test_actions_render_exact_rows(client, actions):
    response = client.get(f"/api/v1/contracts/results/{TRANSACTION_ID}/actions?limit=2")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    assert response.json() == {
        "actions": [
            {
                "call_depth": 0,
                "call_operation_type": "UNKNOWN",
                "call_type": "CALL",
                "caller": "0.0.8001",
                "caller_type": "ACCOUNT",
                "from": "0x0000000000000000000000000000000000001f41",
                "gas": 2000,
                "gas_used": 100,
                "index": 0,
                "input": "0x0a0b",
                "recipient": "0.0.8002",
                "recipient_type": "ACCOUNT",
                "result_data": "0x0c",
                "result_data_type": "OUTPUT",
                "timestamp": "1676540001.234390005",
                "to": "0x0000000000000000000000000000000000001f42",
                "value": 5,
            },
            {
                "call_depth": 1,
                "call_operation_type": "CALL",
                "call_type": "PRECOMPILE",
                "caller": "0.0.8001",
                "caller_type": "ACCOUNT",
                "from": "0x0000000000000000000000000000000000001f41",
                "gas": 2000,
                "gas_used": 100,
                "index": 1,
                "input": "0x0a0b",
                "recipient": "0.0.5001",
                "recipient_type": "CONTRACT",
                "result_data": "0x0c",
                "result_data_type": "REVERT_REASON",
                "timestamp": "1676540001.234390005",
                "to": "0x" + "01" * 20,
                "value": 5,
            },
        ],
        "links": {"next": f"/api/v1/contracts/results/{TRANSACTION_ID}/actions?limit=2&index=gt:1"},
    }


def test_actions_without_recipient(client, actions):
    action = client.get(f"/api/v1/contracts/results/{HASH}/actions?index=2").json()["actions"][0]
    assert (action["recipient"], action["recipient_type"], action["to"]) == (None, None, None)
    assert (action["call_operation_type"], action["call_type"], action["result_data_type"]) == (
        "CREATE2",
        "CREATE",
        "ERROR",
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [0, 1, 2]),
        ("order=desc", [2, 1, 0]),
        ("index=1", [1]),
        ("index=eq:2", [2]),
        ("index=gt:0&index=lt:2", [1]),
        ("index=gte:1&order=desc&limit=1", [2]),
        ("index=lte:0", [0]),
        ("index=9", []),
        ("index=1&index=eq:2", []),
        ("index=1&index=lte:1", [1]),
    ],
)
def test_actions_filters(client, actions, query, expected):
    assert indexes(client.get(f"/api/v1/contracts/results/{HASH}/actions?{query}")) == expected


def test_actions_page_descending(client, actions):
    response = client.get(f"/api/v1/contracts/results/{TRANSACTION_ID}/actions?index=lt:3&order=desc&limit=1")
    assert indexes(response) == [2]
    assert response.json()["links"]["next"] == (
        f"/api/v1/contracts/results/{TRANSACTION_ID}/actions?order=desc&limit=1&index=lt:2"
    )


def test_actions_of_a_transaction_without_actions_are_empty(client):
    result = create_result(T, 5001)
    create_result_transaction(result, T - 100)
    response = client.get(f"/api/v1/contracts/results/{TRANSACTION_ID}/actions")
    assert response.json() == {"actions": [], "links": {"next": None}}


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        (f"{'ab' * 32}/actions", 404, envelope("Not found")),
        ("0.0.8001-1-1/actions", 404, envelope("Not found")),
        (
            "xyz/actions",
            400,
            envelope(
                'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format'
                " where sss are seconds and nnn are nanoseconds"
            ),
        ),
        (
            f"{HASH}/actions?order=b&limit=c&nonce=2",
            400,
            envelope(
                "Invalid parameter: order", "Invalid parameter: limit", "Unknown query parameter: nonce"
            ),
        ),
        (
            f"{HASH}/actions?index=ne:1&index=-1",
            400,
            envelope("Invalid parameter: index", "Invalid parameter: index"),
        ),
    ],
)
def test_actions_errors(client, actions, path, status, body):
    response = client.get(f"/api/v1/contracts/results/{path}")
    assert (response.status_code, response.json()) == (status, body)
