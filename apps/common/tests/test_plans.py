"""Every route's queries read index ranges, whatever the table size.

A generated ledger fills the test database once for this module (and is
removed after it). Each case requests one route with one parameter shape,
captures the SQL it runs and EXPLAINs each statement: a sequential scan of a
large table, or a sort of many rows (a page must come from an ordered index
read, not from sorting what a filter matched), fails the case. A route family
joins with its lines in `CASES`.

The same requests, served by the production WSGI handler, must leave no reference
cycle behind: the garbage collector would otherwise cost every request a share of
its CPU (see `apps.common.api.views.AcyclicViewMixin`). And the statements of routes
that PostgreSQL once planned anew for every request keep their prepared statement's
generic plan.
"""

import gc
import json
import string

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.common.database.schema import mirror_tables
from apps.common.ledger.codecs import parse_entity_id, parse_timestamp
from apps.common.server.handlers import MirrorWSGIHandler, wsgi_environ
from apps.devtools.benchmark.routes import ROUTES, Samples, samples_for
from apps.devtools.generator.ledger import TABLES, Layout
from apps.devtools.generator.loader import django_conninfo, load_ledger
from apps.streams.feeds import AccountTransactionFeed, BlockFeed, TopicMessageFeed

LAYOUT = Layout(transactions=40_000, accounts=4_000, seed=7)
# A table (or partition) with at least this many rows is large; no route may sort more rows than this.
LARGE_ROWS = 1_000

CASES = [
    ("blocks", "/api/v1/blocks"),
    ("blocks", "/api/v1/blocks?order=asc&limit=100"),
    ("blocks", "/api/v1/blocks?block.number=gte:{block}&block.number=lt:{block}0"),
    ("blocks", "/api/v1/blocks?block.number={block}"),
    ("blocks", "/api/v1/blocks?timestamp=gt:{timestamp}&order=asc"),
    ("blocks", "/api/v1/blocks?timestamp=lte:{timestamp}"),
    ("blocks", "/api/v1/blocks/{block}"),
    ("blocks", "/api/v1/blocks/{block_hash}"),
    ("blocks", "/api/v1/blocks/0x{block_hash_prefix}"),
    ("transactions", "/api/v1/transactions"),
    ("transactions", "/api/v1/transactions?order=asc&limit=100"),
    ("transactions", "/api/v1/transactions?timestamp=gt:{timestamp}&order=asc"),
    ("transactions", "/api/v1/transactions?timestamp=lte:{timestamp}"),
    ("transactions", "/api/v1/transactions?timestamp={timestamp}"),
    ("transactions", "/api/v1/transactions?account.id={account}"),
    ("transactions", "/api/v1/transactions?account.id={account}&order=asc"),
    ("transactions", "/api/v1/transactions?account.id={account}&account.id=0.0.1002"),
    ("transactions", "/api/v1/transactions?account.id={account}&timestamp=lt:{timestamp}"),
    ("transactions", "/api/v1/transactions?account.id={account}&type=credit"),
    ("transactions", "/api/v1/transactions?account.id={account}&type=debit"),
    ("transactions", "/api/v1/transactions?account.id={account}&transactiontype=CRYPTOTRANSFER"),
    ("transactions", "/api/v1/transactions?account.id={account}&result=success"),
    ("transactions", "/api/v1/transactions?transactiontype=CONSENSUSSUBMITMESSAGE"),
    ("transactions", "/api/v1/transactions?transactiontype=CONTRACTCALL&order=asc"),
    ("transactions", "/api/v1/transactions?result=fail"),
    ("transactions", "/api/v1/transactions?result=success&timestamp=gte:{timestamp}"),
    ("transactions", "/api/v1/transactions/{transaction_id}"),
    ("transactions", "/api/v1/transactions/{transaction_id}?nonce=0"),
    ("transactions", "/api/v1/transactions/{transaction_id}?scheduled=false"),
    ("transactions", "/api/v1/transactions/{transaction_hash}"),
    ("balances", "/api/v1/balances"),
    ("balances", "/api/v1/balances?order=asc&limit=100"),
    ("balances", "/api/v1/balances?account.id={account}"),
    ("balances", "/api/v1/balances?account.id=gte:{account}&order=asc"),
    ("balances", "/api/v1/balances?account.id=lt:{account}"),
    ("balances", "/api/v1/balances?account.balance=gt:{balance}"),
    ("balances", "/api/v1/balances?account.publickey={public_key}"),
    ("balances", "/api/v1/balances?account.id={evm_address}"),
    ("balances", "/api/v1/balances?timestamp={snapshot}"),
    ("balances", "/api/v1/balances?timestamp=lt:{snapshot}&order=asc"),
    ("balances", "/api/v1/balances?timestamp={snapshot}&account.id={account}"),
    ("balances", "/api/v1/balances?timestamp={snapshot}&account.id=gt:{account}"),
    ("balances", "/api/v1/balances?timestamp={snapshot}&account.balance=lt:{balance}"),
    ("accounts", "/api/v1/accounts/{account}?timestamp={snapshot}"),
    ("tokens", "/api/v1/tokens/{token}/balances?timestamp={snapshot}"),
    ("tokens", "/api/v1/tokens/{token}/balances?timestamp={snapshot}&order=asc"),
    # The benchmark's mix of the other families.
    *(
        (family, template)
        for family in ("accounts", "tokens", "topics", "schedules", "contracts", "network")
        for template in ROUTES[family]
    ),
]


@pytest.fixture(scope="module")
def ledger(django_db_setup, django_db_blocker) -> dict:
    """The generated ledger's sample values (see `Samples`), plus a few more URL parts."""
    with django_db_blocker.unblock():
        conninfo = django_conninfo()
        load_ledger(conninfo, LAYOUT, progress=lambda message: None)
        samples = samples_for(LAYOUT, conninfo)
        with connection.cursor() as cursor:
            cursor.execute("select public_key from entity where id = %s", [int(samples.account.split(".")[-1])])
            (public_key,) = cursor.fetchone()
        try:
            yield _url_values(samples, public_key)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("truncate " + ", ".join(f'"{table}"' for table in mirror_tables()))


def _url_values(samples: Samples, public_key: str) -> dict:
    values = vars(samples).copy()
    values["block_hash_prefix"] = samples.block_hash[:64]
    values["public_key"] = public_key
    return values


def large_relations() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "select relname from pg_class where relkind = 'r' and reltuples >= %s"
            " and relnamespace = current_schema()::regnamespace",
            [LARGE_ROWS],
        )
        return {name for (name,) in cursor.fetchall()}


def plan_problems(node: dict, large: set[str]) -> list[str]:
    problems = []
    relation = node.get("Relation Name")
    if node["Node Type"] == "Seq Scan" and relation in large:
        problems.append(f"sequential scan of {relation} ({node['Plan Rows']} rows estimated)")
    if node["Node Type"] == "Sort":
        sorted_rows = sum(child["Plan Rows"] for child in node.get("Plans", ()))
        if sorted_rows > LARGE_ROWS:
            problems.append(f"sort of {sorted_rows} rows by {node.get('Sort Key')}")
    for child in node.get("Plans", ()):
        problems.extend(plan_problems(child, large))
    return problems


def explain(sql: str) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("explain (format json) " + sql)
        (document,) = cursor.fetchone()
    return (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]


@pytest.mark.django_db
def test_the_generated_ledger_fills_every_table_it_writes(ledger):
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f'select exists (select 1 from "{table}")')
            assert cursor.fetchone()[0], table


@pytest.mark.django_db
@pytest.mark.parametrize(("family", "template"), CASES, ids=[template for _, template in CASES])
def test_route_reads_index_ranges(ledger, family, template):
    url = template.format(**ledger)
    with CaptureQueriesContext(connection) as captured:
        response = Client().get(url)
    assert response.status_code == 200, (url, response.content[:300])
    statements = [
        query["sql"]
        for query in captured.captured_queries
        # A union of parenthesized selects starts with "(".
        if query["sql"].lstrip(string.whitespace + "(").lower().startswith(("select", "with"))
    ]
    assert statements, url
    large = large_relations()
    problems = {sql: found for sql in statements if (found := plan_problems(explain(sql), large))}
    assert not problems, json.dumps(problems, indent=1)


@pytest.fixture(scope="module")
def server_handler() -> MirrorWSGIHandler:
    return MirrorWSGIHandler()


def serve(handler: MirrorWSGIHandler, url: str) -> str:
    path, _, query = url.partition("?")
    statuses = []
    body = handler(wsgi_environ("GET", path, query), lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(body)
    return statuses[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("family", "template"), CASES, ids=[template for _, template in CASES])
def test_route_leaves_no_reference_cycles(ledger, server_handler, connection_kept_open, family, template):
    url = template.format(**ledger)
    serve(server_handler, url)  # the first request of a shape fills caches that live on
    gc.collect()
    gc.disable()
    try:
        status = serve(server_handler, url)
        assert gc.collect() == 0, url
    finally:
        gc.enable()
    assert status.startswith("200"), (url, status)


# Routes whose statements once got a new plan on every request: a parameter PostgreSQL's
# generic plan could not use (a LIKE pattern, a LIMIT, a partition key, an entity type, constant
# account ranges).
GENERIC_PLAN_CASES = [
    "/api/v1/blocks/{block_hash}",
    "/api/v1/transactions/{transaction_hash}",
    "/api/v1/tokens/{token}/balances",
    "/api/v1/balances?account.id=gte:{account}&order=asc",
    "/api/v1/network/supply",
]


@pytest.mark.django_db
@pytest.mark.parametrize("template", GENERIC_PLAN_CASES)
def test_route_statements_keep_a_generic_plan(ledger, server_handler, connection_kept_open, template):
    """psycopg prepares a statement on its 6th run; PostgreSQL then makes custom plans for 5 runs
    and keeps the generic plan if it is no costlier. A statement still planned per request
    shows more than 5 custom plans after 10 prepared runs."""
    url = template.format(**ledger)
    for _ in range(15):
        assert serve(server_handler, url).startswith("200"), url
    with connection.cursor() as cursor:
        cursor.execute("select statement, custom_plans from pg_prepared_statements where custom_plans > 5")
        replanned = cursor.fetchall()
    assert not replanned, replanned


@pytest.mark.django_db
@pytest.mark.parametrize("feed_name", ["blocks", "topic", "account"])
def test_stream_feeds_read_index_ranges(ledger, feed_name):
    """The stream poller's reads (apps.streams.feeds): the newest row, then the rows past one."""
    feed = {
        "blocks": lambda: BlockFeed(),
        "topic": lambda: TopicMessageFeed(parse_entity_id(ledger["topic"]).encoded),
        "account": lambda: AccountTransactionFeed(parse_entity_id(ledger["account"]).encoded),
    }[feed_name]()
    with CaptureQueriesContext(connection) as captured:
        assert feed.latest() > 0
        assert feed.rows_after(parse_timestamp(ledger["timestamp"]))
    large = large_relations()
    statements = [query["sql"] for query in captured.captured_queries]
    problems = {sql: found for sql in statements if (found := plan_problems(explain(sql), large))}
    assert not problems, json.dumps(problems, indent=1)


def test_plan_problems_names_sequential_scans_of_large_tables_and_big_sorts():
    scan = {"Node Type": "Seq Scan", "Relation Name": "transaction", "Plan Rows": 40_000}
    small_scan = {"Node Type": "Seq Scan", "Relation Name": "topic", "Plan Rows": 4}
    sort = {"Node Type": "Sort", "Sort Key": ["payer_account_id"], "Plan Rows": 25, "Plans": [scan]}
    limit = {"Node Type": "Limit", "Plan Rows": 25, "Plans": [sort, small_scan]}

    assert plan_problems(limit, {"transaction"}) == [
        "sort of 40000 rows by ['payer_account_id']",
        "sequential scan of transaction (40000 rows estimated)",
    ]
    assert plan_problems(small_scan, {"transaction"}) == []
