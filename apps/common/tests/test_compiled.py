import pytest
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.test.utils import CaptureQueriesContext

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.compiled import CompiledQuery
from apps.common.filters import OperatorFilter
from apps.common.filtersets import ListFilterSet
from apps.common.query import parse_query_string

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, T + number * 1000, size=None if number == 2 else 10) for number in range(1, 5)))


def test_rows_are_the_querysets_rows_with_new_values(blocks):
    between = CompiledQuery(
        lambda low, high: RecordFile.objects.filter(index__gte=low, index__lte=high).order_by("index").values("index", "name")
    )

    assert [row["index"] for row in between.rows(2, 3)] == [2, 3]
    assert between.rows(4, 9) == [{"index": 4, "name": record_file(4, 0).name}]
    assert between.rows(7, 9) == []


def test_statement_is_compiled_once_per_shape(blocks):
    builds = []

    def build(*numbers, shape):
        builds.append(shape)
        queryset = RecordFile.objects.filter(index__in=numbers)
        return queryset.order_by("-index" if shape == "desc" else "index").values("index")

    numbers = CompiledQuery(build)

    assert [row["index"] for row in numbers.rows(1, 3, shape="asc")] == [1, 3]
    assert [row["index"] for row in numbers.rows(4, 2, shape="asc")] == [2, 4]
    assert [row["index"] for row in numbers.rows(4, 2, shape="desc")] == [4, 2]
    assert [row["index"] for row in numbers.rows(1, 2, 3, shape="desc")] == [3, 2, 1]
    assert builds == ["asc", "desc", "desc"]


def test_constants_of_the_queryset_stay(blocks):
    named = CompiledQuery(lambda number: RecordFile.objects.filter(index=number, count=3).values("index"))

    with CaptureQueriesContext(connection) as queries:
        assert named.rows(2) == [{"index": 2}]

    assert len(queries) == 1


def test_columns_are_converted_as_the_orm_converts_them(blocks):
    sizes = CompiledQuery(
        lambda number: RecordFile.objects.filter(index=number)
        .annotate(block_size=Coalesce("size", Value(-1)))
        .values("index", "block_size")
    )

    assert sizes.rows(2) == [{"index": 2, "block_size": -1}]
    assert sizes.rows(3) == [{"index": 3, "block_size": 10}]


def test_text_values_fill_their_parameter_or_their_like_pattern_escaped(blocks):
    by_name = CompiledQuery(lambda name: RecordFile.objects.filter(name=name).values("index"), text=(0,))
    by_prefix = CompiledQuery(
        lambda prefix, low: RecordFile.objects.filter(name__startswith=prefix, index__gte=low)
        .order_by("index")
        .values("index"),
        text=(0,),
    )
    name = record_file(3, T + 3000).name
    RecordFile.objects.filter(index=4).update(name="a%b_c")

    assert by_name.rows(name) == [{"index": 3}]
    assert by_prefix.rows(name[:6], 1) == [{"index": n} for n in (1, 2, 3)]
    assert by_prefix.rows(name[:6], 3) == [{"index": 3}]
    # LIKE's wildcards in a value match only themselves.
    assert by_prefix.rows("a%", 0) == [{"index": 4}]
    assert by_prefix.rows("%", 0) == []
    assert by_prefix.rows("a_b", 0) == []


def test_a_value_the_query_does_not_take_as_a_parameter_is_refused():
    ignored = CompiledQuery(lambda number: RecordFile.objects.values("index"))

    with pytest.raises(ValueError, match="one parameter"):
        ignored.rows(1)


class CompiledBlockFilterSet(ListFilterSet):
    number = OperatorFilter(field_name="index", parser=int)
    name = OperatorFilter(field_name="name", parser=str)

    ordering_fields = ("index",)
    compiled_page = True


def page(query: str, filterset_class=CompiledBlockFilterSet) -> list[int]:
    filterset = filterset_class(parse_query_string(query), RecordFile.objects.values("index"))
    return [row["index"] for row in filterset.page_rows()]


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ("", [1, 2, 3, 4]),
        ("number=gt:1&number=lt:4", [2, 3]),
        ("number=gt:2&limit=1", [3]),
        ("number=3&number=1&order=desc", [3, 1]),
        ("number=3&number=3", [3]),
        ("number=ne:2&order=desc&limit=2", [4, 3]),
    ],
)
def test_compiled_page_is_the_querysets_page(blocks, query, numbers):
    filterset = CompiledBlockFilterSet(parse_query_string(query), RecordFile.objects.values("index"))

    assert page(query) == numbers
    assert [row["index"] for row in filterset.qs[: filterset.limit_value]] == numbers


def test_page_with_a_value_that_is_not_an_integer_is_built_per_request(blocks):
    assert page(f"name={record_file(2, 0).name}") == [2]
    assert page(f"name={record_file(3, 0).name}") == [3]


def test_compiled_page_is_compiled_once_per_shape(blocks):
    statements = CompiledBlockFilterSet._compiled_pages()._statements
    statements.clear()

    page("number=gt:1&limit=3")
    page("number=gt:2&limit=3")
    page("number=lt:3&limit=3")

    assert len(statements) == 2
