import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.common.filters import OperatorFilter
from apps.common.keyset import KeyFilter, KeysetFilterSet
from apps.common.query import parse_query_string
from apps.common.scoped_pages import ScopedPageFilterSet
from apps.topics.models import TopicMessage
from apps.topics.tests.factories import create_message

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000


def messages_of(topic_id: int):
    return TopicMessage.objects.filter(topic_id=topic_id).values("topic_id", "sequence_number")


class MessageFilterSet(ScopedPageFilterSet):
    sequencenumber = OperatorFilter(field_name="sequence_number", parser=int)
    memo = OperatorFilter(field_name="message", parser=str.encode)

    ordering_fields = ("sequence_number",)


class MessageKeysetFilterSet(ScopedPageFilterSet, KeysetFilterSet):
    sequencenumber = KeyFilter(field_name="sequence_number", parser=int)

    keyset_params = ("sequencenumber",)


@pytest.fixture
def messages():
    for topic_id in (7, 8):
        for number in range(1, 5):
            create_message(topic_id, number, T + topic_id * 100 + number)


def page(query: str, topic_id: int, filterset_class=MessageFilterSet) -> list[tuple[int, int]]:
    filterset = filterset_class(parse_query_string(query), scope=(topic_id,), scoped=messages_of)
    return [(row["topic_id"], row["sequence_number"]) for row in filterset.page_rows()]


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
def test_page_is_the_scoped_querysets_page(messages, query, topic_id, expected):
    filterset = MessageFilterSet(parse_query_string(query), messages_of(topic_id))

    assert page(query, topic_id) == expected
    assert [(row["topic_id"], row["sequence_number"]) for row in filterset.qs[: filterset.limit_value]] == expected


def test_one_statement_per_shape_serves_every_scope(messages):
    statements = MessageFilterSet._compiled_pages()._statements
    statements.clear()

    with CaptureQueriesContext(connection) as queries:
        page("sequencenumber=gt:2", 7)
        page("sequencenumber=gt:2", 8)
        page("sequencenumber=gt:3", 8)

    assert len(statements) == 1
    assert len({query["sql"] for query in queries}) == 3  # the same statement, new values each time


def test_a_value_that_is_not_an_integer_is_built_per_request(messages):
    assert page("memo=message 2", 8) == [(8, 2)]
    assert page("memo=message 3", 7) == [(7, 3)]


def test_a_bounded_keyset_column_is_built_per_request(messages):
    statements = MessageKeysetFilterSet._compiled_pages()._statements
    statements.clear()

    assert page("sequencenumber=gte:3", 7, MessageKeysetFilterSet) == [(7, 3), (7, 4)]
    assert page("sequencenumber=lt:2", 8, MessageKeysetFilterSet) == [(8, 1)]
    assert page("limit=1", 8, MessageKeysetFilterSet) == [(8, 1)]
    assert len(statements) == 1


def first_message_of(topic_id: int):
    # Stands in for a parent row: present for topics 7 and 8 only.
    return TopicMessage.objects.filter(topic_id=topic_id, sequence_number=1)


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
    filterset = MessageFilterSet(
        parse_query_string(query), scope=(topic_id,), scoped=messages_of, parent=first_message_of
    )

    with CaptureQueriesContext(connection) as queries:
        rows = filterset.page_rows()

    assert [(row["topic_id"], row["sequence_number"]) for row in rows] == expected
    assert filterset.parent_exists is parent_exists
    assert len(queries) == 1
