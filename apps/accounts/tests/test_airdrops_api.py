"""`/accounts/{id}/airdrops/outstanding` and `/pending`, served upstream by the Java service."""

import pytest

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import java_error
from apps.accounts.tests.subroute_factories import create_airdrop

pytestmark = pytest.mark.django_db

OUTSTANDING = "/api/v1/accounts/0.0.1001/airdrops/outstanding"
PENDING = "/api/v1/accounts/0.0.2001/airdrops/pending"


@pytest.fixture
def airdrops():
    create_entity(1001)
    for receiver in (2001, 2002):
        create_airdrop(1001, receiver, 3001)
        create_airdrop(1001, receiver, 4001, 1)
        create_airdrop(1001, receiver, 4001, 2)
    create_airdrop(1001, 2003, 3001, state="CLAIMED")
    create_airdrop(1002, 2001, 3001)


def keys(response, party: str = "receiver_id") -> list[tuple[int, int, int | None]]:
    return [
        (int(a[party].split(".")[-1]), int(a["token_id"].split(".")[-1]), a["serial_number"])
        for a in response.json()["airdrops"]
    ]


ALL_OUTSTANDING = [(r, t, s) for r in (2001, 2002) for t, s in ((3001, None), (4001, 1), (4001, 2))]


def test_outstanding_airdrops_sent_by_the_account(client, airdrops):
    response = client.get(OUTSTANDING)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    body = response.json()
    assert body["airdrops"][0] == {
        "amount": 10,
        "receiver_id": "0.0.2001",
        "sender_id": "0.0.1001",
        "serial_number": None,
        "timestamp": {"from": "0.000006003", "to": None},
        "token_id": "0.0.3001",
    }
    assert body["airdrops"][1]["amount"] is None
    assert keys(response) == ALL_OUTSTANDING
    assert body["links"] == {"next": None}


def test_pending_airdrops_received_by_the_account(client, airdrops):
    response = client.get(PENDING)

    assert keys(response, "sender_id") == [(1001, 3001, None), (1001, 4001, 1), (1001, 4001, 2), (1002, 3001, None)]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=desc&limit=2", [(2002, 4001, 2), (2002, 4001, 1)]),
        ("receiver.id=2002", ALL_OUTSTANDING[3:]),
        ("receiver.id=2001&token.id=4001", [(2001, 4001, 1), (2001, 4001, 2)]),
        ("receiver.id=2001&token.id=4001&serialnumber=2", [(2001, 4001, 2)]),
        ("receiver.id=gte:2001&token.id=gte:4001&serialnumber=gt:1", [(2001, 4001, 2), *ALL_OUTSTANDING[3:]]),
        ("receiver.id=lte:2002&token.id=lte:3001", [*ALL_OUTSTANDING[:3], (2002, 3001, None)]),
        ("receiver.id=ne:2001", ALL_OUTSTANDING[3:]),
        ("token.id=gt:3001", ALL_OUTSTANDING),
        ("token.id=4001", [(2001, 4001, 1), (2001, 4001, 2), (2002, 4001, 1), (2002, 4001, 2)]),
        ("Receiver.Id=2002&other=1", ALL_OUTSTANDING),
    ],
)
def test_outstanding_filters(client, airdrops, query, expected):
    response = client.get(f"{OUTSTANDING}?{query}")

    assert response.status_code == 200
    assert keys(response) == expected


def test_outstanding_pages(client, airdrops):
    url, pages = f"{OUTSTANDING}?limit=2", []
    while url:
        response = client.get(url)
        pages.append(keys(response))
        url = response.json()["links"]["next"]

    assert pages == [ALL_OUTSTANDING[:2], ALL_OUTSTANDING[2:4], ALL_OUTSTANDING[4:], []]


def test_next_link_leaves_out_the_serial_of_a_fungible_airdrop(client, airdrops):
    response = client.get(f"{OUTSTANDING}?limit=1")

    assert response.json()["links"]["next"] == f"{OUTSTANDING}?limit=1&receiver.id=gte:0.0.2001&token.id=gt:0.0.3001"


def test_next_link_of_an_nft_airdrop_anchors_the_serial(client, airdrops):
    response = client.get(f"{PENDING}?limit=2&order=desc")

    assert response.json()["links"]["next"] == (
        f"{PENDING}?limit=2&order=desc&sender.id=lte:0.0.1001&token.id=lte:0.0.4001&serialnumber=lt:2"
    )


def test_unknown_alias_is_not_found(client, airdrops):
    response = client.get("/api/v1/accounts/AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ/airdrops/pending")

    assert response.status_code == 404
    assert java_error(response) == {"message": "Not Found", "detail": "No account found for the given ID"}


def test_malformed_path(client, airdrops):
    response = client.get("/api/v1/accounts/0.0.x/airdrops/outstanding")

    assert response.status_code == 400
    assert java_error(response) == {"message": "Bad Request", "detail": "Failed to convert 'id'"}


@pytest.mark.parametrize(
    "url, detail",
    [
        (f"{OUTSTANDING}?receiver.id=x", "Failed to convert 'receiver.id'"),
        (f"{PENDING}?sender.id=lte:y", "Failed to convert 'sender.id'"),
        (f"{OUTSTANDING}?serialnumber=-1", "Failed to convert 'serialnumber'"),
        (f"{OUTSTANDING}?token.id=a.b.c", "Failed to convert 'token.id'"),
        (f"{OUTSTANDING}?limit=1.5", "Failed to convert 'limit'"),
        (f"{OUTSTANDING}?order=sideways", "Failed to convert 'order'"),
        (f"{OUTSTANDING}?limit=-3", "limit must be greater than 0"),
        (f"{OUTSTANDING}?limit=1000", "limit must be less than or equal to 100"),
        (f"{OUTSTANDING}?serialnumber=1&serialnumber=2&serialnumber=3", "serialnumber size must be between 0 and 2"),
        (f"{OUTSTANDING}?receiver.id=gt:5&receiver.id=lt:2", "Invalid range provided for receiver.id"),
        (f"{PENDING}?sender.id=gte:5&sender.id=lte:4", "Invalid range provided for sender.id"),
    ],
)
def test_airdrop_query_errors(client, airdrops, url, detail):
    response = client.get(url)

    assert response.status_code == 400
    assert java_error(response) == {"message": "Bad Request", "detail": detail}


def test_next_link_drops_serial_bounds_after_a_fungible_airdrop(client, airdrops):
    response = client.get(f"{OUTSTANDING}?limit=1&receiver.id=gt:2000&token.id=gte:3000&serialnumber=gt:0")

    assert keys(response) == [(2001, 3001, None)]
    assert response.json()["links"]["next"] == (
        f"{OUTSTANDING}?limit=1&receiver.id=gte:0.0.2001&token.id=gt:0.0.3001"
    )


def test_exclusive_token_bound_leaves_the_serial_bound_out(client, airdrops):
    """`token.id=gt:` ends the lower tuple: a serial bound after it does not narrow the page."""
    response = client.get(f"{OUTSTANDING}?receiver.id=gte:2001&token.id=gt:3001&serialnumber=gt:1")

    assert keys(response) == [(2001, 4001, 1), (2001, 4001, 2), *ALL_OUTSTANDING[3:]]
