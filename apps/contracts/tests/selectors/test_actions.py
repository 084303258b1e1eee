"""The actions selector, without HTTP; its pages are index range scans, whatever the size of the table."""

import pytest
from django.db import connection

from apps.common.tests.statement_plans import plans_of
from apps.contracts.filtersets import ContractActionFilterSet
from apps.contracts.selectors.actions import action_page
from apps.contracts.selectors.contract_transactions import ContractTransactionKey
from apps.contracts.tests.results_factories import create_action

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005


def test_actions_of_one_payer_by_index():
    for index in range(3):
        create_action(T, index)
    create_action(T, 3, payer=9)
    page = ContractActionFilterSet({"index": ["gte:1"], "order": ["desc"], "limit": ["5"]}).criteria()
    rows = action_page(ContractTransactionKey(T, 8001, 8001), page)
    assert [row["index"] for row in rows] == [2, 1]


PLAN_T = 1_600_000_000_000_000_000
ROWS = 20_000


@pytest.fixture
def many_actions():
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into contract_action (consensus_timestamp, index, payer_account_id, call_depth, caller_type,"
            f" gas, gas_used, result_data_type, value) select {PLAN_T} + (g / 10) * 1000, g % 10, 8001, 0, 'ACCOUNT',"
            f" 1, 1, 11, 0 from generate_series(1, {ROWS}) g"
        )
        cursor.execute("analyze contract_action")


def test_action_pages_scan_the_primary_key(many_actions):
    page = ContractActionFilterSet({"index": ["gt:2"], "order": ["asc"], "limit": ["25"]}).criteria()
    plan = plans_of(lambda: action_page(ContractTransactionKey(PLAN_T + 500_000, 8001, 8001), page))
    assert "Index Cond: ((consensus_timestamp = " in plan
    assert "Seq Scan" not in plan
