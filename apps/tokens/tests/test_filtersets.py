import pytest

from apps.common.api.exceptions import InvalidArgument
from apps.common.filters import Comparison
from apps.tokens.filtersets import (
    TokenBalanceFilterSet,
    TokenDetailFilterSet,
    TokenFilterSet,
    parse_equals,
    parse_token_id,
)
from apps.tokens.models import Token
from apps.tokens.selectors import TokenBalanceListFilter


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
    assert parse_token_id(text) == expected


@pytest.mark.parametrize(
    "text", ["abc", "0.0.0x000000000000000000000000000000000000046F", "06bd279138d5918402fc8ad500526cb2ee0eb985"]
)
def test_invalid_token_ids(text):
    with pytest.raises(ValueError):
        parse_token_id(text)


def test_equals_operand():
    assert parse_equals("eq:0.0.5") == "0.0.5"
    assert parse_equals("0.0.5") == "0.0.5"
    with pytest.raises(ValueError):
        parse_equals("gt:0.0.5")


@pytest.mark.parametrize(
    ("params", "paged"), [({}, True), ({"token.id": ["1"]}, True), ({"name": ["coin"]}, False)]
)
def test_name_search_is_not_paged(params, paged):
    assert TokenFilterSet(params, Token.objects.none()).paged is paged


def test_name_combinations_are_rejected_before_values():
    filterset = TokenFilterSet({"name": ["x"], "token.id": ["bad"], "limit": ["bad"]}, Token.objects.none())

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

    assert TokenDetailFilterSet(params, Token.objects.none()).as_of() == expected


def test_token_balance_list_filter():
    params = {
        "account.id": ["gt:0.0.5"],
        "account.balance": ["0"],
        "account.publickey": ["0x" + "ab" * 32, "cd" * 32],
        "limit": ["2"],
    }

    criteria = TokenBalanceFilterSet(params, Token.objects.none()).list_filter(1001)

    assert criteria == TokenBalanceListFilter(
        token_id=1001,
        accounts=(Comparison("gt", 5),),
        balances=(Comparison("eq", 0),),
        public_key="cd" * 32,
        limit=2,
        order="desc",
    )
