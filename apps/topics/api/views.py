from django.http import HttpResponse
from drf_spectacular.utils import extend_schema

from apps.common.api.views import MirrorViewSet
from apps.common.errors import DetailedError, InvalidArgument, NotFound
from apps.common.ledger.codecs import (
    OutOfRangeEntityId,
    parse_positive_long,
    parse_query_entity_id,
    parse_timestamp,
)
from apps.common.query.strict import conversion_error, parse_java_entity_id
from apps.topics import selectors
from apps.topics.api.serializers import TopicMessageSerializer, TopicSerializer
from apps.topics.filtersets import TopicMessageFilterSet, requested_encoding

CACHE_CONTROL_MESSAGE = "public, max-age=600"
CACHE_CONTROL_TOPIC = "public, max-age=5"


def parse_topic_id(text: str) -> int | OutOfRangeEntityId:
    """A topic id as the upstream reads the path's: its shape, then what it names."""
    return parse_query_entity_id(text, allow_evm_address=False)


@extend_schema(
    summary="List a topic's messages",
    description="The messages submitted to the topic, each with its sequence number, payer, running hash, "
    "chunk information and content (base64, or text with `encoding=utf-8`), in order of consensus timestamp. "
    "A topic with no messages, or that does not exist, answers an empty list.",
)
class TopicMessageViewSet(MirrorViewSet):
    filterset_class = TopicMessageFilterSet
    serializer_class = TopicMessageSerializer
    results_key = "messages"
    selector = selectors.topic_message_list
    detail_actions = ("retrieve", "retrieve_by_timestamp")
    cache_control = {
        "retrieve": CACHE_CONTROL_MESSAGE,
        "retrieve_by_timestamp": CACHE_CONTROL_MESSAGE,
    }

    def scope(self) -> tuple[int]:
        return tuple(parse_path_segments(topic_id=self.kwargs["topic_id"]))

    def get_serializer_context(self):
        # A list's query passed validation; a message's route takes no parameter (base64).
        return {**super().get_serializer_context(), "encoding": requested_encoding(self.query_params())}

    @extend_schema(
        summary="Get a topic message by sequence number",
        description="One message of the topic, its content in base64. It takes no query parameter. A message "
        "that does not exist answers 404.",
    )
    def retrieve(self, request, topic_id, sequence_number):
        topic, sequence_number = parse_path_segments(topic_id=topic_id, sequence_number=sequence_number)
        self.validate_detail_query()
        message = selectors.topic_message_get(topic_id=topic, sequence_number=sequence_number)
        return self._message_response(message)

    @extend_schema(
        summary="Get a topic message by consensus timestamp",
        description="The message a successful submit-message transaction added at that consensus timestamp, "
        "in whichever topic, its content in base64. It takes no query parameter. None there answers 404.",
    )
    def retrieve_by_timestamp(self, request, consensus_timestamp):
        (timestamp,) = parse_path_segments(timestamp=consensus_timestamp)
        self.validate_detail_query()
        return self._message_response(selectors.topic_message_at(consensus_timestamp=timestamp))

    def _message_response(self, message: dict | None) -> HttpResponse:
        if message is None:
            raise NotFound()
        return self.answer(self.represent_one(message))


def parse_path_segments(
    *, topic_id: str | None = None, sequence_number: str | None = None, timestamp: str | None = None
) -> list[int]:
    """The given path segments parsed in order; one 400 naming every bad one."""
    segments = (
        ("topic.id", topic_id, parse_topic_id),
        ("sequencenumber", sequence_number, parse_positive_long),
        ("consensus_timestamp", timestamp, parse_timestamp),
    )
    values, invalid = [], []
    for name, text, parse in segments:
        if text is None:
            continue
        try:
            values.append(parse(text))
        except ValueError:
            invalid.append(name)
    if invalid:
        raise InvalidArgument.for_params(*invalid)
    if isinstance(values[0], OutOfRangeEntityId):  # a topic id of a valid shape naming none
        raise InvalidArgument(values[0].message)
    return values


class TopicViewSet(MirrorViewSet):
    """`/topics/{topicId}`, which the upstream serves from its Java service: its errors carry
    the HTTP reason as the message and the cause as `detail`, and query parameters are ignored."""

    serializer_class = TopicSerializer
    cache_control = {"retrieve": CACHE_CONTROL_TOPIC}
    entity_tags = True

    @extend_schema(
        summary="Get a topic",
        description="One topic with its memo, keys, auto-renew account and period, custom fees and the keys "
        "exempt from them. Query parameters are ignored. A topic that does not exist answers 404.",
    )
    def retrieve(self, request, topic_id):
        try:
            encoded = parse_java_entity_id(topic_id)
        except ValueError:
            raise conversion_error("id") from None
        details = selectors.topic_details(topic_id=encoded)
        if details.topic is None:
            raise DetailedError(404, "Topic not found")
        if details.entity is None:
            raise DetailedError(404, "Entity not found")
        if details.custom_fee is None:
            raise DetailedError(404, "Custom fee for entity not found")
        return self.answer(self.represent_one(details))
