import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.ledger.codecs import parse_positive_long
from apps.common.query.comparisons import (
    ALL_OPERATORS,
    RANGE_OPERATORS,
    Combined,
    Comparison,
    Where,
    combine,
    conflicting_equals,
    filter_by,
    split_operator,
)
from apps.common.query.filters import OperatorFilter
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pages import narrow


class RecordFileFilterSet(ListFilterSet):
    gas_used = OperatorFilter(param="gas.used", field_name="gas_used", parser=int)
    size = OperatorFilter(field_name="size", parser=parse_positive_long, operators=RANGE_OPERATORS)

    ordering_fields = ("consensus_end",)


def filtered(params: dict) -> list:
    return list(narrow(RecordFile.objects.all(), RecordFileFilterSet(params).criteria()))


def filtered_gas(params: dict) -> list[int | None]:
    return [row.gas_used for row in filtered(params)]


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
    assert [row.index for row in filtered({"size": ["gte:1"]})] == [1, 2, 3]


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
def test_filter_by_treats_none_as_sql_null(gas_rows, comparisons, expected):
    rows = filter_by(RecordFile.objects.order_by("index"), "gas_used", comparisons)
    assert [row.gas_used for row in rows] == expected


def where_gas(comparisons, *, merge_equals: bool = True) -> list[int | None]:
    where = Where()
    where.compare("gas_used", comparisons, merge_equals=merge_equals)
    with connection.cursor() as cursor:
        cursor.execute(f"select gas_used from record_file where {where.sql} order by index", where.params)
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.parametrize(
    ("comparisons", "expected"),
    [
        ([Comparison("eq", 5), Comparison("eq", 9)], [5, 9]),
        ([Comparison("eq", 5), Comparison("eq", 5)], [5]),
        ([Comparison("eq", 5), Comparison("eq", 9), Comparison("gt", 5)], [9]),
        ([Comparison("eq", None)], []),
        ([Comparison("eq", None), Comparison("eq", 7)], [7]),
        ([Comparison("gt", None)], []),
        ([Comparison("ne", 7)], [5, 9]),
        ([], [None, 5, 7, 9]),
    ],
)
def test_where_writes_the_same_condition_as_filter_by(gas_rows, comparisons, expected):
    assert where_gas(comparisons) == expected


def test_where_ands_equalities_when_they_do_not_merge(gas_rows):
    assert where_gas([Comparison("eq", 5), Comparison("eq", 9)], merge_equals=False) == []
    assert where_gas([Comparison("eq", 5), Comparison("eq", 5)], merge_equals=False) == [5]


def test_where_binds_every_value_as_a_parameter():
    where = Where()
    where.compare("x", [Comparison("gt", 1), Comparison("eq", 2), Comparison("eq", 3)])

    assert (where.sql, where.params) == ("x > %s and x = any(%s)", [1, [2, 3]])


def test_combine_orders_equalities_as_given_and_drops_repeats():
    combined = combine([Comparison("eq", 9), Comparison("lt", 20), Comparison("eq", 5), Comparison("eq", 9)])

    assert combined == Combined(equals=(9, 5), others=(Comparison("lt", 20),))


def test_conflicting_equals():
    assert conflicting_equals([Comparison("eq", 1), Comparison("eq", 2)])
    assert not conflicting_equals([Comparison("eq", 1), Comparison("eq", 1), Comparison("gt", 0)])


# Property: for any set of comparisons, the ORM condition and the SQL condition select exactly
# the rows a brute-force reading of the grammar selects (`matches` below, written from the
# module's rules rather than from its code).

GAS_VALUES = [None, *range(0, 8)]
comparison_values = st.one_of(st.none(), st.integers(min_value=-1, max_value=8))
comparison_sets = st.lists(
    st.builds(Comparison, st.sampled_from(sorted(ALL_OPERATORS)), comparison_values), max_size=5
)


def matches(value, comparisons, merge_equals: bool) -> bool:
    """Whether a column value meets the comparisons, read as SQL would: NULL meets nothing."""

    def meets(comparison) -> bool:
        if value is None or comparison.value is None:
            return False
        return {
            "eq": value == comparison.value,
            "ne": value != comparison.value,
            "lt": value < comparison.value,
            "lte": value <= comparison.value,
            "gt": value > comparison.value,
            "gte": value >= comparison.value,
        }[comparison.operator]

    equals = [c for c in comparisons if c.operator == "eq"] if merge_equals else []
    others = [c for c in comparisons if c not in equals]
    if any(c.operator != "eq" and c.value is None for c in comparisons):
        return False
    return all(meets(c) for c in others) and (not equals or any(meets(c) for c in equals))


@pytest.fixture(scope="module")
def every_gas_value(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        RecordFile.objects.all().delete()
        create_record_files(*(record_file(index, index * 100, gas_used=gas) for index, gas in enumerate(GAS_VALUES, 1)))
        yield
        RecordFile.objects.all().delete()


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(comparisons=comparison_sets, merge_equals=st.booleans())
def test_filter_by_and_where_select_what_the_grammar_says(every_gas_value, comparisons, merge_equals):
    expected = sorted((g for g in GAS_VALUES if matches(g, comparisons, merge_equals)), key=lambda g: (g is None, g))

    by_orm = [
        row.gas_used
        for row in filter_by(RecordFile.objects.order_by("index"), "gas_used", comparisons, merge_equals=merge_equals)
    ]
    by_sql = where_gas(comparisons, merge_equals=merge_equals)

    assert sorted(by_orm, key=lambda g: (g is None, g)) == expected
    assert sorted(by_sql, key=lambda g: (g is None, g)) == expected
