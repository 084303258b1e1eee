import pytest
from django.test import Client

from apps.common.tests.admin_pages import detail_page, log_in
from apps.tokens.tests.factories import (
    TREASURY,
    T,
    create_nft,
    create_nft_history,
    create_token,
)
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/tokens/token/"
SUPPLY_KEY = bytes.fromhex("1220" + "fc" * 32)


@pytest.fixture
def tokens():
    create_token(1001, name="Gold", symbol="GLD")
    create_token(1002, name="Silver", symbol="SLV", type="NON_FUNGIBLE_UNIQUE")
    create_nft_history(1002, 1, T + 1, T + 2, account_id=1001)
    create_nft(1002, 1, since=T + 2, account_id=2001)
    create_nft(1002, 2, since=T + 3)
    mint = {"token_id": 1002, "serial_number": 1, "sender_account_id": None, "receiver_account_id": 1001}
    send = {"token_id": 1002, "serial_number": 1, "sender_account_id": 1001, "receiver_account_id": 2001}
    create_transaction(T + 1, type=37, nft_transfer=[mint])
    create_transaction(T + 2, nft_transfer=[send])


def listed(response) -> list[int]:
    return [token.token_id for token in response.context["cl"].result_list]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [1001, 1002]),
        ("q=0.0.1002", [1002]),
        ("q=1001", [1001]),
        ("q=gol", [1001]),
        ("q=slv", [1002]),
        ("q=copper", []),
    ],
)
def test_token_search(admin_client, tokens, query, expected):
    response = admin_client.get(f"{CHANGELIST}?{query}")

    assert response.status_code == 200
    assert listed(response) == expected


def test_token_list_links_the_nfts_of_nft_tokens(admin_client, tokens):
    content = admin_client.get(CHANGELIST).content.decode()

    assert f'href="{CHANGELIST}1002/nfts/"' in content
    assert f'href="{CHANGELIST}1001/nfts/"' not in content


@pytest.mark.parametrize(("query", "expected"), [("", ["2", "1"]), ("q=1", ["1"]), ("q=x", []), ("before=2", ["1"])])
def test_nft_list_of_a_token(admin_client, tokens, query, expected):
    response = admin_client.get(f"{CHANGELIST}1002/nfts/?{query}")

    assert response.status_code == 200
    assert [str(nft["serial_number"]) for nft in response.context["nfts"]] == expected


def test_nft_page_lists_its_transfers(admin_client, tokens):
    response = admin_client.get(f"{CHANGELIST}1002/nfts/1/")

    assert response.status_code == 200
    assert [(t["type"], t["sender_account_id"], t["receiver_account_id"]) for t in response.context["transfers"]] == [
        ("CRYPTOTRANSFER", "0.0.1001", "0.0.2001"),
        ("TOKENMINT", None, "0.0.1001"),
    ]
    content = response.content.decode()
    assert '<a href="/admin/accounts/entity/2001/change/">0.0.2001</a>' in content
    assert "1700000000.000000002 (2023-11-14 22:13:20 UTC)" in content


def test_unknown_token_or_nft_is_not_found(admin_client, tokens):
    assert admin_client.get(f"{CHANGELIST}1003/nfts/").status_code == 404
    assert admin_client.get(f"{CHANGELIST}1002/nfts/9/").status_code == 404


def test_tokens_are_read_only(admin_client, tokens):
    detail = admin_client.get(f"{CHANGELIST}1001/change/")

    assert detail.status_code == 200
    assert b"Save" not in detail.content
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}1001/delete/").status_code == 403


def test_nft_pages_need_a_staff_login(tokens):
    response = Client().get(f"{CHANGELIST}1002/nfts/1/")

    assert response.status_code == 302


def test_token_page_reads_as_the_api_prints_it(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_token(1003, supply_key=SUPPLY_KEY, freeze_status=2, kyc_status=1, metadata="metadata ✓".encode())

    page = detail_page(reader, f"{CHANGELIST}1003/change/")

    assert page.title == "Token 0.0.1003"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Token id"] == "0.0.1003"
    assert shown["Supply key"] == "ED25519 " + "fc" * 32
    assert shown["Wipe key"] == "-"
    assert shown["Created timestamp"] == "1700000000.000000000 (2023-11-14 22:13:20 UTC)"
    assert page.fields["Created timestamp"].links == [f"/admin/transactions/transaction/{T}/change/"]
    assert shown["Treasury account id"] == f"0.0.{TREASURY}"
    assert page.fields["Treasury account id"].links == [f"/admin/accounts/entity/{TREASURY}/change/"]
    assert shown["Freeze status"] == "UNFROZEN"
    assert shown["Kyc status"] == "GRANTED"
    assert shown["Type"] == "FUNGIBLE_COMMON"
    assert shown["Supply type"] == "INFINITE"
    assert shown["Pause status"] == "NOT_APPLICABLE"
    assert shown["Metadata"] == "metadata ✓"
    assert shown["Timestamp range"] == "from 1700000000.000000000 (2023-11-14 22:13:20 UTC)"
    assert shown["NFTs"] == "-"


def test_nft_token_page_links_its_nfts(client, django_user_model, tokens):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CHANGELIST}1002/change/")

    assert page.fields["NFTs"].links == [f"{CHANGELIST}1002/nfts/"]
    assert page.fields["Type"].text == "NON_FUNGIBLE_UNIQUE"
