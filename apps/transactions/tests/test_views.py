import base64

import pytest
from django.conf import settings
from django.test import Client, override_settings

from apps.common import clock
from apps.transactions.api.views import INVALID_TRANSACTION_ID
from apps.transactions.tests.factories import (
    SECOND,
    create_assessed_fee,
    create_crypto_transfers,
    create_entity_transaction,
    create_token_transfers,
    create_transaction,
    transaction_hash,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
URL = "/api/v1/transactions"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def errors(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def timestamps(response) -> list[str]:
    return [transaction["consensus_timestamp"] for transaction in response.json()["transactions"]]


def ts(offset: int) -> str:
    return f"1700000000.{offset:09d}"


@pytest.fixture
def ledger():
    t1 = create_transaction(T + 1, 8)
    create_crypto_transfers(t1, (8, -10), (9, 10))
    t2 = create_transaction(T + 2, 10, type=27, result=11)
    t3 = create_transaction(T + 3, 9)
    create_token_transfers(t3, 5000, (9, -5), (8, 5))
    t4 = create_transaction(T + 4, 10, type=37)
    create_entity_transaction(t4, 8)
    create_transaction(T + 5, 12)
    return t2


# --- /transactions ----------------------------------------------------------------------------


def test_list_renders_transactions_and_headers(client, ledger):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=2"
    assert response.json()["links"] == {"next": None}
    assert timestamps(response) == [ts(5), ts(4), ts(3), ts(2), ts(1)]
    first = response.json()["transactions"][-1]
    assert first["transaction_id"] == "0.0.8-1700000000-000000000"
    assert first["transfers"] == [
        {"account": "0.0.3", "amount": 1, "is_approval": False},
        {"account": "0.0.8", "amount": -10, "is_approval": False},
        {"account": "0.0.8", "amount": -3, "is_approval": False},
        {"account": "0.0.9", "amount": 10, "is_approval": False},
        {"account": "0.0.98", "amount": 2, "is_approval": False},
    ]
    assert "assessed_custom_fees" not in first


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.8", [4, 3, 1]),
        ("account.id=8", [4, 3, 1]),
        ("account.id=0x0000000000000000000000000000000000000008", [4, 3, 1]),
        ("account.id=0.0.8&account.id=0.0.12", [5, 4, 3, 1]),
        ("account.id=gte:0.0.12&account.id=lt:0.0.98", [5]),
        ("account.id=0x71eaa748d5252be68c1185588beca495459fdba4", []),
        (f"timestamp={ts(3)}", [3]),
        (f"timestamp=eq:{ts(3)}&timestamp={ts(4)}", []),
        (f"timestamp=gt:{ts(2)}&timestamp=lte:{ts(4)}", [4, 3]),
        (f"timestamp=ne:{ts(5)}&timestamp=lt:{ts(5)}&timestamp=gte:{ts(4)}", [4]),
        ("transactiontype=CONSENSUSSUBMITMESSAGE", [2]),
        # Any operator reads as eq, as upstream.
        ("transactiontype=ne:CONSENSUSSUBMITMESSAGE", [2]),
        ("transactiontype=tokenmint&transactiontype=consensussubmitmessage", [4, 2]),
        ("result=fail", [2]),
        ("result=SUCCESS&account.id=0.0.10", [4]),
        ("account.id=0.0.8&type=credit", [3]),
        ("account.id=0.0.8&type=debit", [1]),
        ("account.id=0.0.8&type=credit&type=debit", []),
        ("limit=2", [5, 4]),
        ("order=asc&limit=2", [1, 2]),
        ("order=ASC&account.id=0.0.9", [1, 3]),
    ],
)
def test_list_parameters(client, ledger, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 200, response.json()
    assert timestamps(response) == [ts(offset) for offset in expected]


@pytest.mark.parametrize("order", ["desc", "asc"])
def test_list_pages_through_next_links(client, ledger, order):
    seen, url, links = [], f"{URL}?order={order}&limit=2", []
    while url:
        response = client.get(url)
        assert response.status_code == 200
        seen.extend(timestamps(response))
        url = response.json()["links"]["next"]
        links.append(url)
        if url:
            assert response["Link"] == f'<{url}>; rel="next"'

    expected = [ts(offset) for offset in range(1, 6)]
    assert seen == (expected if order == "asc" else expected[::-1])
    operator = "gt" if order == "asc" else "lt"
    assert links[0] == f"{URL}?order={order}&limit=2&timestamp={operator}:{seen[1]}"
    # A full last page still links to an empty one.
    assert links[-1] is None


def test_next_link_keeps_the_opposite_bound(client, ledger):
    response = client.get(f"{URL}?timestamp=gte:{ts(2)}&limit=1")

    assert response.json()["links"]["next"] == f"{URL}?timestamp=gte:{ts(2)}&timestamp=lt:{ts(5)}&limit=1"


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 3})
def test_limit_default_and_maximum(client, ledger):
    assert timestamps(client.get(URL)) == [ts(5), ts(4)]
    response = client.get(f"{URL}?limit=50")
    assert timestamps(response) == [ts(5), ts(4), ts(3)]
    assert response.json()["links"]["next"] == f"{URL}?limit=50&timestamp=lt:{ts(3)}"


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("timestamp=-1", ["Invalid parameter: timestamp"]),
        ("account.id=0.x", ["Invalid parameter: account.id"]),
        ("type=good", ["Invalid parameter: type"]),
        ("result=best", ["Invalid parameter: result"]),
        ("transactiontype=invalid", ["Invalid parameter: transactiontype"]),
        ("limit=-1", ["Invalid parameter: limit"]),
        ("order=sideways", ["Invalid parameter: order"]),
        ("nonce=1", ["Unknown query parameter: nonce"]),
        ("timestamp[$ne]=1", ["Invalid parameter: timestamp"]),
        # Digits other than ASCII's, and a trailing newline, as the fuzz test sends them.
        ("timestamp=gt:%E1%9F%A4", ["Invalid parameter: timestamp"]),
        ("timestamp=gt:1%0A", ["Invalid parameter: timestamp"]),
        ("account.id=0.0.%D9%A1", ["Invalid parameter: account.id"]),
    ],
)
def test_list_rejects_bad_parameters(client, db, query, messages):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert response.json() == errors(*messages)


# --- /transactions/{transactionIdOrHash} ------------------------------------------------------


V = T  # valid start of the transactions below
ID = "0.0.10-1700000000-000000000"


@pytest.fixture
def by_id():
    """Two transactions of one id: a schedule create and, later, its scheduled execution."""
    create_transaction(V + 1, 10, valid_start_ns=V, type=42)
    create_transaction(V + 2, 10, valid_start_ns=V, scheduled=True, nonce=0)
    create_transaction(V + 3, 10, valid_start_ns=V, nonce=1)


def test_detail_by_id(client, by_id):
    response = client.get(f"{URL}/{ID}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    assert set(response.json()) == {"transactions"}
    assert timestamps(response) == [ts(1), ts(2), ts(3)]
    assert [t["transaction_id"] for t in response.json()["transactions"]] == [ID] * 3


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("nonce=1", [3]),
        ("nonce=0&nonce=1", [3]),
        ("nonce=eq:0", [1, 2]),
        ("scheduled=true", [2]),
        ("scheduled=false", [1, 3]),
        ("scheduled=true&scheduled=false", [1, 3]),
        ("scheduled=FALSE&nonce=1", [3]),
    ],
)
def test_detail_parameters(client, by_id, query, expected):
    response = client.get(f"{URL}/{ID}?{query}")

    assert response.status_code == 200
    assert timestamps(response) == [ts(offset) for offset in expected]


@pytest.mark.parametrize("query", ["nonce=2", "scheduled=true&nonce=1"])
def test_detail_not_found_with_parameters(client, by_id, query):
    response = client.get(f"{URL}/{ID}?{query}")

    assert response.status_code == 404
    assert response.json() == errors("Not found")


def test_detail_by_hash_in_each_form(client, db):
    create_transaction(T + 1, 10)
    digest = transaction_hash(T + 1)

    for text in (
        digest.hex(),
        digest.hex().upper(),
        "0x" + digest.hex(),
        base64.urlsafe_b64encode(digest).decode(),
        base64.b64encode(digest).decode().replace("/", "_"),
    ):
        response = client.get(f"{URL}/{text}")
        assert response.status_code == 200, text
        assert response["Cache-Control"] == "public, max-age=600"
        assert timestamps(response) == [ts(1)]
        assert response.json()["transactions"][0]["transaction_hash"] == base64.b64encode(digest).decode()


def test_detail_shows_assessed_custom_fees(client, db):
    row = create_transaction(T + 1, 10, valid_start_ns=V)
    create_assessed_fee(row, 8901, 11)

    response = client.get(f"{URL}/{ID}")

    assert response.json()["transactions"][0]["assessed_custom_fees"] == [
        {"amount": 11, "collector_account_id": "0.0.8901", "effective_payer_account_ids": [], "token_id": None}
    ]


def test_detail_cache_is_short_while_a_schedule_may_execute(client, db):
    create_transaction(V + 1, 10, valid_start_ns=V, type=42)

    with clock.frozen_at(V + SECOND):
        assert client.get(f"{URL}/{ID}")["Cache-Control"] == "public, max-age=5"
        assert client.get(f"{URL}/{ID}?scheduled=false")["Cache-Control"] == "public, max-age=600"
    with clock.frozen_at(V + 90_000 * 60 * SECOND):
        assert client.get(f"{URL}/{ID}")["Cache-Control"] == "public, max-age=600"


@pytest.mark.parametrize(
    "text",
    [
        "0.1.10-1234567891.000000000",
        "0.0.10-1234567891",
        "0.0.10-1234567891-0000000001",
        "0.0.10-12345678901234567890-000000001",
        "10-1234567891-000000000",
        "0.0.274877906944-1-1",
        "izUDXqZ8gOhKlL5vbFInnw2VObTXzNWEH2QOg7XOUQwl9Mp2SVil8lufZIU6xJEEk===",
        "0xab4af784ae69ca3e1d17fef8491f7f89a0e8a3b80ad3748b841110f0345ada53456bc14bbe9ee6f441829c2849",
        "ab" * 47,
        "xyz",
    ],
)
def test_detail_rejects_bad_ids(client, db, text):
    response = client.get(f"{URL}/{text}")

    assert response.status_code == 400
    assert response.json() == errors(INVALID_TRANSACTION_ID)
    assert INVALID_TRANSACTION_ID == (
        'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are'
        " nanoseconds"
    )


@pytest.mark.parametrize(
    "text",
    ["0.1.10-1234567891-000000000", "0.0.10-1700000000-1", "ab" * 48, "0x" + "ab" * 48, "A" * 64],
)
def test_detail_not_found(client, db, text):
    response = client.get(f"{URL}/{text}")

    assert response.status_code == 404
    assert response.json() == errors("Not found")


def test_detail_rejects_bad_parameters(client, db):
    response = client.get(f"{URL}/{ID}?nonce=-1&scheduled=maybe&limit=1")

    assert response.status_code == 400
    assert response.json() == errors(
        "Invalid parameter: nonce", "Invalid parameter: scheduled", "Unknown query parameter: limit"
    )
