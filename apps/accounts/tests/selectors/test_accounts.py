from dataclasses import replace

import pytest
from django.conf import settings
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import override_settings

from apps.accounts.filtersets import AccountFilterSet
from apps.accounts.models import Entity
from apps.accounts.selectors.accounts import (
    account_get,
    account_list,
    pending_reward,
    timestamp_range_is_empty,
)
from apps.accounts.tests.factories import (
    create_entity,
    create_entity_history,
    create_entity_stake,
    create_token_account,
)
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria

pytestmark = pytest.mark.django_db

TREASURY_MEMO = "Mirror node created synthetic treasury account"


@pytest.fixture
def entities():
    create_entity(2, memo=TREASURY_MEMO, balance=1)
    create_entity(3, balance=30, public_key="ab" * 32, staked_node_id=1, stake_period_start=5)
    create_entity(4, type="CONTRACT", balance=40)
    create_entity(5, type="FILE")
    create_entity(6, balance=60, public_key="ab" * 32)
    create_entity_stake(3, pending_reward=33, end_stake_period=9)
    for token in (100, 101, 102):
        create_token_account(3, token, token)


def account_criteria(
    *, accounts=(), balances=(), public_keys=(), include_balance=True, limit=25, order="asc"
) -> PageCriteria:
    """The criteria `AccountFilterSet` makes of a query, with these comparisons."""
    criteria = AccountFilterSet({} if include_balance else {"balance": ["false"]}).criteria()
    given = {"account.id": accounts, "account.balance": balances, "account.publickey": public_keys}
    comparisons = {param: tuple(given[param]) for param in criteria.comparisons}
    return replace(criteria, comparisons=comparisons, limit=limit, order=order)


def ids(**criteria) -> list[int]:
    return [row["id"] for row in account_list(account_criteria(**criteria))]


def test_list_reads_accounts_and_contracts_but_the_synthetic_treasury(entities):
    assert ids() == [3, 4, 6]
    assert ids(include_balance=False) == [2, 3, 4, 6]
    assert ids(order="desc", limit=2) == [6, 4]


def test_list_filters(entities):
    assert ids(accounts=[Comparison("gte", 3), Comparison("ne", 4)]) == [3, 6]
    assert ids(accounts=[Comparison("eq", 6), Comparison("eq", None)]) == [6]
    assert ids(accounts=[Comparison("eq", None)]) == []
    assert ids(balances=[Comparison("lt", 60)]) == [3, 4]
    assert ids(public_keys=[Comparison("eq", "ab" * 32)]) == [3, 6]
    assert ids(public_keys=[Comparison("eq", "ab" * 32), Comparison("eq", "cd" * 32)]) == []


@override_settings(MIRROR={**settings.MIRROR, "TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS": 2})
def test_list_rows_carry_stake_and_token_balances(entities):
    three, four, _ = account_list(account_criteria())
    without_balance = account_list(account_criteria(include_balance=False))[1]

    assert (three["pending_reward"], three["tokens"]) == (
        33,
        [{"token_id": 100, "balance": 100}, {"token_id": 101, "balance": 101}],
    )
    assert (four["pending_reward"], four["tokens"]) == (0, [])
    assert "balance" not in without_balance and "tokens" not in without_balance


def test_get_current_and_missing(entities):
    three = account_get(account_id=3, now=0)

    assert (three["balance"], three["pending_reward"], len(three["tokens"])) == (30, 33, 3)
    assert account_get(account_id=2, now=0) is None
    assert account_get(account_id=5, now=0) is None
    assert account_get(account_id=9, now=0) is None


def test_get_newest_version_in_range(entities):
    Entity.objects.filter(id=3).update(timestamp_range=Range(30, None))
    create_entity_history(3, 10, 20, memo="first")
    create_entity_history(3, 20, 30, memo="second")

    def memo_at(*comparisons):
        return account_get(account_id=3, timestamps=[Comparison(*c) for c in comparisons], now=0)["memo"]

    assert memo_at(("lte", 25)) == "second"
    assert memo_at(("eq", 15)) == "first"
    assert memo_at(("gte", 12), ("lt", 20)) == "first"
    assert memo_at(("gt", 30)) == ""
    assert account_get(account_id=3, timestamps=[Comparison("lt", 10)], now=0) is None


@pytest.mark.parametrize(
    ("entity", "stake", "expected"),
    [
        ({"decline_reward": False, "staked_node_id": 1, "stake_period_start": 5}, {"pending_reward": 7, "end_stake_period": 9}, 7),
        ({"decline_reward": False, "staked_node_id": 1, "stake_period_start": None}, {"pending_reward": 7, "end_stake_period": 9}, 7),
        ({"decline_reward": False, "staked_node_id": 1, "stake_period_start": 9}, {"pending_reward": 7, "end_stake_period": 9}, 0),
        ({"decline_reward": True, "staked_node_id": 1, "stake_period_start": 5}, {"pending_reward": 7, "end_stake_period": 9}, 0),
        ({"decline_reward": False, "staked_node_id": -1, "stake_period_start": 5}, {"pending_reward": 7, "end_stake_period": 9}, 0),
        ({"decline_reward": False, "staked_node_id": None, "stake_period_start": 5}, {"pending_reward": 7, "end_stake_period": 9}, 0),
        ({"decline_reward": False, "staked_node_id": 1, "stake_period_start": 5}, None, 0),
    ],
)
def test_pending_reward(entity, stake, expected):
    assert pending_reward(entity, stake) == expected


@pytest.mark.parametrize(
    ("comparisons", "empty"),
    [
        ([("gt", 5), ("lte", 5)], True),
        ([("gte", 5), ("lte", 5)], False),
        ([("gt", 5), ("eq", 5)], True),
        ([("ne", 5)], False),
        ([], False),
    ],
)
def test_timestamp_range_is_empty(comparisons, empty):
    assert timestamp_range_is_empty([Comparison(*c) for c in comparisons]) is empty
