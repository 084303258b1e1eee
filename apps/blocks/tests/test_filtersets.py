from types import SimpleNamespace

import pytest

from apps.blocks.filtersets import BlockFilterSet, parse_block_number
from apps.blocks.selectors import block_list
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.errors import InvalidArgument

T = 1_676_540_001_000_000_000


def numbers(params: dict) -> list[int]:
    return [row["index"] for row in block_list(BlockFilterSet(params).criteria())]


def messages_of(params: dict) -> list[str]:
    with pytest.raises(InvalidArgument) as error:
        BlockFilterSet(params).validate()
    return error.value.messages


@pytest.fixture
def blocks(db):
    create_record_files(*(record_file(number, T + number * 1000) for number in range(10, 14)))


@pytest.fixture
def scrambled_blocks(db):
    """Block numbers and consensus ends in different orders; the lowest row is lowest in both."""
    create_record_files(
        record_file(1, T + 100),
        record_file(2, T + 400),
        record_file(3, T + 300),
        record_file(4, T + 200),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("17", 17),
        ("9223372036854775807", 9223372036854775807),
        ("0x11", 17),
        ("0xFF", 255),
        ("0x0", 0),
        ("0x7fffffffffffffff", 9223372036854775807),
        ("0x11zz", 17),
    ],
)
def test_parse_block_number(text, expected):
    assert parse_block_number(text) == expected


@pytest.mark.parametrize(
    "text", ["", "-1", "1.5", "abc", "0x", "0xg", "9223372036854775808", "0x8000000000000000", "0X11", " 1"]
)
def test_parse_block_number_rejects(text):
    with pytest.raises(ValueError):
        parse_block_number(text)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["11"], [11]),
        (["eq:11"], [11]),
        (["0xb"], [11]),
        (["lt:12"], [11, 10]),
        (["lte:12"], [12, 11, 10]),
        (["gt:11"], [13, 12]),
        (["gte:11"], [13, 12, 11]),
        (["gt:0xa", "lt:0xd"], [12, 11]),
        (["gt:10", "gte:12"], [13, 12]),
        (["lt:13", "lte:11"], [11, 10]),
        (["gte:11", "lte:11"], [11]),
        (["99"], []),
    ],
)
def test_block_number_filter(blocks, values, expected):
    assert numbers({"block.number": values}) == expected


def test_block_number_equalities_are_anded(blocks):
    assert numbers({"block.number": ["11", "12"]}) == []
    assert numbers({"block.number": ["11", "eq:11"]}) == [11]


def test_block_number_rejects_ne(blocks):
    assert messages_of({"block.number": ["ne:11"]}) == ["Invalid parameter: block.number"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["1676540001.000011"], [11]),
        (["eq:1676540001.000011000"], [11]),
        (["ne:1676540001.000011"], [13, 12, 10]),
        (["lt:1676540001.000012"], [11, 10]),
        (["lte:1676540001.000012"], [12, 11, 10]),
        (["gt:1676540001.000011"], [13, 12]),
        (["gte:1676540001.000011"], [13, 12, 11]),
        (["gt:1676540001.0000105", "lt:1676540001.0000125"], [12, 11]),
        (["ne:1676540001.000011", "ne:1676540001.000012"], [13, 10]),
        (["1676540001.0000115"], []),
    ],
)
def test_timestamp_filter(blocks, values, expected):
    assert numbers({"timestamp": values}) == expected


def test_timestamp_equalities_are_anded(blocks):
    assert numbers({"timestamp": ["1676540001.000011", "1676540001.000012"]}) == []


def test_block_number_and_timestamp_are_anded(blocks):
    params = {"block.number": ["gt:10"], "timestamp": ["lt:1676540001.000013"]}

    assert numbers(params) == [12, 11]


def test_order_defaults_to_desc(blocks):
    assert numbers({}) == [13, 12, 11, 10]


@pytest.mark.parametrize("order", ["asc", "ASC", "Asc"])
def test_order_is_case_insensitive(blocks, order):
    assert numbers({"order": [order]}) == [10, 11, 12, 13]


def test_last_order_wins(blocks):
    assert numbers({"order": ["asc", "desc"]}) == [13, 12, 11, 10]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, [2, 3, 4, 1]),
        ({"order": ["desc"], "limit": ["5"]}, [2, 3, 4, 1]),
        ({"block.number": ["gte:1"]}, [4, 3, 2, 1]),
        ({"timestamp": ["gte:1676540001.0000001"]}, [2, 3, 4, 1]),
        ({"timestamp": ["gte:1676540001.0000001"], "block.number": ["gte:1"]}, [2, 3, 4, 1]),
        ({"block.number": ["gte:1"], "timestamp": ["gte:1676540001.0000001"]}, [4, 3, 2, 1]),
        ({"limit": ["5"], "block.number": ["gte:1"], "timestamp": ["ne:1"]}, [4, 3, 2, 1]),
        ({"timestamp": ["ne:1"], "block.number": ["gte:1"]}, [2, 3, 4, 1]),
    ],
)
def test_ordering_column_follows_the_first_filter(scrambled_blocks, params, expected):
    assert numbers(params) == expected


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"block.number": ["gte:1"], "order": ["asc"]}, [1, 2, 3, 4]),
        ({"order": ["asc"]}, [1, 4, 3, 2]),
    ],
)
def test_ordering_column_ascending(scrambled_blocks, params, expected):
    assert numbers(params) == expected


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, ("consensus_end",)),
        ({"limit": ["1"], "order": ["asc"]}, ("consensus_end",)),
        ({"block.number": ["1"]}, ("index",)),
        ({"timestamp": ["1"]}, ("consensus_end",)),
        ({"limit": ["1"], "block.number": ["1"], "timestamp": ["1"]}, ("index",)),
        ({"timestamp": ["1"], "block.number": ["1"]}, ("consensus_end",)),
    ],
)
def test_order_by_fields(params, expected):
    assert BlockFilterSet(params).order_by_fields() == expected


@pytest.mark.parametrize(("params", "expected"), [({}, 25), ({"limit": ["2", "3"]}, 3), ({"limit": ["101"]}, 100)])
def test_limit_value(params, expected):
    filterset = BlockFilterSet(params)
    filterset.validate()

    assert filterset.limit_value == expected


@pytest.mark.parametrize(("limit", "expected"), [("110", 110), ("150", 120), ("5", 5)])
def test_limit_value_for_authenticated_user(limit, expected):
    request = SimpleNamespace(mirror_limit_max=120)
    filterset = BlockFilterSet({"limit": [limit]}, request=request)
    filterset.validate()

    assert filterset.limit_value == expected


def test_unknown_parameter(blocks):
    assert messages_of({"index": ["2"]}) == ["Unknown query parameter: index"]


def test_invalid_parameters_once_per_bad_value_in_query_order(blocks):
    params = {
        "timestamp": ["x", "1", "gt:y"],
        "block.number": ["gt:invalidnumber"],
        "order": ["any"],
        "limit": ["0"],
        "index": ["2"],
    }

    assert messages_of(params) == [
        "Invalid parameter: timestamp",
        "Invalid parameter: timestamp",
        "Invalid parameter: block.number",
        "Invalid parameter: order",
        "Invalid parameter: limit",
        "Unknown query parameter: index",
    ]


def test_messages_come_as_invalid_values_then_unknown_names():
    assert messages_of({"foo": ["1"], "limit": ["0"]}) == ["Invalid parameter: limit", "Unknown query parameter: foo"]
