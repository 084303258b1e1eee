"""`selectors.balances`: the pages of `/balances` and the balance reads accounts share.

A page of balances reads the page's rows, however large the ledger: current balances do not
step over entities of other types, token balances at a snapshot read each account's own rows
however many tokens there are (the plans below)."""

import datetime
import json
import re
from dataclasses import replace

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from apps.accounts.filtersets import BalanceFilterSet
from apps.accounts.selectors.account_paths import AccountAlias, EvmAddress
from apps.accounts.selectors.accounts import account_get
from apps.accounts.selectors.balances import balance_list, balance_snapshot_range
from apps.accounts.tests.factories import (
    create_account_balances,
    create_entity,
    create_token_account,
    create_token_balances,
)
from apps.common import clock
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria
from apps.common.tests.statement_plans import plans_of

pytestmark = pytest.mark.django_db

SECOND = 1_000_000_000
DAY = 86_400 * SECOND


def instant(year: int, month: int, day: int = 1) -> int:
    return int(datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc).timestamp()) * SECOND


JAN = instant(2024, 1)
FEB = instant(2024, 2)
S1, S2, S3, S4 = JAN + DAY, JAN + 10 * DAY, FEB + DAY, FEB + 5 * DAY
NOW = FEB + 20 * DAY
EVM_ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")


@pytest.fixture
def snapshots():
    """Full snapshots open each month (S1, S3); later ones (S2, S4) hold changes only."""
    create_account_balances(S1, {2: 1, 5: 50, 6: 60, 7: 70})
    create_account_balances(S2, {2: 2, 5: 55})
    create_account_balances(S3, {2: 3, 5: 500, 6: 600, 7: 700})
    create_account_balances(S4, {2: 4, 7: 777})
    create_token_balances(S1, 5, {100: 1, 101: 2})
    create_token_balances(S2, 5, {100: 10})
    create_token_balances(S3, 5, {102: 3})


@pytest.fixture
def entities():
    create_entity(2, balance=1, balance_timestamp=NOW - 5)
    create_entity(5, balance=500, balance_timestamp=NOW - 9, public_key="ab" * 32)
    create_entity(6, type="CONTRACT", balance=600, balance_timestamp=NOW - 1, public_key="ab" * 32)
    create_entity(7, type="TOKEN", balance=700)
    create_entity(8, balance=800, evm_address=EVM_ADDRESS, alias=b"\x01\x02\x03")
    create_entity(9, balance=900, evm_address=bytes(19) + b"\x09", deleted=True)
    create_token_account(5, 100, 11)
    create_token_account(5, 101, 12, associated=False)
    create_token_account(5, 102, 13)


def balance_criteria(*, accounts=(), balances=(), public_keys=(), timestamps=(), limit=25, order="desc") -> PageCriteria:
    """The criteria `BalanceFilterSet` makes of a query, with these comparisons."""
    comparisons = {
        "account.id": tuple(accounts),
        "account.balance": tuple(balances),
        "account.publickey": tuple(Comparison("eq", key) for key in public_keys),
        "timestamp": tuple(timestamps),
    }
    return replace(BalanceFilterSet({}).criteria(), comparisons=comparisons, limit=limit, order=order)


def balance_page(criteria: PageCriteria, now: int = NOW) -> list[dict]:
    with clock.frozen_at(now):
        return balance_list(criteria)


def balances(now: int = NOW, **criteria) -> list[tuple]:
    rows = balance_page(balance_criteria(**criteria), now)
    return [
        (
            row["account_id"],
            row["balance"],
            row["consensus_timestamp"],
            [(token["token_id"], token["balance"]) for token in row["tokens"]],
        )
        for row in rows
    ]


def at(*comparisons: tuple[str, int]) -> list[Comparison]:
    return [Comparison(operator, value) for operator, value in comparisons]


# --- Current balances -------------------------------------------------------------------------


def test_current_balances_of_accounts_and_contracts(entities):
    assert balances() == [
        (9, 900, None, []),
        (8, 800, None, []),
        (6, 600, NOW - 1, []),
        (5, 500, NOW - 9, [(102, 13), (100, 11)]),
        (2, 1, NOW - 5, []),
    ]


def test_current_balances_ascending_limited_and_filtered(entities):
    assert balances(order="asc", limit=2) == [(2, 1, NOW - 5, []), (5, 500, NOW - 9, [(100, 11), (102, 13)])]
    assert balances(accounts=at(("gt", 5), ("lte", 8))) == [(8, 800, None, []), (6, 600, NOW - 1, [])]
    assert balances(accounts=at(("eq", 2), ("eq", 6))) == [(6, 600, NOW - 1, []), (2, 1, NOW - 5, [])]
    assert balances(balances=at(("gte", 600), ("lt", 900))) == [(8, 800, None, []), (6, 600, NOW - 1, [])]
    assert balances(public_keys=["ab" * 32]) == [(6, 600, NOW - 1, []), (5, 500, NOW - 9, [(102, 13), (100, 11)])]
    assert balances(public_keys=["ab" * 32, "cd" * 32]) == []


@override_settings(MIRROR={**settings.MIRROR, "TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS": 1})
def test_token_balances_per_account_are_limited(entities):
    assert balances(accounts=at(("eq", 5))) == [(5, 500, NOW - 9, [(102, 13)])]
    assert balances(accounts=at(("eq", 5)), order="asc") == [(5, 500, NOW - 9, [(100, 11)])]


def test_a_page_of_current_balances_is_one_statement_with_its_token_balances(entities, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = balance_page(balance_criteria(accounts=at(("eq", 5))))
    assert [row["tokens"] for row in rows] == [[{"token_id": 102, "balance": 13}, {"token_id": 100, "balance": 11}]]


def test_accounts_by_evm_address_and_alias(entities):
    assert balances(accounts=[Comparison("eq", EvmAddress(EVM_ADDRESS))]) == [(8, 800, None, [])]
    assert balances(accounts=[Comparison("eq", AccountAlias(b"\x01\x02\x03"))]) == [(8, 800, None, [])]
    assert balances(accounts=[Comparison("eq", EvmAddress(bytes(20)))]) == []
    assert balances(accounts=[Comparison("eq", AccountAlias(b"\x09"))]) == []
    # An unknown address compares as NULL: the other ids still match.
    assert balances(accounts=[Comparison("eq", 5), Comparison("eq", EvmAddress(bytes(20)))]) == [
        (5, 500, NOW - 9, [(102, 13), (100, 11)])
    ]


def test_accounts_by_evm_address_at_a_snapshot(entities, snapshots):
    create_account_balances(S4, {8: 888})

    assert balances(accounts=[Comparison("eq", EvmAddress(EVM_ADDRESS))], timestamps=at(("lte", S4))) == [
        (8, 888, S4, [])
    ]


# --- Snapshots --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comparisons", "expected"),
    [
        ((("eq", S2),), (JAN, S2)),
        ((("lte", S2 + 1),), (JAN, S2)),
        ((("lt", S3),), (JAN, S2)),
        ((("lte", S4),), (FEB, S4)),
        ((("lte", S4), ("ne", S4)), (FEB, S3)),
        ((("gte", S3), ("lt", S4)), (FEB, S3)),
        ((("gt", S1),), (FEB, S4)),
        ((("gt", S4),), None),
        ((("lt", S1),), None),
        ((("gt", S2), ("lt", S2)), None),
        ((), (FEB, S4)),
    ],
)
def test_snapshot_range(snapshots, comparisons, expected):
    assert balance_snapshot_range(timestamps=at(*comparisons), now=NOW) == expected


def test_snapshot_search_starts_the_month_before_now(snapshots):
    # Snapshots older than the month before "now" are not searched without an upper bound.
    assert balance_snapshot_range(timestamps=at(("gt", S1)), now=instant(2024, 4, 15)) is None
    assert balance_snapshot_range(timestamps=at(("gt", S1)), now=instant(2024, 3, 15)) == (FEB, S4)


def test_balances_at_a_partial_snapshot_carry_the_month_forward(snapshots):
    assert balances(timestamps=at(("eq", S2))) == [
        (7, 70, S2, []),
        (6, 60, S2, []),
        (5, 55, S2, [(101, 2), (100, 10)]),
        (2, 2, S2, []),
    ]


def test_balances_at_a_later_month(snapshots):
    assert balances(timestamps=at(("lte", S4)), order="asc") == [
        (2, 4, S4, []),
        (5, 500, S4, [(102, 3)]),
        (6, 600, S4, []),
        (7, 777, S4, []),
    ]


def test_snapshot_balances_filtered_and_limited(snapshots):
    assert balances(timestamps=at(("eq", S2)), accounts=at(("gte", 5), ("lt", 7))) == [
        (6, 60, S2, []),
        (5, 55, S2, [(101, 2), (100, 10)]),
    ]
    assert balances(timestamps=at(("eq", S2)), balances=at(("gt", 60))) == [(7, 70, S2, [])]
    assert balances(timestamps=at(("eq", S2)), limit=1, order="asc") == [(2, 2, S2, [])]


def test_repeated_balance_values_are_all_required(snapshots, entities):
    assert balances(balances=at(("eq", 500), ("eq", 600))) == []
    assert balances(balances=at(("eq", 600), ("eq", 600))) == [(6, 600, NOW - 1, [])]
    assert balances(timestamps=at(("eq", S2)), balances=at(("eq", 55), ("eq", 60))) == []
    assert balances(timestamps=at(("eq", S2)), balances=at(("eq", 55), ("eq", 55))) == [
        (5, 55, S2, [(101, 2), (100, 10)])
    ]


def test_snapshot_balances_of_public_key_accounts(snapshots, entities):
    assert balances(timestamps=at(("eq", S2)), public_keys=["ab" * 32]) == [
        (6, 60, S2, []),
        (5, 55, S2, [(101, 2), (100, 10)]),
    ]
    assert balances(timestamps=at(("eq", S2)), public_keys=["cd" * 32]) == []


def test_a_snapshot_page_is_its_snapshot_then_one_statement_with_its_token_balances(
    snapshots, django_assert_num_queries
):
    with django_assert_num_queries(2):
        rows = balance_page(balance_criteria(timestamps=at(("eq", S2)), accounts=at(("eq", 5))))
    assert [row["tokens"] for row in rows] == [[{"token_id": 101, "balance": 2}, {"token_id": 100, "balance": 10}]]


def test_snapshot_balances_skip_an_excluded_snapshot(snapshots):
    assert balances(timestamps=at(("lte", S4), ("ne", S4)), accounts=at(("eq", 5))) == [(5, 500, S3, [(102, 3)])]


def test_no_snapshot_no_balances(snapshots):
    assert balances(timestamps=at(("lt", S1))) == []


# --- Plans ------------------------------------------------------------------------------------


PLAN_SNAPSHOT = int(datetime.datetime(2024, 3, 2, tzinfo=datetime.timezone.utc).timestamp()) * 1_000_000_000
PLAN_NOW = PLAN_SNAPSHOT + 86_400 * 1_000_000_000
ACCOUNTS = 10_000
TOKENS = 50


@pytest.fixture
def many_tokens():
    """Each account holds one token, in three snapshots: with `account_id = x` PostgreSQL 18
    picked the token-led index, skipping through every token to reach an account's rows."""
    create_account_balances(PLAN_SNAPSHOT, {2: 1})
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into account_balance (consensus_timestamp, account_id, balance)"
            f" select {PLAN_SNAPSHOT}, 1000 + g, g from generate_series(1, {ACCOUNTS}) g"
        )
        cursor.execute(
            "insert into token_balance (consensus_timestamp, account_id, balance, token_id)"
            f" select {PLAN_SNAPSHOT} - k, 1000 + g, g, 100000 + g % {TOKENS}"
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
    criteria = balance_criteria(timestamps=[Comparison("lte", PLAN_SNAPSHOT)], order=order)
    plan = token_balance_plan(lambda: balance_page(criteria, PLAN_NOW))
    assert reads_only_the_accounts_rows(plan), plan


def test_one_accounts_snapshot_token_balances_read_the_primary_key(many_tokens):
    create_entity(1500)
    plan = token_balance_plan(
        lambda: account_get(account_id=1500, timestamps=[Comparison("lte", PLAN_SNAPSHOT)], now=PLAN_NOW)
    )
    assert reads_only_the_accounts_rows(plan), plan


def test_snapshot_token_balances_are_each_accounts_own(many_tokens):
    rows = balance_page(balance_criteria(timestamps=[Comparison("lte", PLAN_SNAPSHOT)], limit=3), PLAN_NOW)
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
        balance_criteria(),
        balance_criteria(order="asc"),
        balance_criteria(balances=[Comparison("gt", 2000)]),
        balance_criteria(accounts=[Comparison("gte", -10)], order="asc"),
        balance_criteria(accounts=[Comparison("lt", 50)]),
    ],
)
def test_current_balances_do_not_step_over_other_entities(accounts_among_schedules, criteria):
    # Account bounds are relative to the last account: the page straddles accounts and contracts.
    last_account = accounts_among_schedules
    accounts = tuple(Comparison(c.operator, last_account + c.value) for c in criteria["account.id"])
    criteria = replace(criteria, comparisons={**criteria.comparisons, "account.id": accounts})
    with CaptureQueriesContext(connection) as captured:
        rows = balance_page(criteria, PLAN_NOW)
    assert rows and all(1001 <= row["account_id"] <= last_account + 100 for row in rows)
    (sql,) = [query["sql"] for query in captured.captured_queries if "from \"entity\"" in query["sql"].lower()]
    with connection.cursor() as cursor:
        cursor.execute("explain (analyze, format json) " + sql)
        (document,) = cursor.fetchone()
    plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]
    assert rows_filtered_out(plan) <= criteria.limit, json.dumps(plan, indent=1)
