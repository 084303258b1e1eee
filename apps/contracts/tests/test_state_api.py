"""`/contracts/{contractIdOrAddress}/state`: current and historical storage."""

import pytest
from django.test import Client

from apps.accounts.tests.factories import create_entity
from apps.contracts.models import ContractState, ContractStateChange

pytestmark = pytest.mark.django_db

SECOND = 1_000_000_000
T = 1_700_000_000 * SECOND
CONTRACT_ADDRESS = "25fe26adc577cc89172e6156c9e24f7b9751b762"
EOA_ADDRESS = "35fe26adc577cc89172e6156c9e24f7b9751b763"
DELEGATE = bytes.fromhex("deadbeef" + "00" * 16)


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def word(value: int) -> str:
    return "0x" + format(value, "064x")


def create_slot(contract_id: int, slot: int, value: bytes, *, modified: int = T):
    ContractState.objects.create(
        contract_id=contract_id,
        slot=slot.to_bytes(32),
        value=value,
        created_timestamp=T,
        modified_timestamp=modified,
    )


def create_change(contract_id: int, timestamp: int, slot: bytes, *, read: int, written: int | None):
    ContractStateChange.objects.create(
        consensus_timestamp=timestamp,
        contract_id=contract_id,
        payer_account_id=2,
        slot=slot,
        value_read=read.to_bytes(32),
        value_written=None if written is None else written.to_bytes(32),
        migration=False,
    )


@pytest.fixture
def state():
    create_entity(5001, type="CONTRACT", evm_address=bytes.fromhex(CONTRACT_ADDRESS))
    create_slot(5001, 1, (0x10).to_bytes(32))
    create_slot(5001, 2, b"\x20", modified=T + 1)
    create_slot(5001, 3, b"")
    create_slot(5002, 1, (0x99).to_bytes(32))


@pytest.fixture
def history():
    create_entity(5001, type="CONTRACT")
    create_change(5001, T + 1, b"", read=0, written=1)
    create_change(5001, T + 1, b"\x02", read=0, written=2)
    create_change(5001, T + 5, b"\x02", read=2, written=None)
    create_change(5001, T + 6, b"\x02", read=2, written=22)
    create_change(5001, T + 6, b"\x01\x00", read=0, written=256)


def state_url(path: str) -> str:
    return f"/api/v1/contracts/{path}/state"


def slots(response) -> list[str]:
    return [item["slot"] for item in response.json()["state"]]


def messages(response) -> list[str]:
    return [message["message"] for message in response.json()["_status"]["messages"]]


def test_current_state_in_slot_order(client, state, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get(state_url("5001"))

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "state": [
            {
                "address": "0x" + CONTRACT_ADDRESS,
                "contract_id": "0.0.5001",
                "timestamp": "1700000000.000000000",
                "slot": word(1),
                "value": word(0x10),
            },
            {
                "address": "0x" + CONTRACT_ADDRESS,
                "contract_id": "0.0.5001",
                "timestamp": "1700000000.000000001",
                "slot": word(2),
                "value": word(0x20),
            },
            {
                "address": "0x" + CONTRACT_ADDRESS,
                "contract_id": "0.0.5001",
                "timestamp": "1700000000.000000000",
                "slot": word(3),
                "value": word(0),
            },
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    "path", ["0.0.5001", "0.5001", "0x0000000000000000000000000000000000001389", CONTRACT_ADDRESS, "0x" + CONTRACT_ADDRESS]
)
def test_every_spelling_of_the_contract(client, state, path):
    assert slots(client.get(state_url(path))) == [word(1), word(2), word(3)]


def test_an_unknown_contract_has_no_state(client, state):
    for path in ("9999", "5e17c988cc14ae5f0bf328245eaf88f081c3a614"):
        assert client.get(state_url(path)).json() == {"state": [], "links": {"next": None}}


def test_without_an_entity_the_address_is_the_long_zero_one(client, state):
    assert client.get(state_url("5002")).json()["state"][0]["address"] == "0x000000000000000000000000000000000000138a"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("slot=2", [2]),
        ("slot=0x2", [2]),
        ("slot=eq:02", [2]),
        ("slot=" + word(2), [2]),
        ("slot=" + word(2)[2:], [2]),
        ("slot=1&slot=3", [1, 3]),
        ("slot=gt:1", [2, 3]),
        ("slot=gte:2", [2, 3]),
        ("slot=lt:2", [1]),
        ("slot=lte:0x2", [1, 2]),
        ("slot=gt:1&slot=lt:3", [2]),
        ("order=desc", [3, 2, 1]),
    ],
)
def test_current_state_filters(client, state, query, expected):
    assert slots(client.get(state_url("5001") + "?" + query)) == [word(slot) for slot in expected]


def test_current_state_pages_by_slot(client, state):
    first = client.get(state_url("5001") + "?limit=2")
    assert slots(first) == [word(1), word(2)]
    assert first.json()["links"]["next"] == f"/api/v1/contracts/5001/state?limit=2&slot=gt:{word(2)}"
    second = client.get(first.json()["links"]["next"])
    assert slots(second) == [word(3)]
    assert second.json()["links"]["next"] is None

    descending = client.get(state_url("5001") + "?limit=1&order=desc")
    assert descending.json()["links"]["next"] == f"/api/v1/contracts/5001/state?limit=1&order=desc&slot=lt:{word(3)}"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # eq reads as "the state then"; a slot's newest change counts, its written value or else the read one.
        ("timestamp=1700000000.000000005", [(0, 1, 1), (2, 2, 5)]),
        ("timestamp=lte:1700000000.000000004", [(0, 1, 1), (2, 2, 1)]),
        ("timestamp=lt:1700000000.000000006", [(0, 1, 1), (2, 2, 5)]),
        # History keeps slots without leading zero bytes and orders them as bytes, as upstream: 0x0100 < 0x02.
        ("timestamp=gt:1700000000.000000001", [(256, 256, 6), (2, 22, 6)]),
        ("timestamp=gte:1700000000.000000002&timestamp=lt:1700000000.000000006", [(2, 2, 5)]),
        ("timestamp=1700000000.000000009&slot=2", [(2, 22, 6)]),
        ("timestamp=1700000000.000000009&slot=" + word(2), [(2, 22, 6)]),
        ("timestamp=1700000000.000000009&slot=0", [(0, 1, 1)]),
        ("timestamp=1700000000.000000009&slot=gte:1", [(256, 256, 6), (2, 22, 6)]),
        ("timestamp=1700000000.000000009&order=desc", [(2, 22, 6), (256, 256, 6), (0, 1, 1)]),
    ],
)
def test_historical_state(client, history, query, expected):
    body = client.get(state_url("5001") + "?" + query).json()
    assert [(item["slot"], item["value"], item["timestamp"]) for item in body["state"]] == [
        (word(slot), word(value), f"1700000000.00000000{at}") for slot, value, at in expected
    ]
    assert body["state"][0]["address"] == "0x0000000000000000000000000000000000001389"


def test_historical_state_pages_by_slot(client, history):
    first = client.get(state_url("5001") + "?timestamp=1700000000.000000009&limit=2")
    assert first.json()["links"]["next"] == (
        f"/api/v1/contracts/5001/state?timestamp=1700000000.000000009&limit=2&slot=gt:{word(256)}"
    )
    second = client.get(first.json()["links"]["next"])
    assert slots(second) == [word(2)]


def test_an_account_with_a_code_delegation_has_state(client):
    create_entity(5011, evm_address=bytes.fromhex(EOA_ADDRESS), delegation_address=DELEGATE)
    create_slot(5011, 1, b"\x10")
    expected = {
        "state": [
            {
                "address": "0x" + EOA_ADDRESS,
                "contract_id": "0.0.5011",
                "timestamp": "1700000000.000000000",
                "slot": word(1),
                "value": word(0x10),
            }
        ],
        "links": {"next": None},
    }
    for path in ("5011", "0.0.5011", "0x0000000000000000000000000000000000001393", EOA_ADDRESS, "0x" + EOA_ADDRESS):
        assert client.get(state_url(path)).json() == expected


@pytest.mark.parametrize(
    ("path", "query", "expected"),
    [
        ("abc", "", ["Invalid parameter: contractid"]),
        ("abc", "slot=x", ["Invalid parameter: contractid"]),
        ("0.0.274877906944", "", ["Invalid parameter: contractid"]),
        ("5001", "slot=", ["Invalid parameter: slot"]),
        ("5001", "slot=x", ["Invalid parameter: slot"]),
        ("5001", "slot=ne:1", ["Invalid parameter: slot"]),
        ("5001", "slot=0x" + "0" * 65, ["Invalid parameter: slot"]),
        ("5001", "limit=test", ["Invalid parameter: limit"]),
        ("5001", "order=test", ["Invalid parameter: order"]),
        ("5001", "nonce=2", ["Unknown query parameter: nonce"]),
        ("5001", "timestamp=0x0001", ["Invalid parameter: timestamp"]),
        ("5001", "timestamp=ne:1", ["Not equals (ne) operator is not supported for timestamp"]),
        ("5001", "timestamp=ne:1&slot=x", ["Invalid parameter: slot"]),
    ],
)
def test_bad_requests(client, state, path, query, expected):
    response = client.get(f"{state_url(path)}?{query}")
    assert response.status_code == 400
    assert messages(response) == expected
