import datetime

import pytest
from django.conf import settings
from django.test import override_settings

from apps.accounts.selectors import (
    AccountAlias,
    BalanceListFilter,
    EvmAddress,
    balance_list,
    balance_snapshot_range,
    entity_id_by_alias,
    entity_id_by_evm_address,
)
from apps.accounts.tests.factories import (
    create_account_balances,
    create_entity,
    create_token_account,
    create_token_balances,
)
from apps.common.filters import Comparison

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


def balances(now: int = NOW, **criteria) -> list[tuple]:
    rows = balance_list(criteria=BalanceListFilter(**criteria), now=now)
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
        rows = balance_list(criteria=BalanceListFilter(accounts=at(("eq", 5))), now=NOW)
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


def test_entity_lookups_skip_deleted_entities(entities):
    assert entity_id_by_evm_address(EVM_ADDRESS) == 8
    assert entity_id_by_evm_address(bytes(19) + b"\x09") is None
    assert entity_id_by_alias(b"\x01\x02\x03") == 8


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
        rows = balance_list(criteria=BalanceListFilter(timestamps=at(("eq", S2)), accounts=at(("eq", 5))), now=NOW)
    assert [row["tokens"] for row in rows] == [[{"token_id": 101, "balance": 2}, {"token_id": 100, "balance": 10}]]


def test_snapshot_balances_skip_an_excluded_snapshot(snapshots):
    assert balances(timestamps=at(("lte", S4), ("ne", S4)), accounts=at(("eq", 5))) == [(5, 500, S3, [(102, 3)])]


def test_no_snapshot_no_balances(snapshots):
    assert balances(timestamps=at(("lt", S1))) == []
