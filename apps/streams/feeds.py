"""What each stream carries: the rows past a consensus timestamp, rendered as the list route renders them.

A `Feed` is one source of events (all blocks, one topic's messages, one account's
transactions), read by index range scans past a cursor, in consensus order:
- blocks: the primary key of `record_file` (`consensus_end`);
- a topic's messages: `topic_message__topic_id_timestamp`;
- an account's transactions: the same per-table range scans as the account's
  `/transactions` page (`transactions.selectors.transaction_page_timestamps`).
Each event's `data:` is the JSON object the list route renders for the row: the
list routes' own selectors and serializers, rendered by the API's JSON renderer.
A `StreamRequest` is a validated request: its feed, where to resume from and
which events of the feed it wants (`encoding`, `transactiontype`, `result`).
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from apps.accounts.selectors import account_paths
from apps.blocks import selectors as block_selectors
from apps.blocks.api.serializers import BlockSerializer
from apps.common.api.renderers import MirrorJSONRenderer
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import format_timestamp, parse_timestamp
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import LastValueFilter, OperatorFilter, equals_only
from apps.common.query.filtersets import QueryFilterSet
from apps.common.query.params import parse_query_string
from apps.topics import selectors as topic_selectors
from apps.topics.api.serializers import TopicMessageSerializer
from apps.topics.api.views import parse_path_segments
from apps.topics.filtersets import BASE64, ENCODING_DESCRIPTION, UTF8, parse_encoding
from apps.transactions import selectors as transaction_selectors
from apps.transactions.api.serializers import TransactionSerializer
from apps.transactions.filtersets import parse_result

__all__ = ("Event", "Feed", "StreamRequest", "stream_request")

# Rows read per query; a feed further behind is read again at once.
PAGE_SIZE = 100
_renderer = MirrorJSONRenderer()


@dataclass(frozen=True, slots=True)
class Event:
    """One row of a feed: `frames` maps a rendering variant to its `id:`/`data:` bytes."""

    timestamp: int
    row: dict
    frames: dict[str, bytes]


def _frame(timestamp: int, data: dict) -> bytes:
    return b"id: " + format_timestamp(timestamp).encode() + b"\ndata: " + _renderer.render(data) + b"\n\n"


class Feed:
    """A source of events; equal feeds (same kind and key) share one cursor and one read per poll."""

    key: tuple
    variants: tuple[str, ...] = ("",)

    def latest(self) -> int:
        """The consensus timestamp of the newest row (0 when none): where a live feed starts."""
        raise NotImplementedError

    def rows_after(self, timestamp: int) -> list[dict]:
        """Up to PAGE_SIZE rows past `timestamp`, oldest first."""
        raise NotImplementedError

    def timestamp_of(self, row: dict) -> int:
        return row["consensus_timestamp"]

    def render(self, row: dict, variant: str) -> dict:
        raise NotImplementedError

    def events_after(self, timestamp: int) -> list[Event]:
        return [self.event(row) for row in self.rows_after(timestamp)]

    def event(self, row: dict) -> Event:
        timestamp = self.timestamp_of(row)
        return Event(timestamp, row, {variant: _frame(timestamp, self.render(row, variant)) for variant in self.variants})

    def __eq__(self, other):
        return isinstance(other, Feed) and self.key == other.key

    def __hash__(self):
        return hash(self.key)


class BlockFeed(Feed):
    key = ("blocks",)

    def latest(self) -> int:
        newest = block_selectors.block_queryset().order_by("-consensus_end").first()
        return newest["consensus_end"] if newest else 0

    def rows_after(self, timestamp):
        return list(
            block_selectors.block_queryset().filter(consensus_end__gt=timestamp).order_by("consensus_end")[:PAGE_SIZE]
        )

    def timestamp_of(self, row):
        return row["consensus_end"]

    def render(self, row, variant):
        return BlockSerializer().to_representation(row)


class TopicMessageFeed(Feed):
    variants = (BASE64, UTF8)

    def __init__(self, topic_id: int):
        self.topic_id = topic_id
        self.key = ("topic", topic_id)

    def latest(self):
        newest = topic_selectors.topic_message_queryset(topic_id=self.topic_id).order_by("-consensus_timestamp").first()
        return newest["consensus_timestamp"] if newest else 0

    def rows_after(self, timestamp):
        messages = topic_selectors.topic_message_queryset(topic_id=self.topic_id)
        return list(messages.filter(consensus_timestamp__gt=timestamp).order_by("consensus_timestamp")[:PAGE_SIZE])

    def render(self, row, variant):
        return TopicMessageSerializer(context={"encoding": variant}).to_representation(row)


class AccountTransactionFeed(Feed):
    def __init__(self, account_id: int):
        self.account_id = account_id
        self.key = ("account", account_id)

    def _timestamps(self, timestamps: tuple[Comparison, ...], *, limit: int, order: str) -> list[int]:
        criteria = transaction_selectors.TransactionListFilter(
            accounts=(Comparison("eq", self.account_id),), timestamps=timestamps, limit=limit, order=order
        )
        return transaction_selectors.transaction_page_timestamps(criteria=criteria)

    def latest(self):
        newest = self._timestamps((), limit=1, order="desc")
        return newest[0] if newest else 0

    def rows_after(self, timestamp):
        timestamps = self._timestamps((Comparison("gt", timestamp),), limit=PAGE_SIZE, order="asc")
        return transaction_selectors.transactions_at(timestamps=timestamps, order="asc") if timestamps else []

    def render(self, row, variant):
        return TransactionSerializer().to_representation(row)


# --- Requests ---------------------------------------------------------------------------------


class BlockStreamFilterSet(QueryFilterSet):
    # `timestamp=gt:<seconds.nanos>`: where to resume, the only bound a stream takes.
    timestamp = OperatorFilter(
        field_name="consensus_end",
        parser=parse_timestamp,
        operators={"gt"},
        description="Where to resume: `gt:` and a consensus timestamp (`seconds.nanos`); what was recorded after "
        "it is sent first. A `Last-Event-ID` header wins over it.",
    )

    class Meta:
        model = None
        fields = ()


class TopicMessageStreamFilterSet(BlockStreamFilterSet):
    encoding = LastValueFilter(parser=parse_encoding, description=ENCODING_DESCRIPTION)


class TransactionStreamFilterSet(BlockStreamFilterSet):
    transactiontype = OperatorFilter(
        field_name="type",
        parser=transaction_selectors.transaction_type_id,
        operators={"eq"},
        description="Only the transactions of this type: a `TransactionTypes` name, in any case. `eq:` is the only "
        "operator; several values keep any of them.",
    )
    result = LastValueFilter(
        parser=equals_only(parse_result),
        description="`success` or `fail`: only the transactions with that result. `eq:` is the only operator.",
    )


@dataclass(frozen=True, kw_only=True)
class StreamRequest:
    """A validated stream request: replay what is past `after` (None: only what is new), then go live."""

    feed: Feed
    after: int | None = None
    variant: str = ""
    wants: Callable[[dict], bool] = field(default=lambda row: True)


def stream_request(route: str, segment: str | None, query_string: str, last_event_id: str | None) -> StreamRequest:
    """Validates a stream request (InvalidArgument, NotFound); `route` names the stream, `segment` its path id."""
    params = parse_query_string(query_string)
    if route == "blocks":
        filterset = BlockStreamFilterSet(params)
        filterset.validate()
        return StreamRequest(feed=BlockFeed(), after=_resume_from(filterset, last_event_id))
    if route == "topic":
        filterset = TopicMessageStreamFilterSet(params)
        (topic_id,) = parse_path_segments(topic_id=segment)
        filterset.validate()
        return StreamRequest(
            feed=TopicMessageFeed(topic_id),
            after=_resume_from(filterset, last_event_id),
            variant=filterset.value("encoding", BASE64),
        )
    filterset = TransactionStreamFilterSet(params)
    account_id = account_paths.account_id_from_path(segment)
    filterset.validate()
    if not account_paths.account_exists(account_id=account_id):
        raise NotFound()
    types = frozenset(c.value for c in filterset.form.cleaned_data.get("transactiontype") or ())
    result = filterset.value("result")
    return StreamRequest(
        feed=AccountTransactionFeed(account_id),
        after=_resume_from(filterset, last_event_id),
        wants=lambda row: (not types or row["type"] in types)
        and (
            result is None
            or (row["result"] in transaction_selectors.SUCCESS_RESULTS) == (result == transaction_selectors.RESULT_SUCCESS)
        ),
    )


def _resume_from(filterset: QueryFilterSet, last_event_id: str | None) -> int | None:
    """`Last-Event-ID` (a reconnecting EventSource's) or else `timestamp=gt:`; None for neither."""
    if last_event_id is not None:
        try:
            return parse_timestamp(last_event_id.strip())
        except ValueError:
            raise InvalidArgument("Invalid header: Last-Event-ID") from None
    bounds = filterset.form.cleaned_data.get("timestamp")
    return max(c.value for c in bounds) if bounds else None
