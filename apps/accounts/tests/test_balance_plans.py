"""A page of balances reads the page's rows, however large the ledger: current balances do not
step over entities of other types, token balances at a snapshot read each account's own rows
however many tokens there are."""

import dataclasses
import datetime
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.selectors import BalanceListFilter, account_get, balance_list
from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.common.filters import Comparison
from apps.common.tests.statement_plans import plans_of

pytestmark = pytest.mark.django_db

SNAPSHOT = int(datetime.datetime(2024, 3, 2, tzinfo=datetime.timezone.utc).timestamp()) * 1_000_000_000
NOW = SNAPSHOT + 86_400 * 1_000_000_000
ACCOUNTS = 10_000
TOKENS = 50


@pytest.fixture
def many_tokens():
    """Each account holds one token, in three snapshots: with `account_id = x` PostgreSQL 18
    picked the token-led index, skipping through every token to reach an account's rows."""
    create_account_balances(SNAPSHOT, {2: 1})
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into account_balance (consensus_timestamp, account_id, balance)"
            f" select {SNAPSHOT}, 1000 + g, g from generate_series(1, {ACCOUNTS}) g"
        )
        cursor.execute(
            "insert into token_balance (consensus_timestamp, account_id, balance, token_id)"
            f" select {SNAPSHOT} - k, 1000 + g, g, 100000 + g % {TOKENS}"
            f" from generate_series(1, {ACCOUNTS}) g, generate_series(0, 2) k"
        )
        cursor.execute("analyze account_balance; analyze token_balance")


def token_balance_plan(read) -> str:
    return plans_of(read, reading='FROM "token_balance"')


def reads_only_the_accounts_rows(plan: str) -> bool:
    """The rows come from probes of the primary key, led by the account, and nothing else."""
    return bool(re.search(r"Index Scan[^\n]* (using|on) token_balance_p\d+_pkey", plan)) and not re.search(
        r"token_id_account_id|Seq Scan", plan
    )


@pytest.mark.parametrize("order", ["desc", "asc"])
def test_snapshot_token_balances_read_the_primary_key_per_account(many_tokens, order):
    criteria = BalanceListFilter(timestamps=[Comparison("lte", SNAPSHOT)], order=order)
    plan = token_balance_plan(lambda: balance_list(criteria=criteria, now=NOW))
    assert reads_only_the_accounts_rows(plan), plan


def test_one_accounts_snapshot_token_balances_read_the_primary_key(many_tokens):
    create_entity(1500)
    plan = token_balance_plan(
        lambda: account_get(account_id=1500, timestamps=[Comparison("lte", SNAPSHOT)], now=NOW)
    )
    assert reads_only_the_accounts_rows(plan), plan


def test_snapshot_token_balances_are_each_accounts_own(many_tokens):
    rows = balance_list(criteria=BalanceListFilter(timestamps=[Comparison("lte", SNAPSHOT)], limit=3), now=NOW)
    assert [(row["account_id"], row["tokens"]) for row in rows] == [
        (1000 + g, [{"token_id": 100000 + g % TOKENS, "balance": g}]) for g in (ACCOUNTS, ACCOUNTS - 1, ACCOUNTS - 2)
    ]


@pytest.fixture(params=[(3000, 43000), (40000, 48000)], ids=["few accounts", "mostly accounts"])
def accounts_among_schedules(request):
    """Accounts and 100 contracts, then schedules with higher ids, as a ledger grows: few
    accounts among many schedules, or mostly accounts under a layer of schedules (as in a
    generated ledger, where PostgreSQL, costing the primary key's read by the share of
    accounts, stepped over all the schedules)."""
    last_account, last_entity = request.param
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into entity (id, num, realm, shard, memo, timestamp_range, type, decline_reward, balance)"
            " select g, g, 0, 0, '', int8range(0, null),"
            " (case when g <= %(last_account)s then 'ACCOUNT' when g <= %(last_account)s + 100 then 'CONTRACT'"
            " else 'SCHEDULE' end)::entity_type,"
            " false, case when g <= %(last_account)s + 100 then g end"
            " from generate_series(1001, %(last_entity)s) g",
            {"last_account": last_account, "last_entity": last_entity},
        )
        cursor.execute("analyze entity")
    return last_account


def rows_filtered_out(node: dict) -> int:
    """The most rows any node of an EXPLAIN ANALYZE plan read and threw away."""
    return max(
        [node.get("Rows Removed by Filter", 0), *(rows_filtered_out(child) for child in node.get("Plans", ()))]
    )


@pytest.mark.parametrize(
    "criteria",
    [
        BalanceListFilter(),
        BalanceListFilter(order="asc"),
        BalanceListFilter(balances=[Comparison("gt", 2000)]),
        BalanceListFilter(accounts=[Comparison("gte", -10)], order="asc"),
        BalanceListFilter(accounts=[Comparison("lt", 50)]),
    ],
)
def test_current_balances_do_not_step_over_other_entities(accounts_among_schedules, criteria):
    # Account bounds are relative to the last account: the page straddles accounts and contracts.
    last_account = accounts_among_schedules
    accounts = [Comparison(c.operator, last_account + c.value) for c in criteria.accounts]
    criteria = dataclasses.replace(criteria, accounts=accounts)
    with CaptureQueriesContext(connection) as captured:
        rows = balance_list(criteria=criteria, now=NOW)
    assert rows and all(1001 <= row["account_id"] <= last_account + 100 for row in rows)
    (sql,) = [query["sql"] for query in captured.captured_queries if "from \"entity\"" in query["sql"].lower()]
    with connection.cursor() as cursor:
        cursor.execute("explain (analyze, format json) " + sql)
        (document,) = cursor.fetchone()
    plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]
    assert rows_filtered_out(plan) <= criteria.limit, json.dumps(plan, indent=1)
