"""The statements of `sql`: a page of transactions reads each table once for the whole page,
whatever the table sizes.

The rows and their transfer lists come from one statement; no part of its plan
may run once per row of the page (a nested loop that looks the transfers up, or
aggregates them again, for each transaction), and each transfer table is read
with an index scan of the page's timestamps only.
"""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.common.query.comparisons import Comparison
from apps.transactions.selectors import (
    TransactionListFilter,
    transaction_page,
    transactions_at,
    transactions_by_hash,
)
from apps.transactions.tests.factories import create_transaction, transaction_hash

pytestmark = pytest.mark.django_db

T = 1_700_000_000_000_000_000
ROWS = 20_000
PAYERS = 500
FIRST_PAYER = 8001
TRANSFER_TABLES = {"crypto_transfer", "token_transfer", "staking_reward_transfer", "assessed_custom_fee"}


@pytest.fixture
def many_transactions():
    """ROWS transactions, each with three crypto transfers and an entity_transaction row; every
    tenth with a token transfer and an assessed custom fee, every fiftieth with a staking reward."""
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into transaction (consensus_timestamp, type, result, payer_account_id, valid_start_ns,"
            " valid_duration_seconds, node_account_id, charged_tx_fee, max_fee, transaction_hash, index)"
            f" select {T} + g * 1000, 14, 22, {FIRST_PAYER} + g % {PAYERS}, {T} + g * 1000 - 1, 120, 3, 7, 100,"
            f" sha384(g::text::bytea), 1 from generate_series(1, {ROWS}) g"
        )
        cursor.execute(
            "insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)"
            f" select account, {T} + g * 1000, amount, {FIRST_PAYER} + g % {PAYERS}, false"
            f" from generate_series(1, {ROWS}) g,"
            f" lateral (values ({FIRST_PAYER} + g % {PAYERS}, -7), (3, 1), (98, 6)) transfer(account, amount)"
        )
        cursor.execute(
            "insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id)"
            f" select 5000, {FIRST_PAYER} + (g + 1) % {PAYERS}, {T} + g * 1000, 10, {FIRST_PAYER} + g % {PAYERS}"
            f" from generate_series(10, {ROWS}, 10) g"
        )
        cursor.execute(
            "insert into assessed_custom_fee (consensus_timestamp, amount, collector_account_id,"
            f" effective_payer_account_ids, payer_account_id) select {T} + g * 1000, 1, 9000,"
            f" array[{FIRST_PAYER} + g % {PAYERS}], {FIRST_PAYER} + g % {PAYERS} from generate_series(10, {ROWS}, 10) g"
        )
        cursor.execute(
            "insert into staking_reward_transfer (account_id, amount, consensus_timestamp, payer_account_id)"
            f" select {FIRST_PAYER} + g % {PAYERS}, 5, {T} + g * 1000, {FIRST_PAYER} + g % {PAYERS}"
            f" from generate_series(50, {ROWS}, 50) g"
        )
        cursor.execute(
            "insert into entity_transaction (consensus_timestamp, entity_id, payer_account_id, result, type)"
            f" select {T} + g * 1000, 7000 + g % {PAYERS}, {FIRST_PAYER} + g % {PAYERS}, 22, 14"
            f" from generate_series(1, {ROWS}) g"
        )
        for table in ("transaction", "entity_transaction", *TRANSFER_TABLES):
            cursor.execute(f"analyze {table}")


def executed_plans(read) -> list[dict]:
    """The executed plans (EXPLAIN ANALYZE) of the statements `read` runs."""
    with CaptureQueriesContext(connection) as captured:
        read()
    plans = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            cursor.execute("explain (analyze, format json) " + query["sql"])
            (document,) = cursor.fetchone()
            plans.append((json.loads(document) if isinstance(document, str) else document)[0]["Plan"])
    return plans


def nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from nodes(child)


def per_row_nodes(plan: dict) -> list[str]:
    return [
        f"{node['Node Type']} on {node.get('Relation Name', '-')} ran {node['Actual Loops']} times"
        for node in nodes(plan)
        if node["Actual Loops"] > 1
    ]


def transfer_reads(plan: dict) -> dict[str, list[dict]]:
    reads = {}
    for node in nodes(plan):
        if node.get("Relation Name") in TRANSFER_TABLES:
            reads.setdefault(node["Relation Name"], []).append(node)
    return reads


@pytest.mark.parametrize(
    "criteria",
    [
        TransactionListFilter(limit=100),
        TransactionListFilter(order="asc", limit=100),
        TransactionListFilter(timestamps=[Comparison("gt", T + ROWS * 500)], order="asc"),
        TransactionListFilter(accounts=[Comparison("eq", FIRST_PAYER + 11)]),
        TransactionListFilter(accounts=[Comparison("eq", FIRST_PAYER + 11)], directions=["credit"]),
        TransactionListFilter(types=[14], result="success"),
    ],
    ids=["newest", "oldest", "after a timestamp", "account", "account credit", "type and result"],
)
def test_a_page_reads_each_transfer_table_once(many_transactions, criteria):
    rows = transaction_page(criteria)
    assert len(rows) == criteria.limit
    (plan,) = executed_plans(lambda: transaction_page(criteria))

    assert per_row_nodes(plan) == []
    reads = transfer_reads(plan)
    # The lists read the page's transfers only, through the timestamp index.
    (crypto,) = [node for node in reads["crypto_transfer"] if "= ANY" in node.get("Index Cond", "")]
    assert crypto["Index Name"] == "crypto_transfer__consensus_timestamp"
    assert crypto["Actual Rows"] == 3 * criteria.limit
    (token,) = [node for node in reads["token_transfer"] if "= ANY" in node.get("Index Cond", "")]
    assert token["Actual Rows"] == sum(len(row["token_transfers"]) for row in rows)
    assert all(node["Node Type"] != "Seq Scan" for found in reads.values() for node in found)


def test_detail_lists_read_each_table_once(many_transactions):
    timestamps = [T + g * 1000 for g in range(100, 300, 2)]
    rows = transactions_at(timestamps=timestamps, detail=True)
    plans = executed_plans(lambda: transactions_at(timestamps=timestamps, detail=True))

    lists = plans[0]
    assert per_row_nodes(lists) == []
    reads = transfer_reads(lists)
    assert sorted(reads) == sorted(TRANSFER_TABLES)
    assert [node["Actual Rows"] for node in reads["crypto_transfer"]] == [3 * len(rows)]
    assert [node["Actual Rows"] for node in reads["assessed_custom_fee"]] == [20]
    assert [len(row["assessed_custom_fees"]) for row in rows].count(1) == 20


def prepared_page_statement(criteria: TransactionListFilter) -> tuple[str, int]:
    """The page's statement as psycopg prepared it after running it often enough (with `$n`
    parameters), and how many times PostgreSQL ran it with its generic plan."""
    for _ in range(10):
        transaction_page(criteria)
    with connection.cursor() as cursor:
        cursor.execute(
            "select statement, generic_plans from pg_prepared_statements where statement like 'with given%%'"
        )
        ((statement, generic_plans),) = cursor.fetchall()
    return statement, generic_plans


def generic_plan(statement: str) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("explain (generic_plan, format json) " + statement)
        (document,) = cursor.fetchone()
    return (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]


@pytest.mark.parametrize(
    "criteria",
    [TransactionListFilter(), TransactionListFilter(result="fail"), TransactionListFilter(limit=100, order="asc")],
    ids=["newest", "failed", "oldest"],
)
def test_a_page_without_parameters_is_planned_once(many_transactions, criteria):
    """The limit and constants are written into the statement: with no parameter left,
    PostgreSQL keeps its one plan rather than plan each page again."""
    statement, generic_plans = prepared_page_statement(criteria)

    assert "$1" not in statement
    assert generic_plans > 0


@pytest.mark.parametrize(
    "criteria",
    [
        TransactionListFilter(accounts=[Comparison("eq", FIRST_PAYER + 11)]),
        TransactionListFilter(accounts=[Comparison("eq", FIRST_PAYER + 11)], directions=["credit"]),
        TransactionListFilter(accounts=[Comparison("eq", FIRST_PAYER + 11)], types=[14]),
    ],
    ids=["account", "account credit", "account and type"],
)
def test_the_generic_plan_of_an_account_page_reads_its_transfers_by_account(many_transactions, criteria):
    """A generic plan knows no account id: it can read the partial account index of crypto_transfer
    (`where entity_id <> 98`) only because the statement says the account is not 0.0.98."""
    statement, _ = prepared_page_statement(criteria)
    plan = generic_plan(statement)

    assert "$1" in statement
    assert [node["Relation Name"] for node in nodes(plan) if node["Node Type"] == "Seq Scan"] == []
    assert "crypto_transfer__entity_id_consensus_timestamp" in {node.get("Index Name") for node in nodes(plan)}


def test_by_hash_probes_only_the_partition_of_its_first_byte():
    digest = transaction_hash(T + 3)
    create_transaction(T + 3, 10, nonce=0)
    with CaptureQueriesContext(connection) as captured:
        assert [row["consensus_timestamp"] for row in transactions_by_hash(transaction_hash=digest).rows] == [T + 3]
    lookup = next(query["sql"] for query in captured if "from transaction_hash" in query["sql"])
    with connection.cursor() as cursor:
        cursor.execute("explain " + lookup)
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert len(set(re.findall(r" on (transaction_hash_\d+) ", plan))) == 1, plan
