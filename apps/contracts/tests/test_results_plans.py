"""Pages of contract results and actions are index range scans, whatever the size of the tables."""

import pytest
from django.db import connection

from apps.common.filters import Comparison
from apps.common.tests.statement_plans import plans_of
from apps.contracts import selectors

pytestmark = pytest.mark.django_db

T = 1_600_000_000_000_000_000
ROWS = 20_000


@pytest.fixture
def many_results():
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into contract_result (consensus_timestamp, contract_id, payer_account_id, sender_id,"
            " function_parameters, gas_limit, transaction_nonce, transaction_result)"
            f" select {T} + g * 1000, 5000 + g % 50, 8001 + g % 500, 8001 + g % 500, '\\x', 1, 0, 22"
            f" from generate_series(1, {ROWS}) g"
        )
        cursor.execute(
            "insert into contract_action (consensus_timestamp, index, payer_account_id, call_depth, caller_type,"
            f" gas, gas_used, result_data_type, value) select {T} + (g / 10) * 1000, g % 10, 8001, 0, 'ACCOUNT',"
            f" 1, 1, 11, 0 from generate_series(1, {ROWS}) g"
        )
        cursor.execute("analyze contract_result; analyze contract_action")


@pytest.mark.parametrize(
    ("criteria", "index"),
    [
        (selectors.ContractResultFilter(contract_id=5007), "contract_result__id_timestamp"),
        # Here the planner may also walk the primary key from the bound, filtering on the contract.
        (
            selectors.ContractResultFilter(
                contract_id=5007, timestamps=[Comparison("gt", T + ROWS * 500)], order="asc"
            ),
            "",
        ),
        (selectors.ContractResultFilter(contract_id=None), "contract_result_pkey"),
        (
            selectors.ContractResultFilter(contract_id=None, senders=[Comparison("eq", 8010)]),
            "contract_result__sender_timestamp",
        ),
    ],
)
def test_result_pages_scan_an_index_in_order(many_results, criteria, index):
    plan = plans_of(lambda: selectors.contract_result_list(criteria=criteria))
    if index:
        assert f"using {index} on contract_result" in plan
    else:
        assert "Index Cond" in plan
    assert "Sort" not in plan
    assert "Seq Scan on contract_result" not in plan


def test_action_pages_scan_the_primary_key(many_results):
    plan = plans_of(
        lambda: selectors.contract_action_list(
            timestamp=T + 500_000, payer=8001, indexes=[Comparison("gt", 2)], order="asc", limit=25
        )
    )
    assert "Index Cond: ((consensus_timestamp = " in plan
    assert "Seq Scan" not in plan
