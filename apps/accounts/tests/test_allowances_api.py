import pytest
from django.conf import settings
from django.test import override_settings

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import messages
from apps.accounts.tests.subroute_factories import create_crypto_allowance, create_token_allowance

pytestmark = pytest.mark.django_db

CRYPTO_URL = "/api/v1/accounts/0.0.1001/allowances/crypto"
TOKEN_URL = "/api/v1/accounts/0.0.1001/allowances/tokens"


@pytest.fixture
def crypto_allowances():
    create_entity(1001)
    for spender in (2001, 2002, 2003):
        create_crypto_allowance(1001, spender, spender - 2000, granted=100)
    create_crypto_allowance(1001, 2004, 0)
    create_crypto_allowance(1002, 2001, 5)


@pytest.fixture
def token_allowances():
    create_entity(1001)
    for spender in (2001, 2002):
        for token in (3001, 3002, 3003):
            create_token_allowance(1001, spender, token)
    create_token_allowance(1001, 2003, 3001, amount=0)
    create_token_allowance(1002, 2001, 3001)


def spenders(response) -> list[str]:
    return [allowance["spender"] for allowance in response.json()["allowances"]]


def pairs(response) -> list[tuple[int, int]]:
    return [
        (int(a["spender"].split(".")[-1]), int(a["token_id"].split(".")[-1])) for a in response.json()["allowances"]
    ]


def test_crypto_allowances_with_amount_left_by_spender_descending(client, crypto_allowances):
    response = client.get(CRYPTO_URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["allowances"][0] == {
        "amount": 3,
        "amount_granted": 100,
        "owner": "0.0.1001",
        "spender": "0.0.2003",
        "timestamp": {"from": "0.000002003", "to": None},
    }
    assert spenders(response) == ["0.0.2003", "0.0.2002", "0.0.2001"]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=asc", ["0.0.2001", "0.0.2002", "0.0.2003"]),
        ("spender.id=2002", ["0.0.2002"]),
        ("spender.id=2001&spender.id=0.0.2003", ["0.0.2003", "0.0.2001"]),
        ("spender.id=gt:2001&spender.id=lt:2003", ["0.0.2002"]),
        ("spender.id=gte:2002", ["0.0.2003", "0.0.2002"]),
        ("spender.id=lte:2002&order=asc", ["0.0.2001", "0.0.2002"]),
        # An EVM address that encodes no id matches nothing; other equal values still match.
        ("spender.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("spender.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f&spender.id=2002", ["0.0.2002"]),
        ("spender.id=gt:0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
    ],
)
def test_crypto_allowance_filters(client, crypto_allowances, query, expected):
    assert spenders(client.get(f"{CRYPTO_URL}?{query}")) == expected


def test_crypto_allowance_pages(client, crypto_allowances):
    first = client.get(f"{CRYPTO_URL}?limit=2")
    second = client.get(first.json()["links"]["next"])

    assert first.json()["links"]["next"] == f"{CRYPTO_URL}?limit=2&spender.id=lt:0.0.2002"
    assert spenders(second) == ["0.0.2001"]
    assert second.json()["links"]["next"] is None


def test_crypto_allowances_of_unknown_account(client, crypto_allowances):
    assert client.get("/api/v1/accounts/9999/allowances/crypto").json() == {"allowances": [], "links": {"next": None}}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("spender.id=ne:2001", ["Not equal (ne) comparison operator is not supported for spender.id"]),
        ("spender.id=x&limit=-1&order=x", ["Invalid parameter: spender.id", "Invalid parameter: limit", "Invalid parameter: order"]),
        ("token.id=1", ["Unknown query parameter: token.id"]),
    ],
)
def test_crypto_allowance_errors(client, crypto_allowances, query, expected):
    response = client.get(f"{CRYPTO_URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == expected


def test_token_allowances_by_spender_then_token(client, token_allowances):
    response = client.get(TOKEN_URL)

    assert response.status_code == 200
    assert response.json()["allowances"][0] == {
        "amount": 10,
        "amount_granted": 11,
        "owner": "0.0.1001",
        "spender": "0.0.2001",
        "timestamp": {"from": "0.000005002", "to": None},
        "token_id": "0.0.3001",
    }
    assert pairs(response) == [(s, t) for s in (2001, 2002) for t in (3001, 3002, 3003)]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=desc&limit=2", [(2002, 3003), (2002, 3002)]),
        ("spender.id=2002", [(2002, 3001), (2002, 3002), (2002, 3003)]),
        ("spender.id=2002&token.id=gt:3001", [(2002, 3002), (2002, 3003)]),
        ("spender.id=2001&token.id=3002", [(2001, 3002)]),
        # (spender, token) > (2001, 3002)
        ("spender.id=gte:2001&token.id=gt:3002", [(2001, 3003), (2002, 3001), (2002, 3002), (2002, 3003)]),
        # (spender, token) < (2002, 3002)
        ("spender.id=lte:2002&token.id=lt:3002", [(2001, 3001), (2001, 3002), (2001, 3003), (2002, 3001)]),
        ("spender.id=gt:2001", [(2002, 3001), (2002, 3002), (2002, 3003)]),
    ],
)
def test_token_allowance_filters(client, token_allowances, query, expected):
    assert pairs(client.get(f"{TOKEN_URL}?{query}")) == expected


def test_token_allowance_pages(client, token_allowances):
    url, pages = f"{TOKEN_URL}?limit=4", []
    while url:
        response = client.get(url)
        pages.append(pairs(response))
        url = response.json()["links"]["next"]

    assert pages == [
        [(2001, 3001), (2001, 3002), (2001, 3003), (2002, 3001)],
        [(2002, 3002), (2002, 3003)],
    ]


def test_token_allowance_next_link(client, token_allowances):
    response = client.get(f"{TOKEN_URL}?spender.id=gte:2001&limit=2")

    assert response.json()["links"]["next"] == f"{TOKEN_URL}?limit=2&spender.id=gte:0.0.2001&token.id=gt:0.0.3002"


def test_token_allowance_default_page_size_is_fixed_at_startup(client, token_allowances):
    with override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 4}):
        unlimited = client.get(TOKEN_URL)
        capped = client.get(f"{TOKEN_URL}?limit=5")

    assert len(pairs(unlimited)) == 6
    assert unlimited.json()["links"]["next"] is None
    assert len(pairs(capped)) == 4


@pytest.mark.parametrize(
    "query, message",
    [
        ("spender.id=1&spender.id=2", "Only one equal (eq) operator is allowed for spender.id"),
        ("token.id=1", "token.id without a spender.id parameter filter"),
        ("spender.id=gt:1&token.id=gt:1", "spender.id must have gte or eq operator"),
        ("spender.id=lt:1&token.id=lt:1", "spender.id must have lte or eq operator"),
        ("spender.id=1&token.id=gt:1&token.id=gte:2", "Only one gt/gte operator is allowed for token.id"),
        ("spender.id=ne:1", "Not equal (ne) operator is not supported for spender.id"),
    ],
)
def test_token_allowance_rules(client, token_allowances, query, message):
    response = client.get(f"{TOKEN_URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == [message]


def test_token_allowance_invalid_values(client, token_allowances):
    response = client.get(f"{TOKEN_URL}?spender.id=abc&token.id=xyz&order=x&limit=y&serialnumber=1")

    assert response.status_code == 400
    assert messages(response) == [
        "Invalid parameter: spender.id",
        "Invalid parameter: token.id",
        "Invalid parameter: order",
        "Invalid parameter: limit",
        "Unknown query parameter: serialnumber",
    ]
