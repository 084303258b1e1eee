import pytest

from apps.accounts.tests.factories import create_entity
from apps.common.tests.admin_pages import detail_page, log_in
from apps.contracts.models import (
    Contract,
    ContractLog,
    ContractResult,
    ContractTransactionHash,
)

pytestmark = pytest.mark.django_db

CONTRACTS = "/admin/contracts/contract/"
RESULTS = "/admin/contracts/contractresult/"
ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")
ETHEREUM_HASH = bytes.fromhex("ab" * 32)
HEDERA_HASH = bytes.fromhex("cd" * 48)


def create_result(timestamp: int, contract_id: int, transaction_hash: bytes, **overrides):
    ContractResult.objects.create(
        **{
            "consensus_timestamp": timestamp,
            "contract_id": contract_id,
            "payer_account_id": 2,
            "function_parameters": b"",
            "gas_limit": 100,
            "gas_used": 50,
            "transaction_hash": transaction_hash,
            "transaction_nonce": 0,
            "transaction_result": 22,
            **overrides,
        }
    )
    ContractTransactionHash.objects.create(
        consensus_timestamp=timestamp,
        hash=transaction_hash[:32],
        payer_account_id=2,
        entity_id=contract_id,
        transaction_result=22,
    )


@pytest.fixture
def contracts():
    create_entity(1001, type="CONTRACT")
    create_entity(1002, type="CONTRACT", evm_address=ADDRESS)
    Contract.objects.create(id=1001, file_id=5001)
    Contract.objects.create(id=1002, initcode=b"\x60\x80", runtime_bytecode=b"\x60")
    create_result(10, 1001, ETHEREUM_HASH)
    create_result(
        20,
        1002,
        HEDERA_HASH,
        amount=250_000_000,
        call_result=bytes(range(256)) * 8,
        created_contract_ids=[1003],
        sender_id=1001,
        transaction_result=33,
    )
    ContractLog.objects.create(
        consensus_timestamp=20,
        index=0,
        contract_id=1002,
        payer_account_id=2,
        bloom=b"",
        data=b"\xda\x7a",
        topic0=b"\x70\x01",
        transaction_hash=HEDERA_HASH,
    )


def listed(response) -> list[int]:
    return [row.pk for row in response.context["cl"].result_list]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", [1002, 1001]), ("q=0.0.1001", [1001]), ("q=0x" + ADDRESS.hex(), [1002]), ("q=nonsense", []), ("q=9999", [])],
)
def test_contracts_search_by_id_or_address(admin_client, contracts, query, expected):
    assert listed(admin_client.get(f"{CONTRACTS}?{query}")) == expected


def test_contract_page_is_read_only(admin_client, contracts):
    response = admin_client.get(f"{CONTRACTS}1002/change/")
    assert response.status_code == 200
    assert 'name="_save"' not in response.content.decode()
    assert admin_client.get(f"{CONTRACTS}add/").status_code == 403


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [20, 10]),
        ("q=0x" + ETHEREUM_HASH.hex(), [10]),
        ("q=" + HEDERA_HASH.hex(), [20]),
        ("q=0.0.1002", [20]),
        ("q=" + ADDRESS.hex(), [20]),
        ("q=0x" + "ee" * 32, []),
        ("q=nonsense", []),
    ],
)
def test_results_search_by_transaction_hash_or_contract(admin_client, contracts, query, expected):
    assert listed(admin_client.get(f"{RESULTS}?{query}")) == expected


def test_result_page_lists_its_logs(client, django_user_model, contracts):
    reader = log_in(client, django_user_model)
    logs = detail_page(reader, f"{RESULTS}20/change/").fields["Logs"]

    assert logs.rows == [["index", "contract", "topics", "data"], ["0", "0.0.1002", "0x7001", "0xda7a"]]
    assert logs.links == [f"{CONTRACTS}1002/change/"]
    assert "0x" + HEDERA_HASH.hex() in reader.get(RESULTS).content.decode()


def test_result_page_reads_as_the_api_prints_it(client, django_user_model, contracts):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{RESULTS}20/change/")

    assert page.title == "Contract result 0.000000020 of 0.0.1002"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Consensus timestamp"] == "0.000000020 (1970-01-01 00:00:00 UTC)"
    assert page.fields["Consensus timestamp"].links == ["/admin/transactions/transaction/20/change/"]
    assert shown["Transaction result"] == "CONTRACT_REVERT_EXECUTED"
    assert shown["Amount"] == "2.50000000 ℏ (250000000 tinybars)"
    assert shown["Contract id"] == "0.0.1002"
    assert page.fields["Contract id"].links == [f"{CONTRACTS}1002/change/"]
    assert page.fields["Created contract ids"].links == [f"{CONTRACTS}1003/change/"]
    assert page.fields["Sender id"].links == ["/admin/accounts/entity/1001/change/"]
    assert shown["Payer account id"] == "0.0.2"
    assert shown["Call result"] == "0x" + bytes(range(256)).hex() * 8
    assert shown["Transaction hash"] == "0x" + HEDERA_HASH.hex()
    assert shown["Function parameters"] == "0x"
    assert shown["Failed initcode"] == "-"


def test_contract_page_reads_as_the_api_prints_it(client, django_user_model, contracts):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CONTRACTS}1002/change/")

    assert page.title == "Contract 0.0.1002"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Id"] == "0.0.1002"
    assert shown["Initcode"] == "0x6080"
    assert shown["Runtime bytecode"] == "0x60"
    assert shown["File id"] == "-"
    assert page.fields["Account (balance, key, memo)"].links == ["/admin/accounts/entity/1002/change/"]
    assert detail_page(reader, f"{CONTRACTS}1001/change/").fields["File id"].text == "0.0.5001"
