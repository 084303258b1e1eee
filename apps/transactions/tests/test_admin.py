import base64

import pytest

from apps.common.tests.admin_pages import detail_page, log_in
from apps.tokens.tests.factories import create_token
from apps.transactions.tests.factories import (
    SECOND,
    create_token_transfers,
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


def test_detail_page_shows_values_as_the_api_prints_them(client, django_user_model, transactions):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CHANGELIST}{T + 1}/change/")

    assert page.title == "Transaction 0.0.8-1700000000-000000000"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Transaction id"] == "0.0.8-1700000000-000000000"
    assert shown["Consensus timestamp"] == "1700000000.000000001 (2023-11-14 22:13:20 UTC)"
    assert shown["Valid start timestamp"] == "1700000000.000000000 (2023-11-14 22:13:20 UTC)"
    assert shown["Valid duration seconds"] == "120 seconds (0:02:00)"
    assert shown["Type"] == "CRYPTOTRANSFER"
    assert shown["Result"] == "SUCCESS"
    assert shown["Payer account id"] == "0.0.8"
    assert page.fields["Payer account id"].links == ["/admin/accounts/entity/8/change/"]
    assert shown["Node account id"] == "0.0.3"
    assert shown["Max fee"] == "0.00000100 ℏ (100 tinybars)"
    assert shown["Charged tx fee"] == "0.00000007 ℏ (7 tinybars)"
    assert shown["Transaction hash"] == "0x" + transaction_hash(T + 1).hex()
    assert shown["Memo"] == "paid in ✓"
    assert shown["Parent consensus timestamp"] == "-"
    assert page.fields["Transfers"].rows == [
        ["account", "amount", "approval"],
        ["0.0.3", "0.00000001 ℏ (1 tinybars)", "False"],
        ["0.0.8", "-0.00000003 ℏ (-3 tinybars)", "False"],
        ["0.0.98", "0.00000002 ℏ (2 tinybars)", "False"],
    ]


def test_detail_page_links_entities_and_transactions(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_token(1001)
    nft_transfer = [{"token_id": 1001, "serial_number": 1, "sender_account_id": 8, "receiver_account_id": 9}]
    create_transaction(T + 5, 8, type=37, entity_id=1001, nft_transfer=nft_transfer, parent_consensus_timestamp=T + 4)
    create_token_transfers(create_transaction(T + 6, 8, fee=0), 1001, (8, -5), (9, 5))

    page = detail_page(reader, f"{CHANGELIST}{T + 5}/change/")

    assert page.fields["Type"].text == "TOKENMINT"
    assert page.fields["Entity id"].links == ["/admin/tokens/token/1001/change/"]
    assert page.fields["Parent consensus timestamp"].links == [f"{CHANGELIST}{T + 4}/change/"]
    assert page.fields["Nft transfer"].rows[1] == ["0.0.1001", "1", "0.0.8", "0.0.9", "False"]
    token_transfers = detail_page(reader, f"{CHANGELIST}{T + 6}/change/").fields["Token transfers"]
    assert token_transfers.rows[1:] == [["0.0.1001", "0.0.8", "-5", "False"], ["0.0.1001", "0.0.9", "5", "False"]]


def test_changelist_shows_timestamps_with_their_date(admin_client, transactions):
    content = admin_client.get(CHANGELIST).content.decode()

    assert "1700000000.000000003 (2023-11-14 22:13:20 UTC)" in content
