"""Token balances at a snapshot read each account's own rows, however many tokens the ledger has."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.selectors import BalanceListFilter, account_get, balance_list
from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.common.filters import Comparison

pytestmark = pytest.mark.django_db

SNAPSHOT = int(datetime.datetime(2024, 3, 2, tzinfo=datetime.timezone.utc).timestamp()) * 1_000_000_000
NOW = SNAPSHOT + 86_400 * 1_000_000_000
ACCOUNTS = 10_000
TOKENS = 50


@pytest.fixture
def many_tokens():
    """Every account holds one of many tokens at the snapshot: PostgreSQL 18 could reach an
    account's rows by skipping through every token of the token-led index."""
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
    with CaptureQueriesContext(connection) as captured:
        read()
    (sql,) = [query["sql"] for query in captured.captured_queries if "from token_balance" in query["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("explain (costs off) " + sql)
        return "\n".join(line for (line,) in cursor.fetchall())


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
