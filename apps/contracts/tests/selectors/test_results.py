"""The contract results selectors, without HTTP; their pages are index range scans, whatever
the size of the tables."""

import pytest
from django.db import connection

from apps.accounts.tests.factories import create_entity
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.errors import NotFound
from apps.common.query.pages import PageCriteria
from apps.common.tests.statement_plans import plans_of
from apps.contracts.filtersets import ContractResultFilterSet
from apps.contracts.selectors.contract_transactions import ContractTransaction
from apps.contracts.selectors.results import (
    contract_result_details,
    contract_result_list,
    result_page,
)
from apps.contracts.tests.results_factories import create_log, create_result

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005


def timestamps(rows) -> list[int]:
    return [row["consensus_timestamp"] for row in rows]


def criteria(query: dict[str, list[str]] | None = None, *, scope: tuple = ()) -> PageCriteria:
    return ContractResultFilterSet(query or {}).criteria(scope=scope)


def ts(nanos: int) -> str:
    return f"{nanos // 10**9}.{nanos % 10**9:09d}"


def test_result_list_orders_limits_and_skips_wrong_nonce():
    for offset in range(4):
        create_result(T + offset, 5001)
    create_result(T + 9, 5001, transaction_result=312)
    create_result(T + 10, 5002)
    page = criteria({"order": ["asc"], "limit": ["3"]}, scope=("0.0.5001",))
    assert timestamps(contract_result_list(page)) == [T, T + 1, T + 2]


def test_result_list_senders_by_address():
    create_entity(8002, evm_address=b"\xfb" * 20)
    create_result(T, 5001)
    create_result(T + 1, 5001, payer=8002)
    for operator, expected in (("eq", [T + 1]), ("ne", [T]), ("lt", [T])):
        senders = {"from": [f"{operator}:0x" + "fb" * 20]}
        assert timestamps(result_page(criteria(senders))) == expected


@pytest.mark.parametrize("operator", ["eq", "gt"])
def test_result_list_sender_address_no_entity_holds_is_not_found(operator):
    with pytest.raises(NotFound):
        result_page(criteria({"from": [f"{operator}:0x" + "fc" * 20]}))


def test_result_list_by_block_hash_prefix():
    create_record_files(record_file(7, T + 1, consensus_start=T, hash="ab" * 48))
    create_result(T, 5001)
    create_result(T + 2, 5001)
    assert timestamps(result_page(criteria({"block.hash": ["ab" * 32]}), contract_id=5001)) == [T]


def test_synthetic_results_stand_for_their_last_log_and_yield_to_real_results():
    create_result(T, 5001)
    create_log(T, 7001, 0, synthetic=True)
    create_log(T + 1, 7001, 0, synthetic=True, payer_account_id=8004)
    create_log(T + 1, 7002, 1, synthetic=True, payer_account_id=8003, root_contract_id=None)
    rows = result_page(criteria(), synthetic=True)
    assert [(row["consensus_timestamp"], row["contract_id"]) for row in rows] == [(T + 1, 7002), (T, 5001)]
    assert rows[0]["sender_id"] == 8003
    rows = result_page(criteria({"order": ["asc"]}), synthetic=True)
    assert [(row["consensus_timestamp"], row["sender_id"]) for row in rows] == [(T, 8001), (T + 1, 8004)]


def test_result_details_need_a_result():
    transaction = ContractTransaction(consensus_timestamp=T, payer_account_id=8001, contract_ids=[5001])
    assert contract_result_details(transaction=transaction, state_contract_id=5001) is None


PLAN_T = 1_600_000_000_000_000_000
ROWS = 20_000


@pytest.fixture
def many_results():
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into contract_result (consensus_timestamp, contract_id, payer_account_id, sender_id,"
            " function_parameters, gas_limit, transaction_nonce, transaction_result)"
            f" select {PLAN_T} + g * 1000, 5000 + g % 50, 8001 + g % 500, 8001 + g % 500, '\\x', 1, 0, 22"
            f" from generate_series(1, {ROWS}) g"
        )
        cursor.execute("analyze contract_result")


@pytest.mark.parametrize(
    ("query", "contract_id", "index"),
    [
        ({}, 5007, "contract_result__id_timestamp"),
        # Here the planner may also walk the primary key from the bound, filtering on the contract.
        ({"timestamp": [f"gt:{ts(PLAN_T + ROWS * 500)}"], "order": ["asc"]}, 5007, ""),
        ({}, None, "contract_result_pkey"),
        ({"from": ["0.0.8010"]}, None, "contract_result__sender_timestamp"),
    ],
)
def test_result_pages_scan_an_index_in_order(many_results, query, contract_id, index):
    page = criteria(query)
    plan = plans_of(lambda: result_page(page, contract_id=contract_id))
    if index:
        assert f"using {index} on contract_result" in plan
    else:
        assert "Index Cond" in plan
    assert "Sort" not in plan
    assert "Seq Scan on contract_result" not in plan
