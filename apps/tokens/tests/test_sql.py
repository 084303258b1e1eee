import pytest

from apps.common.query.comparisons import Comparison
from apps.tokens import sql

# Values no statement holds as a constant: found in a statement's text, one was formatted in.
TOKEN, SERIAL, ACCOUNT, BALANCE, TIMESTAMP = 987_001, 987_002, 987_003, 987_004, 987_005
PUBLIC_KEY = "ab" * 32


def _balance_narrowing(order: str = "desc") -> dict:
    return {
        "accounts": (Comparison("gt", ACCOUNT), Comparison("eq", ACCOUNT + 1)),
        "balances": (Comparison("gte", BALANCE),),
        "public_key": PUBLIC_KEY,
        "order": order,
        "limit": 7,
    }


@pytest.mark.parametrize(
    "statement",
    [
        sql.token_info(TOKEN, None),
        sql.token_info(TOKEN, ("lt", TIMESTAMP)),
        sql.current_token_balances(TOKEN, **_balance_narrowing()),
        sql.snapshot_token_balances(TOKEN, TIMESTAMP - 1, TIMESTAMP, **_balance_narrowing("asc")),
        sql.nft_transactions(TOKEN, SERIAL, timestamps=(Comparison("lte", TIMESTAMP),), order="asc", limit=7),
    ],
)
def test_values_are_bound_parameters(statement):
    text, params = statement

    assert text.count("%s") == len(params)
    for value in (TOKEN, SERIAL, ACCOUNT, ACCOUNT + 1, BALANCE, TIMESTAMP, TIMESTAMP - 1, PUBLIC_KEY):
        assert str(value) not in text


def test_balance_comparisons_are_all_anded():
    text, params = sql.current_token_balances(TOKEN, **_balance_narrowing())

    assert "b.account_id > %s and b.account_id = %s and b.balance >= %s" in text
    assert params[2:5] == [ACCOUNT, ACCOUNT + 1, BALANCE]
    assert text.endswith("order by b.account_id desc limit 7")


def test_an_account_that_names_no_entity_matches_nothing():
    text, _ = sql.current_token_balances(
        TOKEN, accounts=(Comparison("eq", None),), balances=(), public_key=None, order="asc", limit=7
    )

    assert " and false " in text


def test_token_versions_as_of_a_timestamp():
    text, params = sql.token_info(TOKEN, ("lte", TIMESTAMP))

    assert "lower(timestamp_range) <= %s" in text
    assert params == [TOKEN, TIMESTAMP, TOKEN, TIMESTAMP] * 3
