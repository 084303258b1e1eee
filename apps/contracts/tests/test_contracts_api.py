"""`/contracts` and `/contracts/{contractIdOrAddress}`."""

import pytest
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import Client

from apps.accounts.tests.factories import create_entity, create_entity_history
from apps.contracts.models import Contract
from apps.network.models import FileData

pytestmark = pytest.mark.django_db

URL = "/api/v1/contracts"
SECOND = 1_000_000_000
CREATED = 1_600_000_000 * SECOND
ADDRESS = "71eaa748d5252be68c1185588beca495459fdba4"
OLD_ADDRESS = "62cf9068fed962cf9068fed962cf9068fed9dddd"
FILE_CREATE, FILE_APPEND, FILE_UPDATE = 17, 16, 19


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def create_contract(contract_id: int, *, file_id=None, initcode=None, runtime_bytecode=None, **entity):
    create_entity(contract_id, type="CONTRACT", created_timestamp=CREATED, **entity)
    Contract.objects.create(id=contract_id, file_id=file_id, initcode=initcode, runtime_bytecode=runtime_bytecode)


@pytest.fixture
def contracts():
    create_contract(
        1001,
        key=bytes.fromhex("0101"),
        memo="first",
        auto_renew_period=100,
        auto_renew_account_id=98,
        ethereum_nonce=3,
        max_automatic_token_associations=5,
        obtainer_id=800,
        proxy_account_id=801,
        permanent_removal=False,
        file_id=5001,
        timestamp_range=Range(CREATED + 10, None),
    )
    create_entity_history(
        1001, CREATED, CREATED + 10, type="CONTRACT", created_timestamp=CREATED, evm_address=bytes.fromhex(OLD_ADDRESS)
    )
    create_contract(1002, evm_address=bytes.fromhex(ADDRESS), initcode=b"\x60\x80", runtime_bytecode=b"\x60\x40")
    create_contract(1003, deleted=True, expiration_timestamp=CREATED + 5)
    create_entity(1004, type="ACCOUNT")
    FileData.objects.create(entity_id=5001, consensus_timestamp=CREATED - 3, transaction_type=FILE_CREATE, file_data=b"aa")
    FileData.objects.create(entity_id=5001, consensus_timestamp=CREATED - 2, transaction_type=FILE_UPDATE, file_data=b"")
    FileData.objects.create(entity_id=5001, consensus_timestamp=CREATED - 1, transaction_type=FILE_APPEND, file_data=b"bb")
    FileData.objects.create(entity_id=5001, consensus_timestamp=CREATED + 1, transaction_type=FILE_APPEND, file_data=b"cc")


def ids(response) -> list[str]:
    return [contract["contract_id"] for contract in response.json()["contracts"]]


def messages(response) -> list[str]:
    return [message["message"] for message in response.json()["_status"]["messages"]]


def test_list_renders_every_field_newest_first(client, contracts):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    body = response.json()
    assert ids(response) == ["0.0.1003", "0.0.1002", "0.0.1001"]
    assert body["links"] == {"next": None}
    assert body["contracts"][2] == {
        "admin_key": {"_type": "ProtobufEncoded", "key": "0101"},
        "auto_renew_account": "0.0.98",
        "auto_renew_period": 100,
        "contract_id": "0.0.1001",
        "created_timestamp": "1600000000.000000000",
        "deleted": False,
        "evm_address": "0x00000000000000000000000000000000000003e9",
        "expiration_timestamp": "1600000100.000000000",
        "file_id": "0.0.5001",
        "max_automatic_token_associations": 5,
        "memo": "first",
        "nonce": 3,
        "obtainer_id": "0.0.800",
        "permanent_removal": False,
        "proxy_account_id": "0.0.801",
        "timestamp": {"from": "1600000000.000000010", "to": None},
    }
    assert body["contracts"][1]["evm_address"] == "0x" + ADDRESS
    assert body["contracts"][0]["expiration_timestamp"] == "1600000000.000000005"


def test_list_pages_by_contract_id(client, contracts):
    first = client.get(f"{URL}?limit=2")
    assert ids(first) == ["0.0.1003", "0.0.1002"]
    assert first.json()["links"]["next"] == "/api/v1/contracts?limit=2&contract.id=lt:0.0.1002"
    assert first["Link"] == '</api/v1/contracts?limit=2&contract.id=lt:0.0.1002>; rel="next"'

    second = client.get(first.json()["links"]["next"])
    assert ids(second) == ["0.0.1001"]
    assert second.json()["links"]["next"] is None

    ascending = client.get(f"{URL}?order=asc&limit=2")
    assert ids(ascending) == ["0.0.1001", "0.0.1002"]
    assert ascending.json()["links"]["next"] == "/api/v1/contracts?order=asc&limit=2&contract.id=gt:0.0.1002"


def test_list_has_no_next_page_past_an_upper_bound(client, contracts):
    response = client.get(f"{URL}?limit=1&contract.id=gt:0.0.1002")
    assert ids(response) == ["0.0.1003"]
    assert response.json()["links"]["next"] is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("contract.id=1002", ["0.0.1002"]),
        ("contract.id=0.1002", ["0.0.1002"]),
        ("contract.id=0.0.1002", ["0.0.1002"]),
        ("contract.id=1001&contract.id=1002", ["0.0.1002", "0.0.1001"]),
        ("contract.id=1001&contract.id=1003&contract.id=gt:1001", ["0.0.1003"]),
        ("contract.id=ne:1002", ["0.0.1003", "0.0.1001"]),
        ("contract.id=gte:1002&contract.id=lt:1003", ["0.0.1002"]),
        ("contract.id=1004", []),
        ("contract.id=" + ADDRESS, ["0.0.1002"]),
        ("contract.id=0.0." + ADDRESS, ["0.0.1002"]),
        ("contract.id=1.2." + ADDRESS.upper(), ["0.0.1002"]),
        ("contract.id=eq:00000000000000000000000000000000000003e9", ["0.0.1001"]),
        ("contract.id=" + "ab" * 20, []),
        ("contract.id=" + "ab" * 20 + "&contract.id=1001", ["0.0.1001"]),
    ],
)
def test_list_filters_by_contract_id_or_address(client, contracts, query, expected):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    assert ids(response) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "contract.id=a&order=b&limit=c&timestamp=1",
            [
                "Invalid parameter: contract.id",
                "Invalid parameter: order",
                "Invalid parameter: limit",
                "Unknown query parameter: timestamp",
            ],
        ),
        ("contract.id=0x" + ADDRESS, ["Invalid parameter: contract.id"]),
        ("contract.id=gt:" + ADDRESS, ["Invalid parameter: contract.id"]),
        ("contract.id=lt:00000000000000000000000000000000000003e9", ["Invalid parameter: contract.id"]),
        ("contract.id=0.0.1.2", ["Invalid parameter: contract.id"]),
        ("contract.id=274877906944", ["Invalid parameter: contractid"]),
        ("contract.id=1024.0.1", ["Invalid parameter: contractid"]),
        ("contract.id=-1", ["Invalid parameter: contractid"]),
        ("contract.id=gt:0.0.274877906944&limit=x", ["Invalid parameter: limit"]),
        ("limit=0", ["Invalid parameter: limit"]),
    ],
)
def test_list_rejects_bad_parameters(client, contracts, query, expected):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 400
    assert messages(response) == expected


def test_list_caps_the_limit(client, contracts, settings):
    settings.MIRROR = {**settings.MIRROR, "LIMIT_MAX": 2}
    assert ids(client.get(f"{URL}?limit=50")) == ["0.0.1003", "0.0.1002"]


def test_one_contract_by_id_or_address(client, contracts):
    response = client.get(f"{URL}/0.0.1002")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    body = response.json()
    assert body["contract_id"] == "0.0.1002"
    assert body["bytecode"] == "0x6080"
    assert body["runtime_bytecode"] == "0x6040"
    for path in ("1002", "0.1002", ADDRESS, "0x" + ADDRESS, "0.0." + ADDRESS, "1.2." + ADDRESS):
        assert client.get(f"{URL}/{path}").json() == body
    assert client.get(f"{URL}/0x00000000000000000000000000000000000003ea").json() == body


def test_bytecode_is_the_hex_text_of_its_file_as_of_creation(client, contracts):
    body = client.get(f"{URL}/1001").json()
    # The create, an empty update (ignored) and the append before creation; not the later append.
    assert body["bytecode"] == "0xaabb"
    assert body["runtime_bytecode"] == "0x"


@pytest.mark.parametrize(
    ("file_id", "initcode", "expected"),
    [(None, None, "0x"), (150, b"\x01\x02", "0x0102"), (7000, b"\x01\x02", "0x")],
)
def test_bytecode_without_a_user_file_is_the_initcode(client, file_id, initcode, expected):
    create_contract(1005, file_id=file_id, initcode=initcode)
    assert client.get(f"{URL}/1005").json()["bytecode"] == expected


def test_file_content_with_0x_is_kept_as_written(client):
    create_contract(1005, file_id=5002)
    FileData.objects.create(entity_id=5002, consensus_timestamp=CREATED, transaction_type=FILE_CREATE, file_data=b"0xab")
    assert client.get(f"{URL}/1005").json()["bytecode"] == "0xab"


@pytest.mark.parametrize(
    "query",
    [
        "timestamp=1600000000.000000005",
        "timestamp=lte:1600000000.000000005",
        "timestamp=lt:1600000000.000000010",
        "timestamp=lt:1600000000.000000010&timestamp=gt:1",
        "timestamp=ne:1600000000.000000020&timestamp=lte:1600000000.000000009",
    ],
)
def test_a_past_version(client, contracts, query):
    body = client.get(f"{URL}/1001?{query}").json()
    assert body["evm_address"] == "0x" + OLD_ADDRESS
    assert body["timestamp"] == {"from": "1600000000.000000000", "to": "1600000000.000000010"}


@pytest.mark.parametrize("query", ["timestamp=gte:1600000000.000000010", "timestamp=9999999999.999999999"])
def test_the_newest_version_within_the_range(client, contracts, query):
    body = client.get(f"{URL}/1001?{query}").json()
    assert body["timestamp"] == {"from": "1600000000.000000010", "to": None}


def test_a_past_address_names_the_contract_then(client, contracts):
    assert client.get(f"{URL}/{OLD_ADDRESS}?timestamp=1600000000.000000005").json()["contract_id"] == "0.0.1001"
    assert client.get(f"{URL}/{OLD_ADDRESS}").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "1004",
        "9999",
        "ab" * 20,
        "1001?timestamp=lt:1600000000",
        "1001?timestamp=lte:1600000000.000000005&timestamp=gt:1600000000.000000020",
        "1001?timestamp=gt:9999999999.999999999",
    ],
)
def test_one_contract_not_found(client, contracts, path):
    response = client.get(f"{URL}/{path}")
    assert response.status_code == 404
    assert messages(response) == ["Not found"]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("abc", ["Invalid parameter: contractid"]),
        ("1.2.3.4", ["Invalid parameter: contractid"]),
        ("1024.0.1", ['Invalid entity ID "1024.0.1"']),
        ("274877906944", ['Invalid entity ID "0.0.274877906944"']),
        # Shard, realm and num beyond the digits upstream reads, or an `0x` after a prefix.
        ("12345.1.1", ["Invalid parameter: contractid"]),
        ("0.123456.1", ["Invalid parameter: contractid"]),
        ("0.0.1234567890123", ["Invalid parameter: contractid"]),
        ("12345678901234567890", ["Invalid parameter: contractid"]),
        ("0.0.0x0000000000000000000000000000000000002b0a", ["Invalid parameter: contractid"]),
        # A realm.num shape names the system's shard in the message.
        ("99999.1", ['Invalid entity ID "0.99999.1"']),
        ("1001?timestamp=a&timestamp=el:10&timestamp=-1", ["Invalid parameter: timestamp"] * 3),
        ("1001?timestamp=x&limit=3", ["Invalid parameter: timestamp", "Unknown query parameter: limit"]),
        ("abc?limit=3", ["Invalid parameter: contractid"]),
    ],
)
def test_one_contract_bad_request(client, contracts, path, expected):
    response = client.get(f"{URL}/{path}")
    assert response.status_code == 400
    assert messages(response) == expected
