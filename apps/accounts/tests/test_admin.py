import base64

import pytest

from apps.accounts.tests.factories import create_entity, create_token_account
from apps.transactions.tests.factories import SECOND, create_transaction

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/accounts/entity/"
EVM_ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")
ALIAS = b"\x01\x02\x03\x04\x05"
T = 1_700_000_000 * SECOND


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


def test_account_page_shows_balances_and_recent_transactions(admin_client, accounts):
    content = admin_client.get(f"{CHANGELIST}8/change/").content.decode()

    assert "1700000000.000000000" in content
    assert "<td>0.0.5000</td><td>55</td>" in content
    assert "0.0.8-1700000000-000000000" in content and "CRYPTOTRANSFER" in content
    assert "0.0.9-1700000000-000000001" not in content


def test_contract_page_shows_its_delegation(admin_client, accounts):
    content = admin_client.get(f"{CHANGELIST}9/change/").content.decode()

    assert "0x" + "de" * 20 in content


def test_accounts_are_read_only(admin_client, accounts):
    assert admin_client.get(f"{CHANGELIST}8/change/").status_code == 200
    assert admin_client.post(f"{CHANGELIST}8/change/", {"memo": "changed"}).status_code == 403
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.get(f"{CHANGELIST}8/delete/").status_code == 403
