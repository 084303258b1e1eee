"""`/accounts/{id}/allowances/nfts` and `/accounts/{id}/airdrops/outstanding|pending`, served
upstream by the Java service: their error shape and paging."""

import pytest

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import java_error
from apps.tokens.tests.account_factories import create_airdrop, create_nft_allowance

pytestmark = pytest.mark.django_db


# --- /accounts/{id}/allowances/nfts -----------------------------------------------------------
URL = "/api/v1/accounts/0.0.1001/allowances/nfts"


@pytest.fixture
def allowances():
    create_entity(1001, alias=b"\x01" * 32, evm_address=b"\xab" * 20)
    for spender in (2001, 2002):
        for token in (3001, 3002, 3003):
            create_nft_allowance(1001, spender, token)
    create_nft_allowance(1001, 2003, 3001, approved_for_all=False)
    create_nft_allowance(1002, 2001, 3001)
    create_nft_allowance(1003, 2001, 3002)


def pairs(response) -> list[tuple[int, int]]:
    return [
        (int(a["spender"].split(".")[-1]), int(a["token_id"].split(".")[-1])) for a in response.json()["allowances"]
    ]


def test_allowances_granted_by_the_account(client, allowances):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["allowances"][0] == {
        "approved_for_all": True,
        "owner": "0.0.1001",
        "spender": "0.0.2001",
        "timestamp": {"from": "0.000006003", "to": "0.000006008"},
        "token_id": "0.0.3001",
    }
    assert pairs(response) == [(s, t) for s in (2001, 2002) for t in (3001, 3002, 3003)]
    assert response.json()["links"] == {"next": None}


def test_allowances_received_by_the_account(client, allowances):
    response = client.get("/api/v1/accounts/2001/allowances/nfts?owner=false")

    assert [(a["owner"], a["token_id"]) for a in response.json()["allowances"]] == [
        ("0.0.1001", "0.0.3001"),
        ("0.0.1001", "0.0.3002"),
        ("0.0.1001", "0.0.3003"),
        ("0.0.1002", "0.0.3001"),
        ("0.0.1003", "0.0.3002"),
    ]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=desc&limit=2", [(2002, 3003), (2002, 3002)]),
        ("order=DESC&limit=1", [(2002, 3003)]),
        ("account.id=2002", [(2002, 3001), (2002, 3002), (2002, 3003)]),
        ("account.id=0.0.2002&token.id=gt:3001", [(2002, 3002), (2002, 3003)]),
        ("account.id=gte:2001&token.id=gt:3002", [(2001, 3003), (2002, 3001), (2002, 3002), (2002, 3003)]),
        ("account.id=lte:2002&token.id=lt:3002", [(2001, 3001), (2001, 3002), (2001, 3003), (2002, 3001)]),
        ("account.id=gt:2001", [(2002, 3001), (2002, 3002), (2002, 3003)]),
        ("account.id=lt:2002", [(2001, 3001), (2001, 3002), (2001, 3003)]),
        ("owner=TRUE&Account.Id=2002&unknown=1", [(s, t) for s in (2001, 2002) for t in (3001, 3002, 3003)]),
    ],
)
def test_allowance_filters(client, allowances, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 200
    assert pairs(response) == expected


def test_allowance_pages(client, allowances):
    url, pages = f"{URL}?limit=2", []
    while url:
        response = client.get(url)
        pages.append(pairs(response))
        url = response.json()["links"]["next"]

    assert pages == [
        [(2001, 3001), (2001, 3002)],
        [(2001, 3003), (2002, 3001)],
        [(2002, 3002), (2002, 3003)],
        [],
    ]


def test_allowance_next_link_keeps_the_query_and_adds_bounds(client, allowances):
    response = client.get(f"{URL}?account.id=lte:0.0.2002&owner=true&token.id=lt:0.0.3003&limit=2&order=asc")

    link = response.json()["links"]["next"]
    assert link == (
        f"{URL}?account.id=lte:0.0.2002&account.id=gte:0.0.2001&owner=true"
        "&token.id=lt:0.0.3003&token.id=gt:0.0.3002&limit=2&order=asc"
    )
    assert response["Link"] == f'<{link}>; rel="next"'


def test_allowance_next_link_descending_with_a_pinned_spender(client, allowances):
    response = client.get(f"{URL}?account.id=2002&order=desc&limit=1")

    assert response.json()["links"]["next"] == f"{URL}?account.id=2002&order=desc&limit=1&token.id=lt:0.0.3003"


def test_allowances_by_alias_and_evm_address(client, allowances):
    by_alias = client.get("/api/v1/accounts/AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ/allowances/nfts")
    by_address = client.get(f"/api/v1/accounts/0x{'ab' * 20}/allowances/nfts")

    assert pairs(by_alias) == pairs(by_address) == [(s, t) for s in (2001, 2002) for t in (3001, 3002, 3003)]


def test_unknown_numeric_account_has_no_allowances(client, allowances):
    assert client.get("/api/v1/accounts/0.0.9999/allowances/nfts").json() == {
        "allowances": [],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    "path",
    [
        "0x" + "cd" * 20,
        "AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAA",
    ],
)
def test_unknown_address_or_alias_is_not_found(client, allowances, path):
    response = client.get(f"/api/v1/accounts/{path}/allowances/nfts")

    assert response.status_code == 404
    assert java_error(response) == {"message": "Not Found", "detail": "No account found for the given ID"}


@pytest.mark.parametrize("path", ["x", "0.0.-1", "0.65536.1", "1.2.3.4", "0.0.1234567890123"])
def test_allowances_malformed_path(client, allowances, path):
    response = client.get(f"/api/v1/accounts/{path}/allowances/nfts")

    assert response.status_code == 400
    assert java_error(response) == {"message": "Bad Request", "detail": "Failed to convert 'id'"}


@pytest.mark.parametrize(
    "query, detail",
    [
        ("account.id=x", "Failed to convert 'account.id'"),
        ("account.id=foo:1", "Failed to convert 'account.id'"),
        ("token.id=0xabc", "Failed to convert 'token.id'"),
        ("limit=x", "Failed to convert 'limit'"),
        ("order=up", "Failed to convert 'order'"),
        ("owner=maybe", "Failed to convert 'owner'"),
        ("limit=0", "limit must be greater than 0"),
        ("limit=101", "limit must be less than or equal to 100"),
        ("account.id=1&account.id=2&account.id=3", "account.id size must be between 0 and 2"),
        ("account.id=1&token.id=gt:1&token.id=gt:2&token.id=lt:5", "token.id size must be between 0 and 2"),
        ("token.id=1", "token.id parameter must have account.id present"),
        ("account.id=ne:1", "Unsupported range operator ne for account.id"),
        ("account.id=1&token.id=ne:1", "Unsupported range operator ne for token.id"),
        ("account.id=1&account.id=2", "Only one range operator from [EQ] is allowed for the given parameter for account.id"),
        ("account.id=gt:1&account.id=gte:2", "Only one range operator from [GT, GTE] is allowed for the given parameter for account.id"),
        ("account.id=1&token.id=lt:1&token.id=lte:2", "Only one range operator from [LT, LTE] is allowed for the given parameter for token.id"),
        ("account.id=1&account.id=gt:0", "Can't support both range and equal for account.id"),
        ("account.id=gt:5&account.id=lt:3", "Invalid range provided for account.id"),
        ("account.id=1&token.id=gte:5&token.id=lte:3", "Invalid range provided for token.id"),
        ("account.id=gt:1&token.id=gt:1", "Requires the presence of an gte or eq account.id parameter"),
        ("account.id=gte:1&token.id=lt:1", "Requires the presence of an lte or eq account.id parameter"),
    ],
)
def test_allowance_query_errors(client, allowances, query, detail):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert java_error(response) == {"message": "Bad Request", "detail": detail}


def test_alias_with_bits_past_the_last_byte_is_looked_up(client, allowances):
    # 47 base32 characters end in 3 spare bits; the Java service decodes them leniently.
    response = client.get("/api/v1/accounts/KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL/allowances/nfts")

    assert response.status_code == 404
    assert java_error(response) == {"message": "Not Found", "detail": "No account found for the given ID"}


# --- /accounts/{id}/airdrops/outstanding|pending ----------------------------------------------
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


def test_airdrops_malformed_path(client, airdrops):
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
