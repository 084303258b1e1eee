"""`/accounts/{id}/allowances/tokens`."""

import pytest
from django.conf import settings
from django.test import override_settings

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import messages
from apps.tokens.tests.account_factories import create_token_allowance

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/accounts/0.0.1001/allowances/tokens"


@pytest.fixture
def token_allowances():
    create_entity(1001)
    for spender in (2001, 2002):
        for token in (3001, 3002, 3003):
            create_token_allowance(1001, spender, token)
    create_token_allowance(1001, 2003, 3001, amount=0)
    create_token_allowance(1002, 2001, 3001)


def pairs(response) -> list[tuple[int, int]]:
    return [
        (int(a["spender"].split(".")[-1]), int(a["token_id"].split(".")[-1])) for a in response.json()["allowances"]
    ]


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


OPAQUE_ADDRESS = "0x71eaa748d5252be68c1185588beca495459fdba4"


@pytest.mark.parametrize(
    "query",
    [
        f"spender.id={OPAQUE_ADDRESS}",
        f"spender.id=gt:{OPAQUE_ADDRESS}",
        f"spender.id=gte:2001&spender.id=lt:{OPAQUE_ADDRESS}",
        f"spender.id={OPAQUE_ADDRESS}&token.id=3001",
    ],
)
def test_a_spender_address_encoding_no_id_matches_nothing(client, token_allowances, query):
    # As the upstream: an empty page, once the keyset's rules passed.
    response = client.get(f"{TOKEN_URL}?{query}")

    assert (response.status_code, response.json()) == (200, {"allowances": [], "links": {"next": None}})


def test_a_spender_address_encoding_no_id_still_obeys_the_rules(client, token_allowances):
    response = client.get(f"{TOKEN_URL}?spender.id=ne:{OPAQUE_ADDRESS}")

    assert messages(response) == ["Not equal (ne) operator is not supported for spender.id"]


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
