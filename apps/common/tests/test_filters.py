import pytest

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_positive_long
from apps.common.filters import (
    RANGE_OPERATORS,
    Comparison,
    OperatorFilter,
    apply_comparisons,
    parse_order,
    split_operator,
)
from apps.common.filtersets import ListFilterSet


class RecordFileFilterSet(ListFilterSet):
    gas_used = OperatorFilter(param="gas.used", field_name="gas_used", parser=int)
    size = OperatorFilter(field_name="size", parser=parse_positive_long, operators=RANGE_OPERATORS)

    ordering_fields = ("consensus_end",)


def filtered_gas(params: dict) -> list[int | None]:
    return [row.gas_used for row in RecordFileFilterSet(params, RecordFile.objects.all()).qs]


@pytest.fixture
def gas_rows(db):
    create_record_files(
        record_file(1, 100, gas_used=None, size=10),
        record_file(2, 200, gas_used=5, size=20),
        record_file(3, 300, gas_used=7, size=30),
        record_file(4, 400, gas_used=9, size=None),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", ("eq", "5")),
        ("eq:5", ("eq", "5")),
        ("gte:1.5", ("gte", "1.5")),
        ("ne:", ("ne", "")),
        (":5", ("", "5")),
        ("", ("eq", "")),
    ],
)
def test_split_operator(text, expected):
    assert split_operator(text) == expected


@pytest.mark.parametrize("text", ["gt:1:2", "::", "a:b:c:d"])
def test_split_operator_rejects_more_than_one_colon(text):
    with pytest.raises(ValueError):
        split_operator(text)


@pytest.mark.parametrize(("text", "expected"), [("asc", "asc"), ("DESC", "desc"), ("Asc", "asc")])
def test_parse_order(text, expected):
    assert parse_order(text) == expected


@pytest.mark.parametrize("text", ["", "ascending", "any", "asc "])
def test_parse_order_rejects(text):
    with pytest.raises(ValueError):
        parse_order(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", Comparison("eq", 5)),
        ("eq:5", Comparison("eq", 5)),
        ("lte:20", Comparison("lte", 20)),
    ],
)
def test_operator_filter_parses_operator_and_operand(text, expected):
    assert RecordFileFilterSet.base_filters["size"].parse_one(text) == expected


@pytest.mark.parametrize("text", ["ne:5", "in:5", "GT:5", "gt:x", "gt:5:6", "gt:-1"])
def test_operator_filter_rejects_unsupported_operator_or_bad_operand(text):
    with pytest.raises(ValueError):
        RecordFileFilterSet.base_filters["size"].parse_one(text)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("5", [5]),
        ("eq:5", [5]),
        ("ne:5", [7, 9]),
        ("lt:7", [5]),
        ("lte:7", [5, 7]),
        ("gt:7", [9]),
        ("gte:7", [7, 9]),
    ],
)
def test_operator_filter_applies_each_operator(gas_rows, value, expected):
    assert filtered_gas({"gas.used": [value]}) == expected


def test_operator_filter_ne_leaves_null_rows_out(gas_rows):
    assert filtered_gas({"gas.used": ["ne:100"]}) == [5, 7, 9]


def test_operator_filter_ors_equalities_of_one_parameter(gas_rows):
    assert filtered_gas({"gas.used": ["5", "eq:9", "5"]}) == [5, 9]


def test_operator_filter_ands_ranges_with_equalities(gas_rows):
    assert filtered_gas({"gas.used": ["5", "9", "gt:5"]}) == [9]


def test_operator_filter_ands_conditions_of_different_parameters(gas_rows):
    assert filtered_gas({"gas.used": ["gte:5"], "size": ["lt:30"]}) == [5]


def test_operator_filter_on_nullable_column_with_range_leaves_null_rows_out(gas_rows):
    assert [row.index for row in RecordFileFilterSet({"size": ["gte:1"]}, RecordFile.objects.all()).qs] == [1, 2, 3]


def test_operator_filter_reports_each_bad_value(gas_rows):
    with pytest.raises(InvalidArgument) as error:
        RecordFileFilterSet({"size": ["ne:5", "1", "x"]}, RecordFile.objects.all()).qs

    assert error.value.messages == ["Invalid parameter: size", "Invalid parameter: size"]


def test_operator_filter_rejects_object_value(gas_rows):
    with pytest.raises(InvalidArgument) as error:
        RecordFileFilterSet({"gas.used": [None]}, RecordFile.objects.all()).qs

    assert error.value.messages == ["Invalid parameter: gas.used"]


def test_value_with_a_nul_character_is_invalid_whatever_its_parser():
    # `str` accepts any text: only the field's own check stands between NUL and PostgreSQL.
    class TextFilterSet(ListFilterSet):
        memo = OperatorFilter(field_name="name", parser=str)

    with pytest.raises(InvalidArgument) as error:
        TextFilterSet({"memo": ["abc", "ab\x00c", "eq:\x00"]}, RecordFile.objects.all()).validate()

    assert error.value.messages == ["Invalid parameter: memo", "Invalid parameter: memo"]


@pytest.mark.parametrize(
    ("comparisons", "expected"),
    [
        ([Comparison("eq", 5), Comparison("eq", 9)], [5, 9]),
        ([Comparison("eq", 5), Comparison("eq", 9), Comparison("gt", 5)], [9]),
        ([Comparison("eq", None)], []),
        ([Comparison("eq", None), Comparison("eq", 7)], [7]),
        ([Comparison("gt", None)], []),
        ([Comparison("ne", 7), Comparison("gte", 5)], [5, 9]),
    ],
)
def test_apply_comparisons_treats_none_as_sql_null(gas_rows, comparisons, expected):
    rows = apply_comparisons(RecordFile.objects.order_by("index"), "gas_used", comparisons)
    assert [row.gas_used for row in rows] == expected
