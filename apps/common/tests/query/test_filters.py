import pytest

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import parse_positive_long
from apps.common.query.comparisons import RANGE_OPERATORS, Comparison
from apps.common.query.filters import OperatorFilter, parse_order
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pages import narrow


class RecordFileFilterSet(ListFilterSet):
    gas_used = OperatorFilter(param="gas.used", field_name="gas_used", parser=int)
    size = OperatorFilter(field_name="size", parser=parse_positive_long, operators=RANGE_OPERATORS)


def filtered(params: dict) -> list:
    return list(narrow(RecordFile.objects.all(), RecordFileFilterSet(params).criteria()))


@pytest.fixture
def gas_rows(db):
    create_record_files(record_file(1, 100, gas_used=None, size=10), record_file(2, 200, gas_used=5, size=20))


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


def test_operator_filter_reports_each_bad_value(gas_rows):
    with pytest.raises(InvalidArgument) as error:
        filtered({"size": ["ne:5", "1", "x"]})

    assert error.value.messages == ["Invalid parameter: size", "Invalid parameter: size"]


def test_operator_filter_rejects_object_value(gas_rows):
    with pytest.raises(InvalidArgument) as error:
        filtered({"gas.used": [None]})

    assert error.value.messages == ["Invalid parameter: gas.used"]


def test_value_with_a_nul_character_is_invalid_whatever_its_parser():
    # `str` accepts any text: only the field's own check stands between NUL and PostgreSQL.
    class TextFilterSet(ListFilterSet):
        memo = OperatorFilter(field_name="name", parser=str)

    with pytest.raises(InvalidArgument) as error:
        TextFilterSet({"memo": ["abc", "ab\x00c", "eq:\x00"]}).validate()

    assert error.value.messages == ["Invalid parameter: memo", "Invalid parameter: memo"]
