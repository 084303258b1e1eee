import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import OperatorFilter
from apps.common.query.filtersets import KeyFilter, KeysetFilterSet, ListFilterSet
from apps.common.query.pages import CompiledPages, PageCriteria, narrow, page_of
from apps.common.query.params import parse_query_string
from apps.topics.models import TopicMessage
from apps.topics.tests.factories import create_message

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000


class BlockFilterSet(ListFilterSet):
    number = OperatorFilter(field_name="index", parser=int)
    name = OperatorFilter(field_name="name", parser=str)

    ordering_fields = ("index",)


BLOCK_PAGES = CompiledPages(lambda criteria: narrow(RecordFile.objects.values("index"), criteria))


def block_page(query: str) -> list[int]:
    return [row["index"] for row in BLOCK_PAGES.rows(BlockFilterSet(parse_query_string(query)).criteria())]


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, T + number) for number in range(1, 5)))


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
def test_a_compiled_page_is_the_querysets_page(blocks, query, numbers):
    criteria = BlockFilterSet(parse_query_string(query)).criteria()

    assert block_page(query) == numbers
    assert [row["index"] for row in page_of(narrow(RecordFile.objects.values("index"), criteria), criteria)] == numbers


def test_a_page_with_a_value_that_is_not_an_integer_is_built_per_request(blocks):
    assert block_page(f"name={record_file(2, 0).name}") == [2]
    assert block_page(f"name={record_file(3, 0).name}") == [3]


def test_a_page_is_compiled_once_per_shape(blocks):
    statements = BLOCK_PAGES._compiled._statements
    statements.clear()

    block_page("number=gt:1&limit=3")
    block_page("number=gt:2&limit=3")
    block_page("number=lt:3&limit=3")

    assert len(statements) == 2


# A list under a path id: the id is the criteria's scope, a parameter of the compiled statement.


class MessageFilterSet(ListFilterSet):
    sequencenumber = OperatorFilter(field_name="sequence_number", parser=int)
    memo = OperatorFilter(field_name="message", parser=str.encode)

    ordering_fields = ("sequence_number",)


class MessageKeysetFilterSet(KeysetFilterSet):
    sequencenumber = KeyFilter(field_name="sequence_number", parser=int)

    keyset_params = ("sequencenumber",)
    anchor_codecs = ((str, int),)


def messages_of(criteria):
    return narrow(TopicMessage.objects.filter(topic_id=criteria.scope[0]).values("topic_id", "sequence_number"), criteria)


def first_message_of(criteria):
    # Stands in for a parent row: present for topics 7 and 8 only.
    return TopicMessage.objects.filter(topic_id=criteria.scope[0], sequence_number=1)


MESSAGE_PAGES = CompiledPages(messages_of)
MESSAGE_KEYSET_PAGES = CompiledPages(messages_of)
MESSAGE_PAGES_WITH_PARENT = CompiledPages(messages_of, parent=first_message_of)


@pytest.fixture
def messages():
    for topic_id in (7, 8):
        for number in range(1, 5):
            create_message(topic_id, number, T + topic_id * 100 + number)


def message_page(query: str, topic_id: int, filterset_class=MessageFilterSet, pages=MESSAGE_PAGES) -> list[tuple[int, int]]:
    criteria = filterset_class(parse_query_string(query)).criteria(scope=(topic_id,))
    return [(row["topic_id"], row["sequence_number"]) for row in pages.rows(criteria)]


@pytest.mark.parametrize(
    ("query", "topic_id", "expected"),
    [
        ("", 7, [(7, 1), (7, 2), (7, 3), (7, 4)]),
        ("", 8, [(8, 1), (8, 2), (8, 3), (8, 4)]),
        ("sequencenumber=gt:1&sequencenumber=lt:4", 8, [(8, 2), (8, 3)]),
        ("sequencenumber=gt:1&sequencenumber=lt:4", 7, [(7, 2), (7, 3)]),
        ("order=desc&limit=2", 7, [(7, 4), (7, 3)]),
        ("", 9, []),
    ],
)
def test_a_scoped_page_is_the_scoped_querysets_page(messages, query, topic_id, expected):
    criteria = MessageFilterSet(parse_query_string(query)).criteria(scope=(topic_id,))

    assert message_page(query, topic_id) == expected
    assert [(row["topic_id"], row["sequence_number"]) for row in page_of(messages_of(criteria), criteria)] == expected


def test_one_statement_per_shape_serves_every_scope(messages):
    statements = MESSAGE_PAGES._compiled._statements
    statements.clear()

    with CaptureQueriesContext(connection) as queries:
        message_page("sequencenumber=gt:2", 7)
        message_page("sequencenumber=gt:2", 8)
        message_page("sequencenumber=gt:3", 8)

    assert len(statements) == 1
    assert len({query["sql"] for query in queries}) == 3  # the same statement, new values each time


def test_a_scoped_value_that_is_not_an_integer_is_built_per_request(messages):
    assert message_page("memo=message 2", 8) == [(8, 2)]
    assert message_page("memo=message 3", 7) == [(7, 3)]


def test_a_bounded_keyset_column_is_built_per_request(messages):
    statements = MESSAGE_KEYSET_PAGES._compiled._statements
    statements.clear()

    def keyset_page(query, topic_id):
        return message_page(query, topic_id, MessageKeysetFilterSet, MESSAGE_KEYSET_PAGES)

    assert keyset_page("sequencenumber=gte:3", 7) == [(7, 3), (7, 4)]
    assert keyset_page("sequencenumber=lt:2", 8) == [(8, 1)]
    assert keyset_page("limit=1", 8) == [(8, 1)]
    assert len(statements) == 1


@pytest.mark.parametrize(
    ("query", "topic_id", "expected", "parent_exists"),
    [
        ("order=desc&limit=2", 7, [(7, 4), (7, 3)], True),
        ("sequencenumber=gt:9", 8, [], True),
        ("", 9, [], False),
        ("memo=message 2", 8, [(8, 2)], None),  # built per request: the parent is not read
    ],
)
def test_a_compiled_page_tells_whether_its_parent_exists(messages, query, topic_id, expected, parent_exists):
    criteria = MessageFilterSet(parse_query_string(query)).criteria(scope=(topic_id,))

    with CaptureQueriesContext(connection) as queries:
        rows, exists = MESSAGE_PAGES_WITH_PARENT.rows_and_parent(criteria)

    assert [(row["topic_id"], row["sequence_number"]) for row in rows] == expected
    assert exists is parent_exists
    assert len(queries) == 1


def test_replaced_criteria_are_a_copy_with_the_changes():
    criteria = PageCriteria(
        query={}, comparisons={"timestamp": (Comparison("gt", 1),)}, columns={}, options={},
        order="asc", order_by=("id",), limit=2,
    )

    changed = criteria.replaced(limit=5, scope=(7,))

    assert (changed.limit, changed.scope, changed["timestamp"]) == (5, (7,), (Comparison("gt", 1),))
    assert (criteria.limit, criteria.scope) == (2, ())
    assert changed == PageCriteria(**{**criteria.__dict__, "limit": 5, "scope": (7,)})
    with pytest.raises(TypeError, match="no field lmit"):
        criteria.replaced(lmit=5)
