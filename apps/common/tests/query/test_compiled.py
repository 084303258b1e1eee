import pytest
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.test.utils import CaptureQueriesContext

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.query.compiled import CompiledQuery

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
