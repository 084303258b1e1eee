"""The network routes over HTTP: GET /api/v1/network/nodes, /registered-nodes, /exchangerate, /fees,
/stake and /supply, and POST /api/v1/network/fees (with the schedule and STATE mode's rows in the
database)."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import Client
from hiero_sdk_python.hapi.services import transaction_pb2

from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.network.models import AddressBookEntry, FileData, RegisteredNodeType
from apps.network.tests.factories import (
    FILE_APPEND,
    FILE_CREATE,
    FILE_UPDATE,
    SECOND,
    create_address_book,
    create_file_data,
    create_network_stake,
    create_node,
    create_node_stake,
    create_registered_node,
    exchange_rate_set,
    fee_schedules,
    registered_endpoint,
)
from apps.network.tests.fee_requests import account, body, ed, extra, hbar, signed
from apps.network.tests.genesis_fee_schedule import (
    genesis_fee_schedule,
    service_definition,
)
from apps.tokens.models import CustomFee
from apps.tokens.tests.factories import create_token
from apps.topics.tests.factories import create_topic

pytestmark = pytest.mark.django_db

T = 1_700_000_000
T_NANOS = T * SECOND


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def java_error(reason: str, detail: str) -> dict:
    return {"_status": {"messages": [{"message": reason, "detail": detail}]}}


# --- /network/nodes --------------------------------------------------------------------------

BOOK = T_NANOS + 100
STAKE = T_NANOS + 200


def invalid(name: str) -> dict:
    return {"_status": {"messages": [{"message": f"Invalid parameter: {name}"}]}}


def node_ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [node["node_id"] for node in response.json()["nodes"]]


@pytest.fixture
def book():
    """An older book of 0.0.102 (1 node), the current one (4 nodes, 0..3) and one of 0.0.101;
    stakes of an older and the latest staking period; `node` rows of nodes 0 and 1."""
    create_address_book(T_NANOS, nodes=1, end=BOOK)
    create_address_book(BOOK, nodes=4)
    create_address_book(BOOK + 1, nodes=2, file_id=101)
    for node_id in range(4):
        create_node_stake(STAKE - 86400 * SECOND, node_id, stake=1)
        create_node_stake(STAKE, node_id)
    create_node(
        0,
        account_id=1003,
        decline_reward=True,
        grpc_proxy_endpoint={"domain_name": "proxy.example", "port": 443},
        associated_registered_nodes=[5, 6],
    )
    create_node(1)


def test_nodes_render_the_latest_address_book(client, book):
    response = client.get("/api/v1/network/nodes?unknown=x")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60"
    body = response.json()
    assert [node["node_id"] for node in body["nodes"]] == [0, 1, 2, 3]
    assert body["links"] == {"next": None}
    assert body["nodes"][0] == {
        "admin_key": {"_type": "ED25519", "key": "ab" * 32},
        "associated_registered_nodes": [5, 6],
        "decline_reward": True,
        "description": "node 0",
        "file_id": "0.0.102",
        "grpc_proxy_endpoint": {"domain_name": "proxy.example", "ip_address_v4": "", "port": 443},
        "max_stake": 5000,
        "memo": "0.0.3",
        "min_stake": 500,
        "node_account_id": "0.0.1003",
        "node_cert_hash": "0xcafe0",
        "node_id": 0,
        "public_key": "0x308200",
        "reward_rate_start": 100,
        "service_endpoints": [
            {"domain_name": "", "ip_address_v4": "10.0.0.0", "port": 50211},
            {"domain_name": "", "ip_address_v4": "10.0.0.0", "port": 50212},
        ],
        "stake": 1000,
        "stake_not_rewarded": 100,
        "stake_rewarded": 900,
        "staking_period": {"from": "1700000000.000000200", "to": "1700086400.000000200"},
        "timestamp": {"from": "1700000000.000000100", "to": None},
    }


def test_nodes_without_node_or_stake_rows(client):
    create_address_book(BOOK, nodes=1)

    node = client.get("/api/v1/network/nodes").json()["nodes"][0]

    assert node["admin_key"] is None
    assert node["associated_registered_nodes"] == []
    assert node["decline_reward"] is None
    assert node["grpc_proxy_endpoint"] is None
    assert node["node_account_id"] == "0.0.3"
    for field in ("max_stake", "min_stake", "reward_rate_start", "stake", "stake_not_rewarded", "stake_rewarded"):
        assert node[field] is None
    assert node["staking_period"] is None


def test_nodes_unset_stake_figures_are_null_and_empty_keys_are_0x(client):
    create_address_book(BOOK, nodes=1)
    create_node_stake(STAKE, 0, max_stake=-1, min_stake=-1, stake_not_rewarded=-1)
    AddressBookEntry.objects.filter(node_id=0).update(public_key="", node_cert_hash=None)

    node = client.get("/api/v1/network/nodes").json()["nodes"][0]

    assert (node["max_stake"], node["min_stake"], node["stake_not_rewarded"]) == (None, None, None)
    assert (node["public_key"], node["node_cert_hash"]) == ("0x", "0x")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("node.id=2", [2]),
        ("node.id=2&node.id=0", [0, 2]),
        ("node.id=gt:1", [2, 3]),
        ("node.id=gte:1&node.id=lt:3", [1, 2]),
        ("node.id=lte:1", [0, 1]),
        ("node.id=1&node.id=3&node.id=gt:1", [3]),
        ("node.id=3&node.id=lt:3", []),
        ("node.id=9", []),
        ("order=DESC", [3, 2, 1, 0]),
        ("order=desc&node.id=lt:2", [1, 0]),
        ("file.id=0.0.101", [0, 1]),
        ("file.id=101", [0, 1]),
        ("file.id=0.0.111", []),
        ("limit=100", [0, 1, 2, 3]),
    ],
)
def test_nodes_filters(client, book, query, expected):
    assert node_ids(client.get(f"/api/v1/network/nodes?{query}")) == expected


def test_nodes_page_with_next_links(client, book):
    first = client.get("/api/v1/network/nodes?limit=2")

    assert node_ids(first) == [0, 1]
    assert first.json()["links"] == {"next": "/api/v1/network/nodes?limit=2&node.id=gt:1"}
    assert first["Link"] == '</api/v1/network/nodes?limit=2&node.id=gt:1>; rel="next"'
    second = client.get(first.json()["links"]["next"])
    assert node_ids(second) == [2, 3]
    assert second.json()["links"] == {"next": "/api/v1/network/nodes?limit=2&node.id=gt:3"}
    assert node_ids(client.get(second.json()["links"]["next"])) == []


def test_nodes_descending_pages(client, book):
    first = client.get("/api/v1/network/nodes?order=desc&limit=3&node.id=gte:0&node.id=lte:9")

    assert node_ids(first) == [3, 2, 1]
    assert first.json()["links"] == {"next": "/api/v1/network/nodes?order=desc&limit=3&node.id=gte:0&node.id=lt:1"}
    assert node_ids(client.get(first.json()["links"]["next"])) == [0]
    # Nothing can follow the lowest node a query allows.
    last = client.get("/api/v1/network/nodes?order=desc&limit=3&node.id=gte:1")
    assert last.json()["links"] == {"next": None}


def test_nodes_default_to_ten_and_cap_at_twenty_five(client):
    create_address_book(BOOK, nodes=30)

    assert len(node_ids(client.get("/api/v1/network/nodes"))) == 10
    capped = client.get("/api/v1/network/nodes?limit=26")
    assert node_ids(capped) == list(range(25))
    assert capped.json()["links"] == {"next": "/api/v1/network/nodes?limit=26&node.id=gt:24"}


def test_nodes_without_an_address_book_are_empty(client):
    response = client.get("/api/v1/network/nodes")

    assert response.json() == {"nodes": [], "links": {"next": None}}


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("file.id=abc", "file.id"),
        ("file.id=0.0.102&file.id=0.0.101", "file.id"),
        ("node.id=abc", "node.id"),
        ("node.id=-1", "node.id"),
        ("node.id=foo:1", "node.id"),
        ("limit=0", "limit"),
        ("limit=-5", "limit"),
        ("limit=ten", "limit"),
        ("limit=99999999999", "limit"),
        ("order=up", "order"),
    ],
)
def test_nodes_unbound_parameters_are_400(client, book, query, name):
    response = client.get(f"/api/v1/network/nodes?{query}")

    assert response.status_code == 400
    assert response.json() == invalid(name)


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("file.id=gt:0.0.101", "Only equality operator is supported for file.id"),
        ("file.id=ne:0.0.102", "Only equality operator is supported for file.id"),
        ("node.id=gt:3&node.id=lt:2", "Invalid range provided for node.id"),
        ("node.id=lt:0", "Invalid range provided for node.id"),
    ],
)
def test_nodes_bad_ranges_are_400(client, book, query, detail):
    response = client.get(f"/api/v1/network/nodes?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


CONTRACT_PRICES = {"CryptoTransfer": 0, "EthereumTransaction": 953000, "ContractCall": 852000, "ContractCreate": 1068000}


def ok(response) -> dict:
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "public, max-age=60"
    return response.json()


@pytest.fixture
def rate_files():
    """Two versions of 0.0.112: at T (1:12 until T+3600, then 1:13) and at T+3600 (2:24, then 2:25)."""
    create_file_data(112, T * SECOND, exchange_rate_set((1, 12, T + 3600), (1, 13, T + 7200)), type=FILE_CREATE)
    create_file_data(112, (T + 3600) * SECOND, exchange_rate_set((2, 24, T + 7200), (2, 25, T + 10800)))


# --- /network/registered-nodes ----------------------------------------------------------------

REGISTERED_NODES = "/api/v1/network/registered-nodes"


def registered_node_ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [node["registered_node_id"] for node in response.json()["registered_nodes"]]


def next_link(response) -> str | None:
    return response.json()["links"]["next"]


@pytest.fixture
def registered_nodes():
    """As the upstream's controller test: 1 a block node, 2 a mirror node, 3 an RPC relay."""
    create_registered_node(1, RegisteredNodeType.BLOCK_NODE)
    create_registered_node(2, RegisteredNodeType.MIRROR_NODE)
    create_registered_node(3, RegisteredNodeType.RPC_RELAY)


def test_registered_nodes_render(client, registered_nodes):
    response = client.get(REGISTERED_NODES)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60"
    assert not response.has_header("Link")
    body = response.json()
    assert set(body) == {"registered_nodes", "links"}
    assert body["links"] == {"next": None}
    assert registered_node_ids(response) == [1, 2, 3]
    assert body["registered_nodes"][0] == {
        "admin_key": {"_type": "ED25519", "key": "cd" * 32},
        "created_timestamp": "1.000000001",
        "description": "registered node 1",
        "registered_node_id": 1,
        "service_endpoints": [
            {
                "block_node": {"endpoint_apis": ["STATUS", "PUBLISH"]},
                "domain_name": None,
                "general_service": None,
                "ip_address": "192.168.1.10",
                "mirror_node": None,
                "port": 50211,
                "requires_tls": True,
                "rpc_relay": None,
                "type": "BLOCK_NODE",
            }
        ],
        "timestamp": {"from": "1.000000001", "to": None},
    }


def test_registered_node_endpoints_of_every_type(client):
    general_service = registered_endpoint(RegisteredNodeType.GENERAL_SERVICE, domain_name="svc.example.com")
    del general_service["ip_address"]
    endpoints = [
        general_service,
        registered_endpoint(RegisteredNodeType.MIRROR_NODE, port=443, requires_tls=False),
        registered_endpoint(RegisteredNodeType.RPC_RELAY),
        # An endpoint of a type the importer did not know: answered as a general service's.
        {"domain_name": "other.example.com", "port": 1, "requires_tls": False},
    ]
    create_registered_node(7, service_endpoints=endpoints, type=[0, 2, 3, 4], description=None, admin_key=None)

    (node,) = client.get(REGISTERED_NODES).json()["registered_nodes"]

    assert (node["admin_key"], node["description"]) == (None, None)
    general, mirror, relay, unknown = node["service_endpoints"]
    assert general == {
        "block_node": None,
        "domain_name": "svc.example.com",
        "general_service": {"description": "a service"},
        "ip_address": None,
        "mirror_node": None,
        "port": 50211,
        "requires_tls": True,
        "rpc_relay": None,
        "type": "GENERAL_SERVICE",
    }
    assert (mirror["mirror_node"], mirror["port"], mirror["requires_tls"]) == ({}, 443, False)
    assert mirror["type"] == "MIRROR_NODE"
    assert (relay["rpc_relay"], relay["type"]) == ({}, "RPC_RELAY")
    assert unknown["type"] == "GENERAL_SERVICE"
    assert [unknown[key] for key in ("block_node", "general_service", "mirror_node", "rpc_relay")] == [None] * 4


def test_registered_node_without_endpoints_or_creation_and_with_an_end(client):
    create_registered_node(
        8, service_endpoints=None, created_timestamp=None, timestamp_range=Range(5 * SECOND, 6 * SECOND)
    )

    (node,) = client.get(REGISTERED_NODES).json()["registered_nodes"]

    assert (node["service_endpoints"], node["created_timestamp"]) == ([], None)
    assert node["timestamp"] == {"from": "5.000000000", "to": "6.000000000"}


def test_deleted_registered_nodes_are_left_out(client, registered_nodes):
    create_registered_node(4, deleted=True)

    assert registered_node_ids(client.get(REGISTERED_NODES)) == [1, 2, 3]
    assert registered_node_ids(client.get(f"{REGISTERED_NODES}?registerednode.id=4")) == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # The upstream's controller test, over nodes 10, 20, 30 and 40.
        ("registerednode.id=20", [20]),
        ("registerednode.id=eq:30", [30]),
        ("registerednode.id=lt:30", [10, 20]),
        ("registerednode.id=lte:30", [10, 20, 30]),
        ("registerednode.id=gt:20", [30, 40]),
        ("registerednode.id=gte:20", [20, 30, 40]),
        ("registerednode.id=lt:30&registerednode.id=lt:40", [10, 20]),
        ("registerednode.id=lte:30&registerednode.id=lt:30", [10, 20]),
        ("registerednode.id=gt:20&registerednode.id=gt:10", [30, 40]),
        ("registerednode.id=gte:20&registerednode.id=gt:20", [30, 40]),
        ("registerednode.id=gt:10&registerednode.id=lt:40", [20, 30]),
        ("registerednode.id=gte:20&registerednode.id=lte:30", [20, 30]),
        # And the rest of the grammar.
        ("registerednode.id=GTE:20&registerednode.id=Lt:40", [20, 30]),
        ("registerednode.id=ne:20", [10, 20, 30, 40]),
        ("registerednode.id=ne:20&registerednode.id=lt:30", [10, 20]),
        ("registerednode.id=99", []),
        ("registerednode.id=", [10, 20, 30, 40]),
        ("order=desc", [40, 30, 20, 10]),
        ("order=DESC&registerednode.id=lt:40", [30, 20, 10]),
        ("order=asc&limit=2", [10, 20]),
        ("type=BLOCK_NODE", [10]),
        ("type=general_service&registerednode.id=gte:40", [40]),
        ("type=mirror_node&registerednode.id=gt:20", []),
        ("unknown=1&Type=x&LIMIT=0", [10, 20, 30, 40]),
    ],
)
def test_registered_nodes_filters(client, query, expected):
    for node_id, node_type in ((10, "BLOCK_NODE"), (20, "MIRROR_NODE"), (30, "RPC_RELAY"), (40, "GENERAL_SERVICE")):
        create_registered_node(node_id, RegisteredNodeType[node_type])

    assert registered_node_ids(client.get(f"{REGISTERED_NODES}?{query}")) == expected


@pytest.mark.parametrize(
    ("type_", "expected"),
    [
        ("BLOCK_NODE", 1), ("block_node", 1), ("Block_Node", 1), ("bLoCk_NoDe", 1), ("general_service", 2),
        ("MIRROR_NODE", 3), ("mirror_node", 3), ("RPC_RELAY", 4), ("rpc_relay", 4), ("unknown", 5),
    ],
)
def test_registered_node_type_in_any_case(client, type_, expected):
    for node_id, node_type in enumerate(
        ("BLOCK_NODE", "GENERAL_SERVICE", "MIRROR_NODE", "RPC_RELAY", "UNKNOWN"), start=1
    ):
        create_registered_node(node_id, RegisteredNodeType[node_type])

    assert registered_node_ids(client.get(f"{REGISTERED_NODES}?type={type_}")) == [expected]


def test_registered_nodes_page_with_next_links(client, registered_nodes):
    first = client.get(f"{REGISTERED_NODES}?limit=1")

    assert registered_node_ids(first) == [1]
    assert next_link(first) == "/api/v1/network/registered-nodes?limit=1&registerednode.id=gt:1"
    assert first["Link"] == '</api/v1/network/registered-nodes?limit=1&registerednode.id=gt:1>; rel="next"'
    second = client.get(next_link(first))
    assert registered_node_ids(second) == [2]
    assert next_link(second) == "/api/v1/network/registered-nodes?limit=1&registerednode.id=gt:2"
    third = client.get(next_link(second))
    assert next_link(third) == "/api/v1/network/registered-nodes?limit=1&registerednode.id=gt:3"
    last = client.get(next_link(third))
    assert (registered_node_ids(last), next_link(last)) == ([], None)


@pytest.mark.parametrize(
    ("query", "ids", "link"),
    [
        ("order=desc&limit=2", [3, 2], "?order=desc&limit=2&registerednode.id=lt:2"),
        # Bounds in the order's direction give way to the page's; the others stay, the page's joining them.
        (
            "registerednode.id=gte:1&registerednode.id=lte:3&limit=2",
            [1, 2],
            "?registerednode.id=lte:3&registerednode.id=gt:2&limit=2",
        ),
        (
            "type=Mirror_Node&order=desc&registerednode.id=lt:9&limit=1",
            [2],
            "?type=Mirror_Node&order=desc&limit=1&registerednode.id=lt:2",
        ),
        # An `eq` pins the key: the link repeats the query.
        ("registerednode.id=2&limit=1", [2], "?registerednode.id=2&limit=1"),
        # The link repeats only the parameters the Java service links (any route's), without control characters.
        (
            "unknown=1&Limit=9&timestamp=5&limit=1&account.id=%01&type=%20rpc_relay",
            [3],
            "?timestamp=5&limit=1&type=%20rpc_relay&registerednode.id=gt:3",
        ),
        # Nothing can follow the last node the bounds allow, nor a page that is not full.
        ("registerednode.id=lte:2&limit=2", [1, 2], None),
        ("limit=4", [1, 2, 3], None),
    ],
)
def test_registered_nodes_next_links(client, registered_nodes, query, ids, link):
    response = client.get(f"{REGISTERED_NODES}?{query}")

    assert registered_node_ids(response) == ids
    assert next_link(response) == (link and REGISTERED_NODES + link)


def test_registered_nodes_page_by_25_and_take_up_to_100(client):
    for node_id in range(1, 103):
        create_registered_node(node_id)

    assert registered_node_ids(client.get(REGISTERED_NODES)) == list(range(1, 26))
    most = client.get(f"{REGISTERED_NODES}?limit=100")
    assert registered_node_ids(most) == list(range(1, 101))
    assert next_link(most) == f"{REGISTERED_NODES}?limit=100&registerednode.id=gt:100"
    assert client.get(f"{REGISTERED_NODES}?limit=101").json() == invalid("limit")


def test_registered_nodes_without_rows_are_empty(client):
    assert client.get(REGISTERED_NODES).json() == {"registered_nodes": [], "links": {"next": None}}


@pytest.mark.parametrize(
    "value",
    ["invalid", "-1", "eq:-1", "lt:-1", "lte:-1", "gt:-1", "gte:-1", "lt:invalid", "gt:abc", "eq:abc", ".1",
     "9223372036854775808", "a:1", "eq:1:2"],
)
def test_registered_node_ids_that_do_not_bind_are_400(client, registered_nodes, value):
    response = client.get(f"{REGISTERED_NODES}?registerednode.id={value}")

    assert response.status_code == 400
    assert response.json() == invalid("registerednode.id")


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("registerednode.id=1&registerednode.id=2&registerednode.id=3", ["registerednode.id"]),
        ("type=invalid", ["type"]),
        ("limit=0", ["limit"]),
        ("limit=-1", ["limit"]),
        ("limit=invalid", ["limit"]),
        ("order=invalid", ["order"]),
        ("limit=0&type=x&order=up", ["order", "type", "limit"]),
    ],
)
def test_registered_node_parameters_that_do_not_bind_are_400(client, registered_nodes, query, names):
    response = client.get(f"{REGISTERED_NODES}?{query}")

    assert response.status_code == 400
    assert response.json() == {"_status": {"messages": [{"message": f"Invalid parameter: {name}"} for name in names]}}


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("registerednode.id=eq:1&registerednode.id=2", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=1&registerednode.id=lt:3", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=gte:1&registerednode.id=eq:2", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=gt:10&registerednode.id=lt:5", "Invalid range: lower bound exceeds upper bound"),
        ("registerednode.id=gt:10&registerednode.id=lt:10", "Invalid range: lower bound exceeds upper bound"),
        ("order=asc&order=desc", "Only a single instance is supported for order"),
    ],
)
def test_registered_node_queries_the_service_refuses_are_400(client, registered_nodes, query, detail):
    response = client.get(f"{REGISTERED_NODES}?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


# --- /network/exchangerate -------------------------------------------------------------------


def test_exchangerate_renders_the_latest_rates(client, rate_files):
    assert ok(client.get("/api/v1/network/exchangerate?unknown=1")) == {
        "current_rate": {"cent_equivalent": 24, "expiration_time": T + 7200, "hbar_equivalent": 2},
        "next_rate": {"cent_equivalent": 25, "expiration_time": T + 10800, "hbar_equivalent": 2},
        "timestamp": f"{T + 3600}.000000000",
    }


@pytest.mark.parametrize(
    ("query", "hbars"),
    [
        (f"timestamp={T + 3599}", 1),
        (f"timestamp=eq:{T + 3599}.999999999", 1),
        (f"timestamp=lte:{T + 3600}", 2),
        (f"timestamp=lt:{T + 3600}", 1),
        (f"timestamp=LT:{T + 3600}.000000001", 2),
        (f"timestamp=gte:{T}&timestamp=lt:{T + 1}", 1),
        (f"timestamp=gt:{T}", 2),
        # The digits after the dot are nanoseconds as written, as the upstream reads them.
        (f"timestamp={T + 3599}.5", 1),
        ("timestamp=", 2),
    ],
)
def test_exchangerate_timestamp_bounds_the_file(client, rate_files, query, hbars):
    assert ok(client.get(f"/api/v1/network/exchangerate?{query}"))["current_rate"]["hbar_equivalent"] == hbars


def test_exchangerate_without_a_file_in_bounds_is_404(client, rate_files):
    response = client.get(f"/api/v1/network/exchangerate?timestamp=lt:{T}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "File 0.0.112 not found")
    assert "max-age=60" not in response.get("Cache-Control", "")


def test_exchangerate_of_a_file_that_never_parses_is_404(client):
    create_file_data(112, T * SECOND, b"\xff\xff", type=FILE_CREATE)

    assert client.get("/api/v1/network/exchangerate").json() == java_error("Not Found", "File 0.0.112 not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("timestamp=ne:1", "Failed to convert 'timestamp'"),
        ("timestamp=abc", "Failed to convert 'timestamp'"),
        ("timestamp=foo:1", "Failed to convert 'timestamp'"),
        ("timestamp=1.1234567890", "Failed to convert 'timestamp'"),
        ("timestamp=-1", "Failed to convert 'timestamp'"),
        ("timestamp=99999999999999999", "Failed to convert 'timestamp'"),
        ("timestamp=gt:1&timestamp=gt:2&timestamp=lt:5", "timestamp size must be between 0 and 2"),
        ("timestamp=gt:5&timestamp=lt:3", "Invalid range provided for timestamp"),
        ("timestamp=gt:5&timestamp=lte:5", "Invalid range provided for timestamp"),
    ],
)
def test_exchangerate_bad_timestamps_are_400(client, rate_files, query, detail):
    response = client.get(f"/api/v1/network/exchangerate?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


# --- GET /network/fees -----------------------------------------------------------------------


@pytest.fixture
def fee_files(rate_files):
    """0.0.111 at T: current schedule until T+1800, the next one has doubled gas prices."""
    doubled = {name: price * 2 for name, price in CONTRACT_PRICES.items()}
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 1800, CONTRACT_PRICES), (T + 90000, doubled)), type=17)


def test_fees_price_gas_of_the_contract_transactions(client, fee_files):
    # The schedule's own timestamp (T) picks the current schedule and the rate in force then, 1:12.
    assert ok(client.get("/api/v1/network/fees")) == {
        "fees": [
            {"gas": 71, "transaction_type": "ContractCall"},
            {"gas": 89, "transaction_type": "ContractCreate"},
            {"gas": 79, "transaction_type": "EthereumTransaction"},
        ],
        "timestamp": f"{T}.000000001",
    }


def test_fees_in_descending_order(client, fee_files):
    fees = ok(client.get("/api/v1/network/fees?order=DESC"))["fees"]

    assert [fee["transaction_type"] for fee in fees] == ["EthereumTransaction", "ContractCreate", "ContractCall"]


def test_fees_after_the_expiry_use_the_next_schedule_and_rate(client, fee_files):
    # At T+3601 the 0.0.112 version of T+3600 is in force (current rate 2:24, until T+7200)
    # and the schedule of T is past its current schedule's expiry.
    body = ok(client.get(f"/api/v1/network/fees?timestamp=lte:{T + 3601}"))

    assert body == {
        "fees": [
            {"gas": 1704 * 2 // 24, "transaction_type": "ContractCall"},
            {"gas": 2136 * 2 // 24, "transaction_type": "ContractCreate"},
            {"gas": 1906 * 2 // 24, "transaction_type": "EthereumTransaction"},
        ],
        "timestamp": f"{T}.000000001",
    }


def test_fees_use_the_next_rate_past_the_current_one(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 12, T), (1, 1, T + 3600)), type=FILE_CREATE)
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 1800, {"ContractCall": 852000}), (T, {})), type=17)

    assert ok(client.get("/api/v1/network/fees"))["fees"] == [{"gas": 852, "transaction_type": "ContractCall"}]


def test_fees_are_at_least_one_tinybar_and_skip_entries_without_service_data(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 30, T + 10), (1, 30, T + 20)), type=FILE_CREATE)
    prices = {"ContractCall": 1000, "ContractCreate": None, "EthereumTransaction": 0}
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 10, prices), (T + 20, prices)), type=FILE_CREATE)

    assert ok(client.get("/api/v1/network/fees"))["fees"] == [
        {"gas": 1, "transaction_type": "ContractCall"},
        {"gas": 1, "transaction_type": "EthereumTransaction"},
    ]


def test_fees_without_a_cent_equivalent_are_empty(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 0, T + 10), (1, 0, T + 20)), type=FILE_CREATE)
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 10, CONTRACT_PRICES), (T + 20, {})), type=FILE_CREATE)

    assert ok(client.get("/api/v1/network/fees")) == {"fees": [], "timestamp": f"{T}.000000001"}


def test_fees_without_a_schedule_is_404(client, rate_files):
    response = client.get("/api/v1/network/fees")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "File 0.0.111 not found")


def test_fees_without_a_rate_is_404(client):
    create_file_data(111, T * SECOND, fee_schedules((T + 10, CONTRACT_PRICES), (T + 20, {})), type=FILE_CREATE)

    assert client.get("/api/v1/network/fees").json() == java_error("Not Found", "File 0.0.112 not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("order=up", "Failed to convert 'order'"),
        ("timestamp=ne:1&order=asc", "Failed to convert 'timestamp'"),
        ("timestamp=1&timestamp=2&timestamp=3&order=up", "Failed to convert 'order'"),
        ("timestamp=1&timestamp=2&timestamp=3", "timestamp size must be between 0 and 2"),
    ],
)
def test_fees_bad_parameters_are_400(client, fee_files, query, detail):
    response = client.get(f"/api/v1/network/fees?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


# --- /network/stake --------------------------------------------------------------------------


def test_stake_renders_the_latest_network_stake(client):
    create_network_stake(T * SECOND - 86400 * SECOND, stake_total=1)
    create_network_stake(T * SECOND)

    assert ok(client.get("/api/v1/network/stake")) == {
        "max_stake_rewarded": 10,
        "max_staking_reward_rate_per_hbar": 17808,
        "max_total_reward": 20,
        "node_reward_fee_fraction": 0.666666667,
        "reserved_staking_rewards": 30,
        "reward_balance_threshold": 40,
        "stake_total": 35_000_000_000_000_000,
        "staking_period": {"from": f"{T}.000000000", "to": f"{T + 86400}.000000000"},
        "staking_period_duration": 1440,
        "staking_periods_stored": 365,
        "staking_reward_fee_fraction": 0.15,
        "staking_reward_rate": 100_000_000_000,
        "staking_start_threshold": 25_000_000_000_000_000,
        "unreserved_staking_reward_balance": 50,
    }


def test_stake_fractions_of_a_zero_denominator_are_zero(client):
    create_network_stake(T * SECOND, node_reward_fee_denominator=0, staking_reward_fee_denominator=0)

    body = ok(client.get("/api/v1/network/stake"))

    assert (body["node_reward_fee_fraction"], body["staking_reward_fee_fraction"]) == (0.0, 0.0)


def test_stake_without_rows_is_404(client):
    response = client.get("/api/v1/network/stake")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "No network stake data found")


# --- /network/supply -------------------------------------------------------------------------

TOTAL = 5_000_000_000_000_000_000


@pytest.fixture
def unreleased_accounts():
    """Unreleased accounts 0.0.2 and 0.0.750 (and released 0.0.98 and 0.0.751), now and in snapshots."""
    create_entity(2, balance=1_000, balance_timestamp=(T + 50) * SECOND)
    create_entity(750, balance=2_000, balance_timestamp=(T + 40) * SECOND)
    create_entity(98, balance=9_999_999, balance_timestamp=(T + 60) * SECOND)
    create_entity(751, balance=9_999_999, balance_timestamp=(T + 60) * SECOND)
    create_account_balances(T * SECOND, {2: 100, 750: 200, 98: 999, 751: 999})
    create_account_balances((T + 10) * SECOND, {2: 300, 98: 999})


def test_supply_now_from_the_accounts_balances(client, unreleased_accounts):
    assert ok(client.get("/api/v1/network/supply")) == {
        "released_supply": str(TOTAL - 3_000),
        "timestamp": f"{T + 50}.000000000",
        "total_supply": str(TOTAL),
    }


@pytest.mark.parametrize(
    ("query", "unreleased", "timestamp"),
    [
        (f"timestamp={T + 10}", 500, T + 10),
        (f"timestamp=lt:{T + 10}", 300, T),
        (f"timestamp=gte:{T}&timestamp=lte:{T + 5}", 300, T),
    ],
)
def test_supply_at_a_timestamp_from_the_latest_snapshots(client, unreleased_accounts, query, unreleased, timestamp):
    assert ok(client.get(f"/api/v1/network/supply?{query}")) == {
        "released_supply": str(TOTAL - unreleased),
        "timestamp": f"{timestamp}.000000000",
        "total_supply": str(TOTAL),
    }


def test_supply_looks_back_to_the_first_day_of_the_previous_month(client):
    # T is 2023-11-14: snapshots from 2023-10-01 on count, older ones do not.
    create_account_balances(1_696_118_400 * SECOND - 1, {42: 7})
    create_account_balances(1_696_118_400 * SECOND, {44: 5})

    body = ok(client.get(f"/api/v1/network/supply?timestamp={T}"))

    assert (body["released_supply"], body["timestamp"]) == (str(TOTAL - 5), "1696118400.000000000")


@pytest.mark.parametrize(
    ("query", "text"),
    [("q=totalcoins", "50000000000.00000000"), ("q=CIRCULATING", "49999999999.99997000"), ("q=total_coins", "50000000000.00000000")],
)
def test_supply_as_plain_text(client, unreleased_accounts, query, text):
    response = client.get(f"/api/v1/network/supply?{query}")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain;charset=UTF-8"
    assert response["Cache-Control"] == "public, max-age=60"
    assert response.content.decode() == text


def test_supply_without_balances_is_404(client, unreleased_accounts):
    response = client.get(f"/api/v1/network/supply?timestamp=lt:{T}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "Network supply not found")


def test_supply_without_accounts_is_404(client):
    assert client.get("/api/v1/network/supply").json() == java_error("Not Found", "Network supply not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("q=all", "Failed to convert 'q'"),
        ("q=totalcoins&q=circulating", "Failed to convert 'q'"),
        ("timestamp=ne:1", "Failed to convert 'timestamp'"),
        ("timestamp=1&timestamp=2&timestamp=3", "timestamp size must be between 0 and 2"),
        ("timestamp=gte:3&timestamp=lt:3", "Invalid range provided for timestamp"),
    ],
)
def test_supply_bad_parameters_are_400(client, unreleased_accounts, query, detail):
    response = client.get(f"/api/v1/network/supply?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"
URL = "/api/v1/network/fees"
PROTOBUF = "application/protobuf"
SCHEDULE_FILE = 113
PRNG = signed(body(util_prng={"range": 10}))


@pytest.fixture
def genesis():
    store_file(genesis_fee_schedule().SerializeToString())


def store_file(data: bytes, timestamp: int = T_NANOS, transaction_type: int = FILE_CREATE) -> None:
    FileData.objects.create(
        entity_id=SCHEDULE_FILE, consensus_timestamp=timestamp, transaction_type=transaction_type, file_data=data
    )


def post(client, data: bytes, query: str = "", content_type: str = PROTOBUF):
    return client.post(f"{URL}{query}", data=data, content_type=content_type)


def bad_request(detail: str) -> dict:
    return java_error("Bad Request", detail)


# --- POST /network/fees: estimates -----------------------------------------------------------


def test_estimate_of_a_transfer(client, genesis):
    response = post(client, PRNG)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Cache-Control"] == "public, max-age=60"
    assert response.json() == {
        "high_volume_multiplier": 1,
        "network": {"multiplier": 9, "subtotal": 900000},
        "node": {"base": 100000, "extras": []},
        "service": {"base": 9000000, "extras": []},
        "total": 10000000,
    }


@pytest.mark.parametrize(
    ("path", "content_type"),
    [(URL, "application/x-protobuf"), (URL + "/", PROTOBUF), (URL, "Application/Protobuf; proto=proto.Transaction")],
)
def test_media_types_and_trailing_slash(client, genesis, path, content_type):
    response = client.post(path, data=PRNG, content_type=content_type)
    assert response.status_code == 200
    assert response.json()["total"] == 10000000


def test_no_csrf_token_needed(genesis):
    response = Client(enforce_csrf_checks=True).post(URL, data=PRNG, content_type=PROTOBUF)
    assert response.status_code == 200


@pytest.mark.parametrize("mode", ["STATE", "state", "State", " state ", "s-t_a-te"])
def test_state_mode_spellings(client, genesis, mode):
    request = signed(body(cryptoCreateAccount={"key": ed(1)}, high_volume=True))
    assert post(client, request, f"?mode={mode}").json()["high_volume_multiplier"] == 4


@pytest.mark.parametrize("query", ["", "?mode=", "?mode=INTRINSIC", "?mode=intrinsic&high_volume_throttle="])
def test_intrinsic_mode(client, genesis, query):
    request = signed(body(cryptoCreateAccount={"key": ed(1)}, high_volume=True))
    assert post(client, request, query).json()["high_volume_multiplier"] == 1


def test_high_volume_along_a_piecewise_curve(client, genesis):
    threshold_key = {"thresholdKey": {"threshold": 2, "keys": {"keys": [ed(1), ed(2), ed(3)]}}}
    request = signed(body(cryptoCreateAccount={"key": threshold_key}, high_volume=True))
    assert post(client, request, "?mode=STATE&high_volume_throttle=0").json() == {
        "high_volume_multiplier": 4,
        "network": {"multiplier": 9, "subtotal": 3600000},
        "node": {"base": 400000, "extras": []},
        "service": {"base": 1996000000, "extras": [extra("KEYS", 3, 1, 2, 400000000)]},
        "total": 2800000000,
    }
    for throttle in ("4", "0x4", " 4"):
        fees = post(client, request, f"?mode=STATE&high_volume_throttle={throttle}").json()
        assert (fees["high_volume_multiplier"], fees["total"]) == (9, 6300000000)


def submit_message() -> bytes:
    return signed(body(consensusSubmitMessage={"topicID": {"topicNum": 7001}, "message": b"a" * 2000}))


def test_state_mode_topic_with_custom_fees(client, genesis):
    create_topic(7001, fixed_fees=[{"amount": 1, "collector_account_id": 1001}])
    fees = post(client, submit_message(), "?mode=STATE").json()
    assert fees["service"]["extras"] == [
        extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 1, 0, 1, 498300000),
        extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", 2000, 1024, 976, 1000000),
    ]
    assert fees["total"] == 1556000000
    assert post(client, submit_message()).json()["total"] == 94620000


@pytest.mark.parametrize("topic", [None, {"with_fees": False}, {"fixed_fees": []}])
def test_state_mode_topic_without_custom_fees(client, genesis, topic):
    if topic is not None:
        create_topic(7001, **topic)
    assert post(client, submit_message(), "?mode=STATE").json()["total"] == 94620000


TOKEN_TRANSFERS = signed(body(cryptoTransfer={"tokenTransfers": [
    {"token": {"tokenNum": 5001}, "transfers": [hbar(1001, -10), hbar(1002, 10)]},
    {"token": {"tokenNum": 5002},
     "nftTransfers": [{"senderAccountID": account(1001), "receiverAccountID": account(1003), "serialNumber": 1}]},
]}))


@pytest.mark.parametrize(
    ("fees_of_5001", "extras", "total"),
    [
        (None, [extra("TOKEN_TRANSFER_BASE", 1, 0, 1, 9000000)], 12000000),
        ({"fixed_fees": [{"amount": 1}], "fractional_fees": None},
         [extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 1, 19000000)], 22000000),
        ({"royalty_fees": [{"amount": 1}]}, [extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 1, 19000000)], 22000000),
        ({"fixed_fees": [], "fractional_fees": [], "royalty_fees": []},
         [extra("TOKEN_TRANSFER_BASE", 1, 0, 1, 9000000)], 12000000),
    ],
    ids=["no-fees", "fixed-fee", "royalty-fee", "empty-fees"],
)
def test_state_mode_token_with_custom_fees(client, genesis, fees_of_5001, extras, total):
    create_token(5001, type="FUNGIBLE_COMMON", fees=fees_of_5001)
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    fees = post(client, TOKEN_TRANSFERS, "?mode=STATE").json()
    assert fees["service"]["extras"] == [
        extra("ACCOUNTS", 3, 2, 1, 1000000), *extras, extra("TOKEN_TYPES", 2, 1, 1, 1000000)
    ]
    assert fees["total"] == total


def test_state_mode_tokens_missing(client, genesis):
    fees = post(client, TOKEN_TRANSFERS, "?mode=STATE").json()
    assert fees["total"] == 11000000


def test_state_mode_token_without_a_custom_fee_row(client, genesis):
    create_token(5001, type="FUNGIBLE_COMMON")
    CustomFee.objects.filter(entity_id=5001).delete()
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    assert post(client, TOKEN_TRANSFERS, "?mode=STATE").json()["total"] == 12000000


def test_state_mode_system_file_update_is_free(client, genesis):
    request = signed(body(fileUpdate={"fileID": {"fileNum": 150}, "contents": b"x" * 1200}))
    assert post(client, request, "?mode=STATE").json()["total"] == 0
    assert post(client, request).json()["total"] == 700000000


# --- POST /network/fees: the schedule file ---------------------------------------------------


def test_schedule_assembled_from_create_and_appends(client):
    data = genesis_fee_schedule().SerializeToString()
    store_file(data[:1000])
    store_file(data[1000:2000], T_NANOS + 1, FILE_APPEND)
    store_file(data[2000:], T_NANOS + 2, FILE_APPEND)
    assert post(client, PRNG).json()["total"] == 10000000


def test_newest_update_and_its_appends_replace_the_schedule(client, genesis):
    cheaper = genesis_fee_schedule()
    service_definition(cheaper, "UtilPrng").base_fee = 1
    data = cheaper.SerializeToString()
    store_file(b"", T_NANOS + 1, FILE_UPDATE)
    store_file(data[:100], T_NANOS + 2, FILE_UPDATE)
    store_file(data[100:], T_NANOS + 3, FILE_APPEND)
    store_file(b"", T_NANOS + 4, FILE_UPDATE)
    assert post(client, PRNG).json()["service"]["base"] == 1


def test_invalid_newest_schedule_leaves_the_previous_one(client, genesis):
    invalid = genesis_fee_schedule()
    invalid.network.multiplier = 0
    store_file(invalid.SerializeToString(), T_NANOS + 1, FILE_UPDATE)
    assert post(client, PRNG).json()["total"] == 10000000


def test_schedule_of_another_file_is_not_read(client):
    FileData.objects.create(entity_id=112, consensus_timestamp=T_NANOS, transaction_type=FILE_CREATE,
                            file_data=genesis_fee_schedule().SerializeToString())
    assert post(client, PRNG).json() == bad_request("Unknown transaction type")


# --- POST /network/fees: errors --------------------------------------------------------------


def test_no_schedule(client):
    response = post(client, PRNG)
    assert response.status_code == 400
    assert response.json() == bad_request("Unknown transaction type")


@pytest.mark.parametrize(
    ("content_type", "echoed"),
    [
        ("application/json", "application/json"),
        ("text/plain; format = flowed", "text/plain;format=flowed"),
        ("", "application/octet-stream"),
    ],
)
def test_unsupported_media_type(client, genesis, content_type, echoed):
    response = post(client, PRNG, content_type=content_type)
    assert response.status_code == 415
    assert response.json() == java_error("Unsupported Media Type", f"Content-Type '{echoed}' is not supported")


def test_body_over_one_mebibyte(client, genesis):
    response = post(client, b"\x00" * (1024 * 1024 + 1))
    assert response.status_code == 413
    assert response.json()["_status"]["messages"][0]["detail"] == "Request body exceeds 1048576 bytes"
    assert post(client, signed(body(fileAppend={"contents": b"x" * (1024 * 1024 - 200)}))).status_code == 200


def test_empty_body(client, genesis):
    response = client.generic("POST", URL, b"", CONTENT_TYPE=PROTOBUF)
    assert response.status_code == 400
    assert response.json() == bad_request("Failed to read request")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("?mode=FAST", "Failed to convert 'mode'"),
        ("?mode=STATE&mode=INTRINSIC", "Failed to convert 'mode'"),
        ("?high_volume_throttle=abc", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=1.5", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=2147483648", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=-1", "highVolumeThrottle must be greater than or equal to 0"),
        ("?high_volume_throttle=10001", "highVolumeThrottle must be less than or equal to 10000"),
    ],
)
def test_invalid_parameters(client, genesis, query, detail):
    response = post(client, PRNG, query)
    assert response.status_code == 400
    assert response.json() == bad_request(detail)


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"\x0a\xff", "Unable to parse transaction"),
        (b"\xff" * 100, "Unable to parse transaction"),
        (transaction_pb2.Transaction(signedTransactionBytes=b"\x0a\xff").SerializeToString(),
         "Unable to parse transaction"),
        (transaction_pb2.Transaction(body=body(util_prng={})).SerializeToString(),
         "Transaction must contain body bytes or signed transaction bytes"),
        (signed(body(freeze={})), "Unknown transaction type"),
        (signed(body()), "Unknown transaction type"),
    ],
)
def test_malformed_transactions(client, genesis, data, detail):
    response = post(client, data)
    assert response.status_code == 400
    assert response.json() == bad_request(detail)


def test_extra_missing_from_a_custom_schedule(client):
    schedule = genesis_fee_schedule()
    service_definition(schedule, "TokenCreate").ClearField("extras")
    store_file(schedule.SerializeToString())
    response = post(client, signed(body(tokenCreation={"name": "T"})))
    assert response.json() == bad_request("Extra not defined KEYS")


def test_unrouted_post_is_not_found(client):
    response = client.post("/api/v1/network/fees/estimate", data=PRNG, content_type=PROTOBUF)
    assert response.status_code == 404
    assert response.json() == {"_status": {"messages": [{"message": "Not found"}]}}


def test_demo_data_carries_the_genesis_schedule(client):
    call_command("loadfixtures", "--if-empty", DEMO)
    rows = FileData.objects.filter(entity_id=SCHEDULE_FILE)
    assert [bytes(row.file_data) for row in rows] == [genesis_fee_schedule().SerializeToString()]
    assert post(client, PRNG, "?mode=STATE").json()["total"] == 10000000
