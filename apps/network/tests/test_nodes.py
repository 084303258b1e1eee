"""GET /api/v1/network/nodes."""

import pytest
from django.test import Client

from apps.network.models import AddressBookEntry
from apps.network.tests.factories import SECOND, create_address_book, create_node, create_node_stake

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
BOOK = T + 100
STAKE = T + 200


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def java_error(reason: str, detail: str) -> dict:
    return {"_status": {"messages": [{"message": reason, "detail": detail}]}}


def invalid(name: str) -> dict:
    return {"_status": {"messages": [{"message": f"Invalid parameter: {name}"}]}}


def node_ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [node["node_id"] for node in response.json()["nodes"]]


@pytest.fixture
def book():
    """An older book of 0.0.102 (1 node), the current one (4 nodes, 0..3) and one of 0.0.101;
    stakes of an older and the latest staking period; `node` rows of nodes 0 and 1."""
    create_address_book(T, nodes=1, end=BOOK)
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
