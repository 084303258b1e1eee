"""The stream paths on the main port: validated like the stream itself, then redirected to it.

The ordinary routes are served by WSGI threads, which must not be held by a
stream that lasts hours; the streams are served on their own address
(`apps.streams.server`). A browser's EventSource, `fetch` and `curl -L` follow
the 307 there; a bad request is refused here, with the stream's own answer.
"""

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.openapi import MirrorAutoSchema, ref, string
from apps.common.api.views import AcyclicViewMixin
from apps.common.errors import NotFound
from apps.streams import feeds

__all__ = ("AccountTransactionStreamView", "BlockStreamView", "TopicMessageStreamView")


class StreamAutoSchema(MirrorAutoSchema):
    """A stream answers `text/event-stream`: `id:` the consensus timestamp, `data:` the list item."""

    def get_override_parameters(self):
        last_event_id = OpenApiParameter(
            "Last-Event-ID",
            type=string(),
            location=OpenApiParameter.HEADER,
            description="Resume after this event (`seconds.nanos`), replaying what was missed",
        )
        return [*super().get_override_parameters(), last_event_id]

    def _query_parameter_schema(self, name):
        if name == "timestamp":
            # Where to resume: one bound, past it.
            return string(pattern=r"^gt:\d{1,10}(\.\d{1,9})?$")
        if name == "result":
            return string(enum=["success", "fail"])
        return super()._query_parameter_schema(name)

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        responses["200"] = {
            "description": "The event stream",
            "content": {"text/event-stream": {"schema": string()}},
        }
        responses["307"] = {"description": "Served by the stream server at `Location`"}
        responses["404"] = self._json_response(ref("Error"), "Not found, or streams are not served")
        for status, reason in ((429, "Too many streams"), (503, "Service unavailable")):
            responses[str(status)] = self._json_response(ref("Error"), reason)
        return responses


class StreamView(AcyclicViewMixin, APIView):
    schema = StreamAutoSchema()
    route: str
    segment_kwarg: str | None = None

    def get(self, request, **kwargs):
        segment = kwargs.get(self.segment_kwarg) if self.segment_kwarg else None
        feeds.stream_request(
            self.route, segment, request.META.get("QUERY_STRING", ""), request.headers.get("Last-Event-ID")
        )
        if not (settings.STREAM_URL or settings.STREAM_BIND):
            raise NotFound()
        return Response(status=307, headers={"Location": stream_url(request)})


def stream_url(request) -> str:
    """The stream server's URL of this request: MIRROR_STREAM_URL, or this host at the stream port."""
    base = settings.STREAM_URL
    if not base:
        host = request.get_host()
        if not host.endswith("]") and ":" in host:
            host = host.rpartition(":")[0]
        base = f"{request.scheme}://{host}:{settings.STREAM_BIND.rpartition(':')[2]}"
    return base.rstrip("/") + request.get_full_path()


def stream_description(events: str, list_route: str) -> str:
    return (
        "Server-Sent Events, from the stream server (the main port redirects there, 307): the comment "
        f"`: connected`, then the {events} recorded after `Last-Event-ID` or `timestamp=gt:` when either is "
        "given, then each new one as it is recorded. An event's `id:` is its consensus timestamp and its `data:` "
        f"the JSON object `{list_route}` answers for it; a heartbeat comment keeps a quiet stream open. A stream "
        "beyond the server's limits (per client address, or in all) answers 429."
    )


@extend_schema(summary="Stream blocks", description=stream_description("blocks", "/api/v1/blocks"))
class BlockStreamView(StreamView):
    route = "blocks"
    filterset_class = feeds.BlockStreamFilterSet
    schema_item = "Block"


@extend_schema(
    summary="Stream a topic's messages",
    description=stream_description("messages of the topic", "/api/v1/topics/{topicId}/messages"),
)
class TopicMessageStreamView(StreamView):
    route = "topic"
    segment_kwarg = "topic_id"
    filterset_class = feeds.TopicMessageStreamFilterSet
    schema_item = "TopicMessage"


@extend_schema(
    summary="Stream an account's transactions",
    description=stream_description(
        "transactions the account took part in (those of one type, or result, with `transactiontype` or `result`)",
        "/api/v1/transactions",
    ),
)
class AccountTransactionStreamView(StreamView):
    route = "account"
    segment_kwarg = "id_or_alias_or_evm_address"
    filterset_class = feeds.TransactionStreamFilterSet
    schema_item = "Transaction"
