"""`/api/v1/contracts/{contractIdOrAddress}/results/logs` and `/api/v1/contracts/results/logs`."""

import pytest
from django.db import connection
from django.test import Client

from apps.accounts.tests.factories import create_entity
from apps.blocks.tests.factories import block_hash, create_record_files, record_file
from apps.contracts.models import ContractLog

pytestmark = pytest.mark.django_db

T = 1_639_010_141_000_000_000
SECOND = 1_000_000_000
CONTRACT = 1000
EOA = 1500
CONTRACT_ADDRESS = "70f2b2914a2a4b783faefb75f459a580616fcb5e"
EOA_ADDRESS = "01beefdead0000000000000000000000abcd1234"
DELEGATE = bytes.fromhex("a0" * 20)
TOPIC_A = bytes.fromhex("97c1fc0a6ed5551bc831571325e9bdb365d06803100dc20648640ba24ce69750")
TOPIC_B = bytes.fromhex("0a")
BY_ID = f"/api/v1/contracts/0.0.{CONTRACT}/results/logs"
ALL = "/api/v1/contracts/results/logs"


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def create_log(timestamp: int, index: int, contract_id: int = CONTRACT, **overrides) -> ContractLog:
    fields = {
        "bloom": b"\x01\x23",
        "consensus_timestamp": timestamp,
        "contract_id": contract_id,
        "data": b"\x01\x23",
        "index": index,
        "payer_account_id": 2,
        "root_contract_id": None,
        "topic0": TOPIC_A,
        "topic1": TOPIC_B,
        "transaction_hash": bytes.fromhex("9d" * 32),
        "transaction_index": 1,
    }
    return ContractLog.objects.create(**{**fields, **overrides})


def keys(response) -> list[tuple[str, int]]:
    assert response.status_code == 200, response.content
    return [(log["timestamp"], log["index"]) for log in response.json()["logs"]]


def ts(seconds: int) -> str:
    return f"{(T + seconds * SECOND) // SECOND}.000000000"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def logs():
    """Contract 0.0.1000: two logs at T, one at T+10s, one at T+20s; one log of contract 0.0.1001 at T+10s."""
    create_entity(CONTRACT, type="CONTRACT", evm_address=bytes.fromhex(CONTRACT_ADDRESS))
    create_record_files(
        record_file(1, T + SECOND // 2, consensus_start=T),
        record_file(2, T + 30 * SECOND, consensus_start=T + SECOND),
    )
    create_log(T, 0)
    create_log(T, 1, topic1=bytes.fromhex("0b"))
    create_log(T + 10 * SECOND, 0)
    create_log(T + 10 * SECOND, 1, contract_id=1001)
    create_log(T + 20 * SECOND, 0, topic0=bytes.fromhex("0c"))


def test_a_log_renders_every_field(client):
    create_entity(CONTRACT, type="CONTRACT", evm_address=bytes.fromhex(CONTRACT_ADDRESS))
    create_record_files(record_file(7, T + 5, consensus_start=T - 5, hash="ab" * 48))
    create_log(
        T,
        2,
        root_contract_id=1001,
        topic1=b"",
        topic2=bytes.fromhex("0f"),
        data=b"",
        transaction_index=3,
    )

    response = client.get(BY_ID)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "logs": [
            {
                "address": "0x" + CONTRACT_ADDRESS,
                "block_hash": "0x" + "ab" * 48,
                "block_number": 7,
                "bloom": "0x0123",
                "contract_id": "0.0.1000",
                "data": "0x",
                "index": 2,
                "root_contract_id": "0.0.1001",
                "timestamp": "1639010141.000000000",
                "topics": ["0x" + TOPIC_A.hex(), "0x" + "0" * 64, "0x" + "0" * 63 + "f"],
                "transaction_hash": "0x" + "9d" * 32,
                "transaction_index": 3,
            }
        ],
        "links": {"next": None},
    }


def test_a_log_without_address_or_block_shows_long_zero_address_and_no_block(client):
    create_log(T, 0, data=bytes.fromhex("0123"))

    log = client.get(BY_ID).json()["logs"][0]

    assert log["address"] == "0x00000000000000000000000000000000000003e8"
    assert log["data"] == "0x" + "0" * 60 + "0123"
    assert (log["block_hash"], log["block_number"]) == ("0x", None)


@pytest.mark.parametrize(
    "contract",
    [
        "0.0.1000",
        "0.1000",
        "1000",
        CONTRACT_ADDRESS,
        "0x" + CONTRACT_ADDRESS,
        "0.0." + CONTRACT_ADDRESS,
        "0x" + "0" * 37 + "3e8",
    ],
)
def test_the_path_names_a_contract_by_id_or_address(client, logs, contract):
    response = client.get(f"/api/v1/contracts/{contract}/results/logs")
    assert keys(response) == [(ts(20), 0), (ts(10), 0), (ts(0), 1), (ts(0), 0)]


@pytest.mark.parametrize("account", [f"0.0.{EOA}", EOA_ADDRESS, "0x" + EOA_ADDRESS])
def test_an_account_with_a_code_delegation_shows_its_logs(client, logs, account):
    create_entity(EOA, type="ACCOUNT", evm_address=bytes.fromhex(EOA_ADDRESS), delegation_address=DELEGATE)
    create_log(T + 10 * SECOND, 2, contract_id=EOA)

    response = client.get(f"/api/v1/contracts/{account}/results/logs")

    assert keys(response) == [(ts(10), 2)]
    assert response.json()["logs"][0]["address"] == "0x" + EOA_ADDRESS
    assert response.json()["logs"][0]["contract_id"] == f"0.0.{EOA}"


@pytest.mark.parametrize("contract", ["0.0.5001", "0x" + "55" * 20, "0.0.0"])
def test_an_unknown_contract_has_no_logs(client, logs, contract):
    response = client.get(f"/api/v1/contracts/{contract}/results/logs")
    assert response.status_code == 200
    assert response.json() == {"logs": [], "links": {"next": None}}


@pytest.mark.parametrize("contract", ["0.0.x", "1.2.3.4", "0x" + "5" * 39, "0.0.-1"])
def test_a_malformed_contract_is_rejected(client, contract):
    response = client.get(f"/api/v1/contracts/{contract}/results/logs")
    assert response.status_code == 400
    assert response.json() == envelope("Invalid parameter: contractid")


def test_order_asc(client, logs):
    assert keys(client.get(BY_ID + "?order=asc")) == [(ts(0), 0), (ts(0), 1), (ts(10), 0), (ts(20), 0)]
    assert keys(client.get(BY_ID + "?order=ASC")) == [(ts(0), 0), (ts(0), 1), (ts(10), 0), (ts(20), 0)]


def test_pages_desc_follow_the_next_link_to_the_end(client, logs):
    response = client.get(BY_ID + "?limit=2")
    assert keys(response) == [(ts(20), 0), (ts(10), 0)]
    link = response.json()["links"]["next"]
    assert link == f"{BY_ID}?limit=2&timestamp=lte:{ts(10)}&index=lt:0"
    assert response["Link"] == f'<{link}>; rel="next"'

    response = client.get(link)
    assert keys(response) == [(ts(0), 1), (ts(0), 0)]
    link = response.json()["links"]["next"]
    assert link == f"{BY_ID}?limit=2&timestamp=lte:{ts(0)}&index=lt:0"

    response = client.get(link)
    assert keys(response) == []
    assert response.json()["links"]["next"] is None


def test_pages_asc_follow_the_next_link(client, logs):
    response = client.get(BY_ID + "?order=asc&limit=1")
    assert keys(response) == [(ts(0), 0)]
    link = response.json()["links"]["next"]
    assert link == f"{BY_ID}?order=asc&limit=1&timestamp=gte:{ts(0)}&index=gt:0"
    assert keys(client.get(link)) == [(ts(0), 1)]


def test_limit_defaults_and_caps(client, logs, settings):
    settings.MIRROR = {**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 3}
    assert len(keys(client.get(BY_ID))) == 2
    assert len(keys(client.get(BY_ID + "?limit=50"))) == 3


def test_timestamp_range(client, logs):
    response = client.get(BY_ID + f"?timestamp=gte:{ts(0)}&timestamp=lt:{ts(20)}")
    assert keys(response) == [(ts(10), 0), (ts(0), 1), (ts(0), 0)]
    assert keys(client.get(BY_ID + f"?timestamp=gt:{ts(0)}&timestamp=lte:{ts(10)}")) == [(ts(10), 0)]


def test_timestamp_equal_and_index(client, logs):
    assert keys(client.get(BY_ID + f"?timestamp={ts(0)}")) == [(ts(0), 1), (ts(0), 0)]
    assert keys(client.get(BY_ID + f"?timestamp={ts(0)}&index=1")) == [(ts(0), 1)]
    assert keys(client.get(BY_ID + f"?timestamp={ts(0)}&index=lt:1")) == [(ts(0), 0)]


def test_a_gte_lte_pair_on_one_timestamp_is_an_equality(client, logs):
    url = BY_ID + f"?timestamp=gte:{ts(0)}&timestamp=lte:{ts(0)}&index=1"
    response = client.get(url)
    assert keys(response) == [(ts(0), 1)]


def test_index_bounds_continue_the_timestamp_keyset(client, logs):
    url = BY_ID + f"?order=asc&timestamp=gte:{ts(0)}&index=gt:0"
    assert keys(client.get(url)) == [(ts(0), 1), (ts(10), 0), (ts(20), 0)]
    url = BY_ID + f"?timestamp=lte:{ts(10)}&index=lt:0"
    assert keys(client.get(url)) == [(ts(0), 1), (ts(0), 0)]
    url = BY_ID + f"?timestamp=gte:{ts(0)}&timestamp=lte:{ts(20)}&index=gte:1&index=lte:0&order=asc"
    assert keys(client.get(url)) == [(ts(0), 1), (ts(10), 0), (ts(20), 0)]


def test_a_page_with_an_index_range_keeps_the_other_bounds_in_its_link(client, logs):
    url = BY_ID + f"?index=gte:0&timestamp=gte:{ts(0)}&index=lte:1&timestamp=lte:{ts(20)}&limit=2&order=asc"
    response = client.get(url)
    assert keys(response) == [(ts(0), 0), (ts(0), 1)]
    assert response.json()["links"]["next"] == (
        f"{BY_ID}?index=lte:1&index=gt:1&timestamp=lte:{ts(20)}&timestamp=gte:{ts(0)}&limit=2&order=asc"
    )


def test_no_next_link_for_one_timestamp_and_index(client, logs):
    response = client.get(BY_ID + f"?timestamp={ts(0)}&index=0&limit=1")
    assert keys(response) == [(ts(0), 0)]
    assert response.json()["links"]["next"] is None


def test_topics_or_within_and_across(client, logs):
    window = f"&timestamp=gte:{ts(0)}&timestamp=lte:{ts(20)}"
    assert keys(client.get(BY_ID + f"?topic0=0x{TOPIC_A.hex()}" + window)) == [(ts(10), 0), (ts(0), 1), (ts(0), 0)]
    assert keys(client.get(BY_ID + "?topic1=0x0b" + window)) == [(ts(0), 1)]
    assert keys(client.get(BY_ID + "?topic1=0b&topic1=000a" + window)) == [
        (ts(20), 0),
        (ts(10), 0),
        (ts(0), 1),
        (ts(0), 0),
    ]
    assert keys(client.get(BY_ID + "?topic0=0c&topic1=0x0a" + window)) == [(ts(20), 0)]
    assert keys(client.get(BY_ID + "?topic0=0c&topic1=0b" + window)) == []


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("index=-1&index=a", ["Invalid parameter: index", "Invalid parameter: index"]),
        ("timestamp=1.x", ["Invalid parameter: timestamp"]),
        ("topic1=0xqqq", ["Invalid parameter: topic1"]),
        ("topic2=gt:0xaa", ["Invalid parameter: topic2"]),
        ("topic3=" + "a" * 65, ["Invalid parameter: topic3"]),
        ("limit=0", ["Invalid parameter: limit"]),
        ("order=up", ["Invalid parameter: order"]),
        ("scheduled=true", ["Unknown query parameter: scheduled"]),
        ("transaction.hash=0x" + "ab" * 32, ["Unknown query parameter: transaction.hash"]),
        ("index=gte:2&index=lte:7", ["index without a timestamp parameter filter"]),
        ("index=2", ["timestamp must have eq operator"]),
        ("timestamp=ne:1639010141", ["Not equal (ne) operator is not supported for timestamp"]),
        ("timestamp=1&index=ne:1", ["Not equal (ne) operator is not supported for index"]),
        ("timestamp=1&timestamp=2", ["Only one equal (eq) operator is allowed for timestamp"]),
        ("timestamp=gt:1&timestamp=gte:2", ["Only one gt/gte operator is allowed for timestamp"]),
        ("timestamp=lt:1&timestamp=lte:2", ["Only one lt/lte operator is allowed for timestamp"]),
        ("timestamp=1&timestamp=lt:2", ["Can't support both range and equal for timestamp"]),
        ("timestamp=1&index=1&index=gt:0", ["Can't support both range and equal for index"]),
        ("timestamp=gt:1&index=gt:0", ["timestamp must have gte or eq operator"]),
        ("timestamp=lte:1&index=gt:0", ["timestamp must have gte or eq operator"]),
        ("timestamp=lt:1&index=lt:0", ["timestamp must have lte or eq operator"]),
        (
            "topic0=0a",
            ["Cannot search topics without a valid timestamp range: No timestamp range or eq operator provided"],
        ),
        (
            "topic0=0a&timestamp=gte:1",
            [
                "Cannot search topics without a valid timestamp range: "
                "Timestamp range must have gt (or gte) and lt (or lte), or eq operator"
            ],
        ),
        (
            "topic0=0a&timestamp=gte:1539010151&timestamp=lte:1739010151",
            [
                "Cannot search topics without a valid timestamp range: "
                "Timestamp range by the lower and upper bounds must be positive and within 7d"
            ],
        ),
        (
            "topic0=0a&timestamp=gt:1639020141&timestamp=lt:1639000141",
            [
                "Cannot search topics without a valid timestamp range: "
                "Timestamp range by the lower and upper bounds must be positive and within 7d"
            ],
        ),
        (
            "topic0=0a&timestamp=1&timestamp=gt:0",
            [
                "Cannot search topics without a valid timestamp range: "
                "Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param"
            ],
        ),
        (
            "topic0=0a&timestamp=ne:1",
            [
                "Cannot search topics without a valid timestamp range: "
                "Not equals operator not supported for timestamp param"
            ],
        ),
    ],
)
def test_bad_queries_are_rejected(client, query, messages):
    response = client.get(f"{BY_ID}?{query}")
    assert response.status_code == 400
    assert response.json() == envelope(*messages)


def test_all_contracts_route_lists_every_contract(client, logs):
    response = client.get(ALL + f"?timestamp={ts(10)}")
    assert response["Cache-Control"] == "public, max-age=10"
    assert [(log["contract_id"], log["index"]) for log in response.json()["logs"]] == [
        ("0.0.1001", 1),
        ("0.0.1000", 0),
    ]
    assert keys(client.get(ALL + "?limit=2")) == [(ts(20), 0), (ts(10), 1)]


def test_all_contracts_route_filters_by_transaction_hash(client, logs):
    hedera_hash = bytes.fromhex("cd" * 48)
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into transaction_hash (consensus_timestamp, hash, payer_account_id, hash_suffix)"
            " values (%s, %s, 2, %s)",
            [T + 10 * SECOND, hedera_hash[:32], hedera_hash[32:]],
        )

    assert keys(client.get(ALL + f"?transaction.hash=0x{hedera_hash.hex()}")) == [(ts(10), 1), (ts(10), 0)]
    assert keys(client.get(ALL + f"?transaction.hash={hedera_hash[:32].hex()}")) == [(ts(10), 1), (ts(10), 0)]
    assert keys(client.get(ALL + f"?transaction.hash={hedera_hash.hex()}&timestamp=lt:{ts(10)}")) == []
    assert keys(client.get(ALL + f"?transaction.hash=0x{'ef' * 32}")) == []


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("transaction.hash=0x1234", ["Invalid parameter: transaction.hash"]),
        ("transaction.hash=ne:0x" + "ab" * 32, ["Invalid parameter: transaction.hash"]),
        (
            f"transaction.hash={'ab' * 32}&transaction.hash={'cd' * 32}",
            ["Only one transaction.hash filter is allowed"],
        ),
    ],
)
def test_all_contracts_route_rejects_bad_transaction_hashes(client, query, messages):
    response = client.get(f"{ALL}?{query}")
    assert response.status_code == 400
    assert response.json() == envelope(*messages)


def test_routes_take_a_trailing_slash(client, logs):
    assert len(keys(client.get(BY_ID + "/"))) == 4
    assert len(keys(client.get(ALL + "/"))) == 5


def test_the_block_of_a_log_is_the_record_file_containing_it(client, logs):
    blocks = {(log["timestamp"], log["index"]): log["block_number"] for log in client.get(BY_ID).json()["logs"]}
    assert blocks == {(ts(0), 0): 1, (ts(0), 1): 1, (ts(10), 0): 2, (ts(20), 0): 2}
    assert client.get(BY_ID).json()["logs"][0]["block_hash"] == "0x" + block_hash(2)
