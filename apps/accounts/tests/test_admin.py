import base64

import pytest

from apps.accounts.tests.factories import create_entity, create_token_account
from apps.common.tests.admin_pages import detail_page, log_in
from apps.transactions.tests.factories import SECOND, create_transaction

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/accounts/entity/"
EVM_ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")
ALIAS = b"\x01\x02\x03\x04\x05"
T = 1_700_000_000 * SECOND
KEY = bytes.fromhex("1220" + "ab" * 32)
DAY = 86_400


@pytest.fixture
def accounts():
    create_entity(8, balance=800, balance_timestamp=T, memo="eight", alias=ALIAS)
    create_entity(9, type="CONTRACT", balance=900, evm_address=EVM_ADDRESS, delegation_address=b"\xde" * 20)
    create_entity(10, type="TOKEN")
    create_token_account(8, 5000, 55)
    create_transaction(T + 1, 8)
    create_transaction(T + 2, 9)


def listed(response) -> list[int]:
    return [entity.id for entity in response.context["cl"].result_list]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [8, 9]),
        ("type=CONTRACT", [9]),
        ("q=0.0.8", [8]),
        ("q=9", [9]),
        ("q=0x" + EVM_ADDRESS.hex(), [9]),
        ("q=" + base64.b32encode(ALIAS).decode().rstrip("="), [8]),
        ("q=0.0.10", []),
        ("q=not%20an%20id", []),
    ],
)
def test_changelist_filters_and_search(admin_client, accounts, query, expected):
    assert listed(admin_client.get(f"{CHANGELIST}?{query}")) == expected


def test_changelist_shows_ids_and_addresses(admin_client, accounts):
    content = admin_client.get(CHANGELIST).content.decode()

    assert "0.0.8" in content and "0x" + EVM_ADDRESS.hex() in content
    assert "0x0000000000000000000000000000000000000008" in content


def test_account_page_shows_balances_and_recent_transactions(client, django_user_model, accounts):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CHANGELIST}8/change/")

    assert page.fields["Token balances"].rows == [["token", "balance"], ["0.0.5000", "55"]]
    assert "/admin/tokens/token/5000/change/" in page.fields["Token balances"].links
    transactions = page.fields["Latest 25 transactions"]
    assert transactions.rows[1] == [
        "1700000000.000000001 (2023-11-14 22:13:20 UTC)", "0.0.8-1700000000-000000000", "CRYPTOTRANSFER", "SUCCESS"
    ]
    assert transactions.links == [f"/admin/transactions/transaction/{T + 1}/change/"]


def test_account_page_reads_as_the_api_prints_it(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_entity(
        1001,
        alias=ALIAS,
        auto_renew_account_id=1002,
        auto_renew_period=90 * DAY,
        balance=1_250_000_000,
        balance_timestamp=T,
        created_timestamp=T + 5,
        key=KEY,
        memo="treasury",
        stake_period_start=19_675,
        staked_node_id=3,
    )

    page = detail_page(reader, f"{CHANGELIST}1001/change/")

    assert page.title == "Account 0.0.1001"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Id"] == "0.0.1001"
    assert shown["Type"] == "ACCOUNT"
    assert shown["Key"] == "ED25519 " + "ab" * 32
    assert shown["Balance"] == "12.50000000 ℏ (1250000000 tinybars)"
    assert shown["Balance timestamp"] == "1700000000.000000000 (2023-11-14 22:13:20 UTC)"
    assert shown["Created timestamp"] == "1700000000.000000005 (2023-11-14 22:13:20 UTC)"
    assert page.fields["Created timestamp"].links == [f"/admin/transactions/transaction/{T + 5}/change/"]
    assert shown["Expiry timestamp"] == "1707776000.000000005 (2024-02-12 22:13:20 UTC)"
    assert shown["Auto renew period"] == "7776000 seconds (90 days, 0:00:00)"
    assert shown["Auto renew account id"] == "0.0.1002"
    assert page.fields["Auto renew account id"].links == [f"{CHANGELIST}1002/change/"]
    assert shown["Alias"] == base64.b32encode(ALIAS).decode().rstrip("=")
    assert shown["EVM address"] == "0x00000000000000000000000000000000000003e9"
    assert shown["Staked node id"] == "3"
    assert shown["Stake period start"] == "1699920000.000000000 (2023-11-14 00:00:00 UTC)"
    assert shown["Staked account id"] == "-"
    assert shown["Timestamp range"] == "from 0.000000000 (1970-01-01 00:00:00 UTC)"
    assert shown["Memo"] == "treasury"


def test_contract_page_shows_its_delegation(client, django_user_model, accounts):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CHANGELIST}9/change/")

    assert page.title == "Contract 0.0.9"
    assert page.fields["Delegation address"].text == "0x" + "de" * 20


def test_accounts_are_read_only(admin_client, accounts):
    assert admin_client.get(f"{CHANGELIST}8/change/").status_code == 200
    assert admin_client.post(f"{CHANGELIST}8/change/", {"memo": "changed"}).status_code == 403
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.get(f"{CHANGELIST}8/delete/").status_code == 403
