import pytest

from apps.common.errors import DetailedError
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import parse_order
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pagination import Anchor
from apps.common.query.strict import (
    STRICT,
    RangeFilter,
    StrictParams,
    ValueFilter,
    parse_java_boolean,
    parse_java_entity_id,
    parse_java_int,
    parse_java_number,
)


class AllowanceFilterSet(ListFilterSet):
    """A strict route's FilterSet, its parameters in the order its Java controller declares them."""

    dialect = STRICT
    account_id = RangeFilter(param="account.id", parser=parse_java_entity_id)
    limit = ValueFilter(parser=parse_java_int)
    order = ValueFilter(parser=parse_order)
    owner = ValueFilter(parser=parse_java_boolean)
    token_id = RangeFilter(param="token.id", parser=parse_java_entity_id)
    cased_token_id = RangeFilter(param="Token.Id", parser=parse_java_entity_id)
    a = RangeFilter(parser=parse_java_entity_id)

    pagination = (Anchor("account.id", "spender"), Anchor("token.id", "token_id"))


def filterset(query_string: str) -> AllowanceFilterSet:
    return AllowanceFilterSet(AllowanceFilterSet.read_query(query_string))


def detail(error: DetailedError) -> str:
    return error.messages[0]["detail"]


def refusal(query_string: str) -> DetailedError:
    with pytest.raises(DetailedError) as error:
        filterset(query_string).criteria()
    return error.value


@pytest.mark.parametrize(
    "text, expected",
    [("5", 5), ("0.7", 7), ("0.0.9", 9), ("0.0.000000000000009", 9), ("1.2.3", (1 << 54) | (2 << 38) | 3), ("274877906943", (1 << 38) - 1)],
)
def test_entity_ids(text, expected):
    assert parse_java_entity_id(text) == expected


@pytest.mark.parametrize("text", ["", "-1", "0.0.-1", "1024.0.1", "0.65536.1", "274877906944", "0x01", "1.2.3.4"])
def test_bad_entity_ids(text):
    with pytest.raises(ValueError):
        parse_java_entity_id(text)


def test_numbers():
    assert parse_java_number("0") == 0
    for text in ("-1", "x", "9223372036854775808"):
        with pytest.raises(ValueError):
            parse_java_number(text)


def test_the_query_is_read_as_sent():
    query = StrictParams("token.id=gt:1&Token.Id=5&token.id=LTE:0.0.9&token.id=")

    assert query == {"token.id": ["gt:1", "LTE:0.0.9", ""], "Token.Id": ["5"]}
    assert query.pairs == (("token.id", "gt:1"), ("Token.Id", "5"), ("token.id", "LTE:0.0.9"), ("token.id", ""))


def test_names_are_case_sensitive_and_values_kept_in_order():
    criteria = filterset("token.id=gt:1&Token.Id=5&token.id=LTE:0.0.9&Token.Id=").criteria()

    assert criteria["token.id"] == (Comparison("gt", 1), Comparison("lte", 9))
    assert criteria["Token.Id"] == (Comparison("eq", 5),)


def test_unknown_names_are_ignored():
    assert filterset("unknown=x&TOKEN.ID=y&token.id=1").criteria()["token.id"] == (Comparison("eq", 1),)


@pytest.mark.parametrize("query_string", ["a=x:1", "a=gt:x", "a=gt:1:2"])
def test_range_conversion_errors(query_string):
    error = refusal(query_string)

    assert (error.status_code, detail(error)) == (400, "Failed to convert 'a'")


def test_the_first_parameter_the_filterset_declares_is_reported():
    assert detail(refusal("token.id=x&owner=maybe&account.id=y")) == "Failed to convert 'account.id'"
    assert detail(refusal("token.id=x&owner=maybe")) == "Failed to convert 'owner'"


def test_order_and_boolean():
    criteria = filterset("order=DESC&owner=No").criteria()

    assert (criteria.order, criteria.option("owner"), filterset("").criteria().option("owner", True)) == ("desc", False, True)
    assert filterset("").criteria().order == "asc"


@pytest.mark.parametrize(
    "query_string, message",
    [("limit=x", "Failed to convert 'limit'"), ("limit=1&limit=2", "Failed to convert 'limit'"), ("limit=99999999999", "Failed to convert 'limit'")],
)
def test_limit_conversion(query_string, message):
    assert detail(refusal(query_string)) == message


def test_limit_validation():
    assert filterset("").criteria().limit == 25
    assert filterset("limit=100").criteria().limit == 100
    for text, message in (("0", "limit must be greater than 0"), ("101", "limit must be less than or equal to 100")):
        assert detail(refusal(f"limit={text}")) == message


def test_range_count():
    assert filterset("a=gt:1&a=").criteria()["a"] == (Comparison("gt", 1),)
    assert detail(refusal("a=1&a=&a=")) == "a size must be between 0 and 2"


def test_conversion_comes_before_the_range_count_and_the_limit():
    assert detail(refusal("a=1&a=2&a=3&limit=0&owner=x")) == "Failed to convert 'owner'"
    assert detail(refusal("a=1&a=2&a=3&limit=0")) == "a size must be between 0 and 2"


def test_criteria_choose_the_strict_link():
    criteria = filterset("account.id=gte:1&limit=1").criteria()

    assert criteria.paged_params == ("account.id", "token.id")
    assert criteria.query.pairs == (("account.id", "gte:1"), ("limit", "1"))
