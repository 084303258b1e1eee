import pytest

from apps.accounts.filtersets import parse_entity_id_or_num_alias
from apps.common.errors import InvalidArgument
from apps.common.query.comparisons import Comparison
from apps.tokens.filtersets import (
    TokenBalanceFilterSet,
    TokenDetailFilterSet,
    TokenFilterSet,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.0.1135", 1135),
        ("1135", 1135),
        ("0.1135", 1135),
        ("0x000000000000000000000000000000000000046F", 1135),
        ("0.0.000000000000000000000000000000000000046F", 1135),
    ],
)
def test_token_ids(text, expected):
    assert parse_entity_id_or_num_alias(text) == expected


@pytest.mark.parametrize(
    "text", ["abc", "0.0.0x000000000000000000000000000000000000046F", "06bd279138d5918402fc8ad500526cb2ee0eb985"]
)
def test_invalid_token_ids(text):
    with pytest.raises(ValueError):
        parse_entity_id_or_num_alias(text)


@pytest.mark.parametrize(
    ("params", "paged"), [({}, True), ({"token.id": ["1"]}, True), ({"name": ["coin"]}, False)]
)
def test_name_search_is_not_paged(params, paged):
    assert bool(TokenFilterSet(params).criteria().anchors) is paged


def test_name_combinations_are_rejected_before_values():
    filterset = TokenFilterSet({"name": ["x"], "token.id": ["bad"], "limit": ["bad"]})

    with pytest.raises(InvalidArgument) as raised:
        filterset.validate()

    assert raised.value.messages == ["token.id and name can not be used together. Use a more specific name instead."]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], None),
        (["100"], ("lte", 100_000_000_000)),
        (["lte:100"], ("lte", 100_000_000_000)),
        (["lt:100", "eq:1.5"], ("lte", 1_500_000_000)),
        (["lte:1", "lt:2"], ("lt", 2_000_000_000)),
    ],
)
def test_token_as_of(values, expected):
    params = {"timestamp": values} if values else {}

    assert TokenDetailFilterSet(params).as_of() == expected


def test_token_balance_criteria():
    params = {
        "account.id": ["gt:0.0.5"],
        "account.balance": ["0"],
        "account.publickey": ["0x" + "ab" * 32, "cd" * 32],
        "limit": ["2"],
    }

    criteria = TokenBalanceFilterSet(params).criteria(scope=(1001,))

    assert criteria.scope == (1001,)
    assert criteria["account.id"] == (Comparison("gt", 5),)
    assert criteria["account.balance"] == (Comparison("eq", 0),)
    # The selector reads the last public key.
    assert criteria["account.publickey"][-1].value == "cd" * 32
    assert criteria["timestamp"] == ()
    assert (criteria.limit, criteria.order) == (2, "desc")
