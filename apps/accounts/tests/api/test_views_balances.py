import pytest
from django.conf import settings
from django.test import Client, override_settings

from apps.accounts.tests.factories import (
    create_account_balances,
    create_entity,
    create_token_balances,
)
from apps.common import clock

pytestmark = pytest.mark.django_db

URL = "/api/v1/balances"
SECOND = 1_000_000_000
SNAPSHOT = 1566560003 * SECOND


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def accounts():
    for account in range(2, 8):
        create_entity(account, balance=account * 10, balance_timestamp=1000 + account)
    create_account_balances(SNAPSHOT - 2 * SECOND, {2: 1, 4: 40, 5: 50, 6: 60, 7: 70})
    create_account_balances(SNAPSHOT, {2: 2, 4: 444, 5: 555})
    create_token_balances(SNAPSHOT, 4, {90000: 1000})


def accounts_of(response) -> list[str]:
    return [balance["account"] for balance in response.json()["balances"]]


def test_current_balances(client, accounts):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "timestamp": "0.000001007",
        "balances": [
            {"account": f"0.0.{account}", "balance": account * 10, "tokens": []} for account in range(7, 1, -1)
        ],
        "links": {"next": None},
    }


def test_balances_at_a_snapshot(client, accounts):
    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get(f"{URL}?timestamp=1566560004")

    assert response.json() == {
        "timestamp": "1566560003.000000000",
        "balances": [
            {"account": "0.0.7", "balance": 70, "tokens": []},
            {"account": "0.0.6", "balance": 60, "tokens": []},
            {"account": "0.0.5", "balance": 555, "tokens": []},
            {"account": "0.0.4", "balance": 444, "tokens": [{"token_id": "0.0.90000", "balance": 1000}]},
            {"account": "0.0.2", "balance": 2, "tokens": []},
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.4", ["0.0.4"]),
        ("account.id=4&account.id=0.6", ["0.0.6", "0.0.4"]),
        ("account.id=gt:0.0.3&account.id=lte:0.0.5", ["0.0.5", "0.0.4"]),
        ("account.id=ne:0.0.7&limit=2", ["0.0.6", "0.0.5"]),
        ("account.balance=gte:50&account.balance=lt:70", ["0.0.6", "0.0.5"]),
        ("account.balance=20", ["0.0.2"]),
        # Repeated values are all required, as the upstream ANDs them.
        ("account.balance=20&account.balance=60", []),
        ("account.balance=20&account.balance=eq:20", ["0.0.2"]),
        ("timestamp=1566560003&account.balance=40&account.balance=60", []),
        ("order=asc&limit=2", ["0.0.2", "0.0.3"]),
        # `order` counts only when given once; repeated, the upstream takes the default.
        ("order=asc&order=asc&limit=2", ["0.0.7", "0.0.6"]),
        ("timestamp=1566560001&account.id=gte:0.0.5", ["0.0.7", "0.0.6", "0.0.5"]),
        ("timestamp=lt:1566560003&order=asc&limit=2", ["0.0.2", "0.0.4"]),
        ("timestamp=1566560003&account.balance=gt:100", ["0.0.5", "0.0.4"]),
        ("timestamp=1566560000", []),
        ("account.id=0.0.99", []),
    ],
)
def test_balance_parameters(client, accounts, query, expected):
    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get(f"{URL}?{query}")

    assert response.status_code == 200, response.json()
    assert accounts_of(response) == expected
    if not expected:
        assert response.json() == {"timestamp": None, "balances": [], "links": {"next": None}}


def test_balances_by_public_key(client, db):
    create_entity(8, balance=8, balance_timestamp=12 * SECOND, public_key="ab" * 32)
    create_entity(9, balance=9, public_key="cd" * 32)

    response = client.get(f"{URL}?account.publickey={'AB' * 32}")

    assert response.json() == {
        "timestamp": "12.000000000",
        "balances": [{"account": "0.0.8", "balance": 8, "tokens": []}],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"gt:{'ab' * 32}", ["0.0.9"]),
        (f"gte:{'ab' * 32}", ["0.0.9", "0.0.8"]),
        (f"lt:{'cd' * 32}", ["0.0.8"]),
        (f"ne:{'ab' * 32}", ["0.0.9"]),
    ],
)
def test_balances_by_public_key_comparison(client, db, query, expected):
    create_entity(8, balance=8, balance_timestamp=12 * SECOND, public_key="ab" * 32)
    create_entity(9, balance=9, balance_timestamp=12 * SECOND, public_key="cd" * 32)

    response = client.get(f"{URL}?account.publickey={query}")

    assert response.status_code == 200, response.json()
    assert accounts_of(response) == expected


@pytest.mark.parametrize("operator", ["", "eq:", "lt:", "ne:", "gte:"])
def test_balances_at_a_snapshot_match_the_public_key_whatever_its_operator(client, accounts, operator):
    create_entity(8, balance=8, balance_timestamp=12 * SECOND, public_key="ab" * 32)
    create_entity(9, balance=9, balance_timestamp=12 * SECOND, public_key="cd" * 32)
    create_account_balances(SNAPSHOT, {8: 80, 9: 90})

    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get(f"{URL}?account.publickey={operator}{'ab' * 32}&timestamp={SNAPSHOT // SECOND + 1}")

    assert response.status_code == 200, response.json()
    assert accounts_of(response) == ["0.0.8"]


@pytest.mark.parametrize("order", ["desc", "asc"])
def test_pages_through_next_links(client, accounts, order):
    seen, url, first_link = [], f"{URL}?order={order}&limit=4", None
    while url:
        response = client.get(url)
        seen.extend(accounts_of(response))
        url = response.json()["links"]["next"]
        first_link = first_link or url
        if url:
            assert response["Link"] == f'<{url}>; rel="next"'

    expected = [f"0.0.{account}" for account in range(2, 8)]
    assert seen == (expected if order == "asc" else expected[::-1])
    operator = "gt" if order == "asc" else "lt"
    assert first_link == f"{URL}?order={order}&limit=4&account.id={operator}:{seen[3]}"


def test_next_link_keeps_the_snapshot_query(client, accounts):
    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get(f"{URL}?timestamp=1566560004.000000000&limit=1")

    assert response.json()["links"]["next"] == f"{URL}?timestamp=1566560004.000000000&limit=1&account.id=lt:0.0.7"


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 3})
def test_limit_default_and_maximum(client, accounts):
    assert accounts_of(client.get(URL)) == ["0.0.7", "0.0.6"]
    assert accounts_of(client.get(f"{URL}?limit=9")) == ["0.0.7", "0.0.6", "0.0.5"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("consensus=hashgraph", "Unknown query parameter: consensus"),
        ("account.id=0.x", "Invalid parameter: account.id"),
        ("account.balance=-5", "Invalid parameter: account.balance"),
        ("account.publickey=xyz", "Invalid parameter: account.publickey"),
        ("timestamp=1.0000000001", "Invalid parameter: timestamp"),
        ("limit=x", "Invalid parameter: limit"),
        ("order=random", "Invalid parameter: order"),
    ],
)
def test_rejects_bad_parameters(client, db, query, message):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert response.json() == {"_status": {"messages": [{"message": message}]}}
