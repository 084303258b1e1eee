import base64

import pytest

from apps.transactions.tests.factories import (
    SECOND,
    create_transaction,
    transaction_hash,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
CHANGELIST = "/admin/transactions/transaction/"


@pytest.fixture
def transactions():
    create_transaction(T + 1, 8, memo="paid in ✓".encode())
    create_transaction(T + 2, 9, type=27, result=11)
    create_transaction(T + 3, 9, valid_start_ns=T + 2 * SECOND + SECOND // 2)


def listed(response) -> list[str]:
    return [f"{row.consensus_timestamp - T}" for row in response.context["cl"].result_list]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["3", "2", "1"]),
        ("type=27", ["2"]),
        ("type=14", ["3", "1"]),
        ("result=fail", ["2"]),
        ("result=success", ["3", "1"]),
        ("payer=0.0.9", ["3", "2"]),
        ("payer=9&result=success", ["3"]),
        ("payer=nonsense", []),
        ("q=0.0.8-1700000000-000000000", ["1"]),
        ("q=0.0.9@1700000002.5", ["3"]),
        ("q=1700000000.000000002", ["2"]),
        ("q=not-an-id", []),
    ],
)
def test_changelist_filters_and_search(admin_client, transactions, query, expected):
    response = admin_client.get(f"{CHANGELIST}?{query}")

    assert response.status_code == 200
    assert listed(response) == expected


def test_changelist_shows_names_and_payer_links(admin_client, transactions):
    content = admin_client.get(CHANGELIST).content.decode()

    assert "CONSENSUSSUBMITMESSAGE" in content
    assert "DUPLICATE_TRANSACTION" in content
    assert "0.0.9-1700000002-500000000" in content
    assert 'href="?payer=0.0.9"' in content


def test_transactions_are_read_only(admin_client, transactions):
    detail = admin_client.get(f"{CHANGELIST}{T + 1}/change/")

    assert detail.status_code == 200
    assert b"Save" not in detail.content
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}{T + 1}/delete/").status_code == 403


@pytest.mark.parametrize(
    "encode",
    [
        lambda digest: digest.hex(),
        lambda digest: "0x" + digest.hex(),
        lambda digest: base64.b64encode(digest).decode(),
        lambda digest: base64.urlsafe_b64encode(digest).decode(),
    ],
    ids=["hex", "0x-hex", "base64", "base64url"],
)
def test_search_by_transaction_hash(admin_client, transactions, encode):
    response = admin_client.get(CHANGELIST, {"q": encode(transaction_hash(T + 2))})

    assert listed(response) == ["2"]


def test_search_by_payer_account_id(admin_client, transactions):
    assert listed(admin_client.get(CHANGELIST, {"q": "0.0.9"})) == ["3", "2"]


def test_search_by_timestamp_without_match(admin_client, transactions):
    assert listed(admin_client.get(CHANGELIST, {"q": "1700000000.000000009"})) == []


def test_detail_page_shows_values_as_the_api_prints_them(admin_client, transactions):
    content = admin_client.get(f"{CHANGELIST}{T + 1}/change/").content.decode()

    assert "0.0.8-1700000000-000000000" in content
    assert "1700000000.000000001 (2023-11-14 22:13:20 UTC)" in content
    assert "CRYPTOTRANSFER" in content
    assert "SUCCESS" in content
    assert ">0.0.8<" in content
    assert ">0.0.3<" in content
    assert "0x" + transaction_hash(T + 1).hex() in content
    assert ">paid in ✓<" in content
    assert "None" not in content
    assert "b&#x27;" not in content
    assert "memory at" not in content
    assert ">14<" not in content
    assert ">22<" not in content


def test_changelist_shows_timestamps_with_their_date(admin_client, transactions):
    content = admin_client.get(CHANGELIST).content.decode()

    assert "1700000000.000000003 (2023-11-14 22:13:20 UTC)" in content
