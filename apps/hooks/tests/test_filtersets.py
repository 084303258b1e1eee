import pytest

from apps.common.errors import DetailedError
from apps.common.query.comparisons import Comparison
from apps.hooks.filtersets import (
    HOOKS,
    MAX_KEY,
    STORAGE,
    HookFilterSet,
    HookIdRange,
    HookStorageFilterSet,
    StorageRange,
    parse_hook_id,
    parse_slot,
    parse_spring_int,
    parse_spring_long,
    parse_timestamp,
)

MAX_LONG = (1 << 63) - 1


def hooks_criteria(query: str, scope=(1001,)):
    return HookFilterSet(HookFilterSet.read_query(query)).criteria(scope=scope)


def storage_criteria(query: str, scope=(1001, 7)):
    return HookStorageFilterSet(HookStorageFilterSet.read_query(query)).criteria(scope=scope)


def refusal(build, query: str) -> list[str]:
    with pytest.raises(DetailedError) as error:
        build(query)
    assert error.value.status_code == 400
    return [message["detail"] for message in error.value.messages]


@pytest.mark.parametrize(
    "text, expected",
    [("5", ("eq", 5)), ("eq:5", ("eq", 5)), ("GTE:5", ("gte", 5)), ("lt:+5", ("lt", 5)), ("ne:0", ("ne", 0)),
     ("5:", ("eq", 5)), ("gt:5:", ("gt", 5)), ("-0", ("eq", 0)), ("007", ("eq", 7))],
)
def test_hook_ids_are_read_as_java_reads_them(text, expected):
    assert parse_hook_id(text) == Comparison(*expected)


@pytest.mark.parametrize(
    "text", ["x", "-1", "gt:-1", ":5", ":", "gte::5", "gt=5", "unknown:5", "5.0", "9223372036854775808"]
)
def test_bad_hook_ids(text):
    with pytest.raises(ValueError):
        parse_hook_id(text)


@pytest.mark.parametrize(
    "text, expected",
    [("1", ("eq", 1)), ("0x1", ("eq", 1)), ("eq:F", ("eq", 15)), ("gte:10", ("gte", 16)), ("gt:10", ("gte", 17)),
     ("lt:10", ("lte", 15)), ("lte:0x10", ("lte", 16)), ("gt:" + "f" * 64, ("gte", 0)), ("lt:0", ("lte", MAX_KEY)),
     ("0x" + "ab" * 32, ("eq", int("ab" * 32, 16)))],
)
def test_slots_are_inclusive_comparisons_of_32_byte_values(text, expected):
    assert parse_slot(text) == Comparison(*expected)


@pytest.mark.parametrize("text", ["", "x", "0x", "0X1", "EQ:1", "ne:1", "gt=1", "gte::1", "1" * 65, " 1", "1\n"])
def test_bad_slots(text):
    with pytest.raises(ValueError):
        parse_slot(text)


@pytest.mark.parametrize(
    "text, expected",
    [("1", ("eq", 10**9)), ("1.5", ("eq", 10**9 + 5)), ("GT:1.000000001", ("gt", 10**9 + 1)),
     ("lte:0", ("lte", 0)), ("9223372036.854775807", ("eq", MAX_LONG))],
)
def test_timestamps_are_seconds_and_the_nanoseconds_as_written(text, expected):
    assert parse_timestamp(text) == Comparison(*expected)


@pytest.mark.parametrize("text", ["ne:1", "x", "-1", "1.", "1.1234567890", "1" * 18, "9223372036.854775808", "١"])
def test_bad_timestamps(text):
    with pytest.raises(ValueError):
        parse_timestamp(text)


@pytest.mark.parametrize(
    "text, expected",
    [("25", 25), (" 2 5 ", 25), ("+7", 7), ("-7", -7), ("0x1f", 31), ("0X1F", 31), ("#10", 16), ("-0x10", -16)],
)
def test_numbers_as_spring_converts_them(text, expected):
    assert parse_spring_long(text) == expected


@pytest.mark.parametrize("text", ["", " ", "x", "0x", "0x+1", "0x1_0", "1_0", "1.5", "2147483648"])
def test_bad_ints(text):
    with pytest.raises(ValueError):
        parse_spring_int(text)


def test_a_list_parameter_given_once_is_a_comma_separated_list():
    query = HOOKS.read("hook.id=1,%202%20,&limit=5,6&hook.id.x=1,2")

    assert query == {"hook.id": ["1", "2", ""], "limit": ["5,6"], "hook.id.x": ["1,2"]}
    assert query.pairs == (("hook.id", "1, 2 ,"), ("limit", "5,6"), ("hook.id.x", "1,2"))


def test_a_list_parameter_given_more_than_once_is_one_item_a_value():
    assert STORAGE.read("key=1,2&key=%203&timestamp=") == {"key": ["1,2", " 3"]}


def test_hook_id_criteria():
    assert hooks_criteria("").extra["hook_ids"] == HookIdRange((), 0, MAX_LONG)
    assert hooks_criteria("hook.id=3&hook.id=1&hook.id=3&hook.id=gt:0&hook.id=gte:2&hook.id=lt:9&hook.id=ne:4").extra[
        "hook_ids"
    ] == HookIdRange((1, 3), 2, 8)
    assert hooks_criteria("hook.id=gt:9223372036854775807").extra["hook_ids"] == HookIdRange((), 0, MAX_LONG)
    assert HookIdRange((1, 3, 5), 2, 4).ids_in_range() == (3,)


def test_hook_criteria_page_by_hook_id_newest_first():
    criteria = hooks_criteria("limit=3")

    assert (criteria.order, criteria.limit, criteria.order_by) == ("desc", 3, ("hook_id",))
    assert criteria.paged_params == ("hook.id",)
    assert hooks_criteria("").limit == 25


def test_storage_criteria():
    assert storage_criteria("").extra["storage"] == StorageRange()
    ranged = storage_criteria("key=3&key=1&key=gte:2&key=gt:0&key=lte:9&key=lt:9&timestamp=gt:1&timestamp=lte:2")
    assert ranged.extra["storage"] == StorageRange((3, 1), 2, 8, (10**9 + 1, 2 * 10**9))
    assert StorageRange((3, 1), 2, 8).keys_in_range() == (3,)
    assert storage_criteria("timestamp=2").extra["storage"].timestamps == (0, 2 * 10**9)
    assert storage_criteria("timestamp=gte:2&timestamp=gt:1").extra["storage"].timestamps == (10**9 + 1, MAX_LONG)
    assert storage_criteria("timestamp=").extra["storage"].timestamps is None
    criteria = storage_criteria("")
    assert (criteria.order, criteria.order_by, criteria.paged_params) == ("asc", ("key",), ("key",))


@pytest.mark.parametrize(
    "query, expected",
    [
        ("hook.id=x&limit=x&order=x", ["Failed to convert 'hook.id'"]),
        ("limit=x&order=x", ["Failed to convert 'limit'"]),
        ("order=x", ["Failed to convert 'order'"]),
        ("limit=0", ["limit must be greater than 0"]),
        ("limit=101", ["limit must be less than or equal to 100"]),
        ("&".join(["hook.id=1"] * 101) + "&limit=101", [
            "hookId size must be between 0 and 100", "limit must be less than or equal to 100",
        ]),
    ],
)
def test_hook_refusals(query, expected):
    assert refusal(hooks_criteria, query) == expected


@pytest.mark.parametrize(
    "query, scope, expected",
    [
        ("timestamp=x&key=x", (1001, 7), ["Failed to convert 'key'"]),
        ("timestamp=x", (1001, -1), ["Failed to convert 'timestamp'"]),
        ("", (1001, -1), ["hookId must be greater than or equal to 0"]),
        ("key=1&" * 101 + "timestamp=1,2,3&limit=0", (1001, -1), [
            "hookId must be greater than or equal to 0",
            "keys size must be between 0 and 100",
            "timestamps size must be between 0 and 2",
            "limit must be greater than 0",
        ]),
    ],
)
def test_storage_refusals(query, scope, expected):
    assert refusal(lambda text: storage_criteria(text, scope), query) == expected


def test_every_refusal_is_a_bad_request():
    with pytest.raises(DetailedError) as error:
        hooks_criteria("limit=0&" + "&".join(["hook.id=1"] * 101))

    assert error.value.messages == [
        {"message": "Bad Request", "detail": "hookId size must be between 0 and 100"},
        {"message": "Bad Request", "detail": "limit must be greater than 0"},
    ]
