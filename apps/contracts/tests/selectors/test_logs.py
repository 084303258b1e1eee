"""Reading pages of contract logs: the keyset parts, and their plans over a large table."""

import json

import pytest
from django.db import connection

from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria
from apps.contracts.selectors.logs import (
    KeyBound,
    LogCriteria,
    _keyset_parts,
    log_page,
    log_page_statement,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000_000_000_000
LOGS = 200_000
CONTRACTS = 50
ENTITIES = 20_000


def bound(param: str, *comparisons: tuple[str, int]) -> KeyBound:
    result = KeyBound(param)
    for operator, value in comparisons:
        result.add(Comparison(operator, value))
    return result


def criteria(timestamp=(), index=(), *, topics=None, order="desc", limit=25) -> LogCriteria:
    page = PageCriteria(query={}, comparisons={}, columns={}, options={}, order=order, order_by=(), limit=limit)
    return LogCriteria.of(
        page, timestamp=bound("timestamp", *timestamp), index=bound("index", *index), topics=topics or {}
    )


def test_without_an_index_range_one_part_holds_every_condition():
    assert _keyset_parts(bound("timestamp", ("gte", 1), ("lt", 9)), bound("index")) == [
        [("consensus_timestamp", "gte", 1), ("consensus_timestamp", "lt", 9)]
    ]
    assert _keyset_parts(bound("timestamp", ("eq", 5)), bound("index", ("eq", 2))) == [
        [("consensus_timestamp", "eq", 5), ("index", "eq", 2)]
    ]
    assert _keyset_parts(bound("timestamp"), bound("index")) == []


def test_index_bounds_split_the_timestamp_range_into_three_parts():
    assert _keyset_parts(bound("timestamp", ("gte", 1), ("lte", 9)), bound("index", ("gt", 3), ("lt", 7))) == [
        [("consensus_timestamp", "eq", 1), ("index", "gt", 3)],
        [("consensus_timestamp", "gt", 1), ("consensus_timestamp", "lt", 9)],
        [("consensus_timestamp", "eq", 9), ("index", "lt", 7)],
    ]
    assert _keyset_parts(bound("timestamp", ("lte", 9)), bound("index", ("lt", 7))) == [
        [("consensus_timestamp", "lt", 9)],
        [("consensus_timestamp", "eq", 9), ("index", "lt", 7)],
    ]


def test_an_index_range_within_one_timestamp_is_one_part():
    assert _keyset_parts(bound("timestamp", ("eq", 5)), bound("index", ("gte", 1), ("lt", 4))) == [
        [("consensus_timestamp", "eq", 5), ("index", "gte", 1), ("index", "lt", 4)]
    ]


@pytest.fixture
def many_logs():
    """LOGS logs, four per timestamp, spread over CONTRACTS contracts, among ENTITIES entities."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            insert into contract_log (bloom, consensus_timestamp, contract_id, data, index, payer_account_id,
                                      topic0, transaction_hash, transaction_index)
            select '\\x00', %s + n / 4, 1000 + (n / 4) %% %s, '\\x01', n %% 4, 2,
                   int4send(n %% 7)::bytea, '\\x02', 0
            from generate_series(0, %s - 1) n
            """,
            [T, CONTRACTS, LOGS],
        )
        cursor.execute(
            """
            insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end,
                                     count, digest_algorithm, hapi_version_major, hapi_version_minor,
                                     hapi_version_patch, version, file_hash, index)
            select 'f' || b, 1, 2, md5(b::text), md5((b - 1)::text), %s + b * 1000, %s + b * 1000 + 999,
                   1, 0, 0, 1, 0, 6, '', b
            from generate_series(0, %s / 4000) b
            """,
            [T, T, LOGS],
        )
        cursor.execute(
            """
            insert into entity (id, num, realm, shard, timestamp_range, type)
            select n, n, 0, 0, '[1,)',
                   (case when n between 1000 and 1000 + %s then 'CONTRACT' else 'ACCOUNT' end)::entity_type
            from generate_series(1, %s) n
            """,
            [CONTRACTS, ENTITIES],
        )
        for table in ("contract_log", "record_file", "entity"):
            cursor.execute(f"analyze {table}")


def plan(query: tuple[str, list]) -> str:
    sql, params = query
    with connection.cursor() as cursor:
        cursor.execute("explain " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


PAGES = {
    "all, newest first": (criteria(), None),
    "all, oldest first": (criteria(order="asc"), None),
    "all, past a keyset": (criteria(timestamp=[("lte", T + 30_000)], index=[("lt", 2)]), None),
    "all, in a range, by topic": (
        criteria(timestamp=[("gte", T + 100), ("lte", T + 40_000)], topics={"topic0": [b"\x00\x00\x00\x03"]}),
        None,
    ),
    "one contract, newest first": (criteria(), 1007),
    "one contract, past a keyset": (criteria(timestamp=[("gte", T + 500)], index=[("gt", 1)], order="asc"), 1007),
    "one contract, in a range": (criteria(timestamp=[("gte", T + 100), ("lte", T + 40_000)]), 1007),
}


@pytest.mark.parametrize("name", PAGES)
def test_pages_are_index_range_scans(many_logs, name):
    page_criteria, contract_id = PAGES[name]
    text = plan(log_page_statement(page_criteria, contract_id))
    print(f"--- {name}\n{text}")
    assert "Seq Scan" not in text
    assert "Index Scan" in text or "Index Only Scan" in text
    assert len(log_page(page_criteria, contract_id)) == page_criteria.limit


def test_one_contracts_page_looks_its_address_up_once(many_logs):
    sql, params = log_page_statement(criteria(), 1007)
    with connection.cursor() as cursor:
        cursor.execute("explain (analyze, format json) " + sql, params)
        (document,) = cursor.fetchone()
    plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]

    def nodes(node):
        yield node
        for child in node.get("Plans", ()):
            yield from nodes(child)

    (entity,) = [node for node in nodes(plan) if node.get("Relation Name") == "entity"]
    assert entity["Actual Loops"] == 1
    rows = log_page(criteria(), 1007)
    assert {row["evm_address"] for row in rows} == {None}
    assert {row["contract_id"] for row in rows} == {1007}
