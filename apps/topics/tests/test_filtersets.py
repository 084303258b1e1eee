import pytest

from apps.common.errors import InvalidArgument
from apps.common.query.params import parse_query_string
from apps.topics.filtersets import (
    BASE64,
    UTF8,
    TopicMessageFilterSet,
    parse_encoding,
    requested_encoding,
)
from apps.topics.selectors import topic_message_list, topic_message_page
from apps.topics.tests.factories import create_message

pytestmark = pytest.mark.django_db

TOPIC = 7


def filterset(query: str) -> TopicMessageFilterSet:
    return TopicMessageFilterSet(parse_query_string(query))


def sequence_numbers(query: str) -> list[int]:
    return [message["sequence_number"] for message in topic_message_list(filterset(query).criteria(scope=(TOPIC,)))]


@pytest.fixture
def messages():
    # Timestamps far apart so that a bound restated on the wrong side would show.
    for number in range(1, 6):
        create_message(TOPIC, number, number * 1000)
    create_message(8, 1, 2500)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("sequencenumber=gt:2", [3, 4, 5]),
        ("sequencenumber=gte:2", [2, 3, 4, 5]),
        ("sequencenumber=lt:4", [1, 2, 3]),
        ("sequencenumber=lte:4", [1, 2, 3, 4]),
        ("sequencenumber=3", [3]),
        ("sequencenumber=ne:3", [1, 2, 4, 5]),
        ("sequencenumber=gt:2&sequencenumber=lt:5", [3, 4]),
        ("sequencenumber=gt:5", []),
        ("sequencenumber=9", []),
        ("sequencenumber=gt:2&timestamp=lt:0.000004500", [3, 4]),
        ("sequencenumber=lt:4&order=desc", [3, 2, 1]),
    ],
)
def test_sequence_number_bounds(messages, query, expected):
    assert sequence_numbers(query) == expected


def test_sequence_number_bound_becomes_a_timestamp_bound_on_the_topic():
    sql = str(topic_message_page(filterset("sequencenumber=gt:2").criteria(scope=(TOPIC,))).query)

    assert '"consensus_timestamp" >= (SELECT' in sql
    assert sql.count('"topic_id" = 7') == 2


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", BASE64), ("encoding=utf-8", UTF8), ("encoding=base64&encoding=UTF8", UTF8)],
)
def test_encoding_value(query, expected):
    messages_filter = filterset(query)
    messages_filter.validate()

    assert requested_encoding(messages_filter.params) == expected


@pytest.mark.parametrize(("text", "expected"), [("eq:UTF-8", BASE64), ("gt:utf-8", BASE64), ("ne:base64", BASE64)])
def test_an_encoding_after_an_operator_is_valid_and_leaves_the_messages_in_base64(text, expected):
    assert parse_encoding(text) == expected


@pytest.mark.parametrize("text", ["utf-16", "hex", "zz:utf-8", "eq:hex", ""])
def test_parse_encoding_rejects_other_encodings(text):
    with pytest.raises(ValueError):
        parse_encoding(text)


def test_bad_values_are_reported_together():
    with pytest.raises(InvalidArgument) as raised:
        filterset("sequencenumber=a&timestamp=b&encoding=c&topic.id=7").validate()

    assert raised.value.messages == [
        "Invalid parameter: sequencenumber",
        "Invalid parameter: timestamp",
        "Invalid parameter: encoding",
        "Unknown query parameter: topic.id",
    ]
