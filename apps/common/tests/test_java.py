import pytest

from apps.common.api.exceptions import DetailedError
from apps.common.filters import Comparison
from apps.common.java import (
    JavaQuery,
    java_next_link,
    parse_java_entity_id,
    parse_java_number,
    validate_limit,
    validate_range_count,
)


def detail(error: DetailedError) -> str:
    return error.messages[0]["detail"]


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


def test_names_are_case_sensitive_and_values_kept_in_order():
    query = JavaQuery("token.id=gt:1&Token.Id=5&token.id=LTE:0.0.9&token.id=")

    assert query.ranges("token.id", parse_java_entity_id) == [Comparison("gt", 1), Comparison("lte", 9)]
    assert query.ranges("Token.Id", parse_java_entity_id) == [Comparison("eq", 5)]


@pytest.mark.parametrize("query_string", ["a=x:1", "a=gt:x", "a=gt:1:2"])
def test_range_conversion_errors(query_string):
    with pytest.raises(DetailedError) as error:
        JavaQuery(query_string).ranges("a", parse_java_entity_id)

    assert (error.value.status_code, detail(error.value)) == (400, "Failed to convert 'a'")


def test_order_and_boolean():
    query = JavaQuery("order=DESC&owner=No")

    assert (query.order(), query.boolean("owner", True), query.boolean("absent", True)) == ("desc", False, True)
    assert JavaQuery("").order("asc") == "asc"


@pytest.mark.parametrize(
    "query_string, message",
    [("limit=x", "Failed to convert 'limit'"), ("limit=1&limit=2", "Failed to convert 'limit'"), ("limit=99999999999", "Failed to convert 'limit'")],
)
def test_limit_conversion(query_string, message):
    with pytest.raises(DetailedError) as error:
        JavaQuery(query_string).limit_text()

    assert detail(error.value) == message


def test_limit_validation():
    assert validate_limit(None) == 25
    assert validate_limit("100") == 100
    for text, message in (("0", "limit must be greater than 0"), ("101", "limit must be less than or equal to 100")):
        with pytest.raises(DetailedError) as error:
            validate_limit(text)
        assert detail(error.value) == message


def test_range_count():
    validate_range_count("a", ["gt:1", ""])
    with pytest.raises(DetailedError) as error:
        validate_range_count("a", ["1", "", ""])

    assert detail(error.value) == "a size must be between 0 and 2"


PATH = "/api/v1/accounts/1/allowances/nfts"
SORT = [("account.id", "0.0.7"), ("token.id", "0.0.9")]


def link(query_string: str, order: str = "asc", *, count: int = 2, sort=SORT) -> str | None:
    paged = ("account.id", "token.id", "serialnumber")
    return java_next_link(PATH, JavaQuery(query_string), order, sort, paged_params=paged, limit=2, count=count)


def test_bounds_of_a_paged_parameter_that_is_no_sort_key_are_dropped():
    assert link("serialnumber=gt:0&serialnumber=lt:9&limit=2") == (
        f"{PATH}?serialnumber=lt:9&limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )


def test_no_link_for_a_short_page():
    assert link("limit=2", count=1) is None


def test_link_replaces_same_direction_bounds_and_appends_new_keys():
    assert link("account.id=gte:1&account.id=lte:9&limit=2") == (
        f"{PATH}?account.id=lte:9&account.id=gte:0.0.7&limit=2&token.id=gt:0.0.9"
    )
    assert link("account.id=gte:1&limit=2", "desc") == (
        f"{PATH}?account.id=gte:1&account.id=lte:0.0.7&limit=2&token.id=lt:0.0.9"
    )


def test_pinned_keys_get_no_bound_and_make_the_previous_exclusive():
    assert link("token.id=5&limit=2") == f"{PATH}?token.id=5&limit=2&account.id=gt:0.0.7"
    assert link("account.id=eq:7&limit=2") == f"{PATH}?account.id=eq:7&limit=2&token.id=gt:0.0.9"


def test_no_link_past_the_end_of_a_plain_number_range():
    sort = [("serialnumber", "5")]

    assert link("serialnumber=lt:6&limit=2", sort=sort) is None
    assert link("serialnumber=lt:7&limit=2", sort=sort) == f"{PATH}?serialnumber=lt:7&serialnumber=gt:5&limit=2"


def test_entity_id_bounds_do_not_count_for_the_empty_range_check():
    assert link("account.id=lte:5&limit=2", sort=[("account.id", "0.0.6"), ("token.id", "0.0.1")]) == (
        f"{PATH}?account.id=lte:5&account.id=gte:0.0.6&limit=2&token.id=gt:0.0.1"
    )


def test_a_value_that_is_no_range_bound_pins_its_parameter():
    assert link("token.id=ne:3&limit=2") == f"{PATH}?token.id=ne:3&limit=2&account.id=gt:0.0.7"


def test_link_values_are_url_encoded():
    assert link("note=a b&limit=2") == f"{PATH}?note=a%20b&limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
