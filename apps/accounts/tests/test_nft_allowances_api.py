"""`/accounts/{id}/allowances/nfts`, served upstream by the Java service: its error shape and paging."""

import pytest

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import java_error
from apps.accounts.tests.subroute_factories import create_nft_allowance

pytestmark = pytest.mark.django_db

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
def test_malformed_path(client, allowances, path):
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
