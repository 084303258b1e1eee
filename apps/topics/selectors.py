import json
from dataclasses import dataclass

from django.db.models import QuerySet, Subquery

from apps.common.database.connections import statement_cursor
from apps.common.query.comparisons import OPERATORS
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.topics import sql
from apps.topics.models import TopicMessage
from apps.transactions.models import Transaction

__all__ = (
    "TopicDetails",
    "topic_details",
    "topic_message_at",
    "topic_message_get",
    "topic_message_list",
    "topic_message_page",
    "topic_message_queryset",
)

CONSENSUS_SUBMIT_MESSAGE = 27
SUCCESS = 22

_MESSAGE_COLUMNS = (
    "chunk_num",
    "chunk_total",
    "consensus_timestamp",
    "initial_transaction_id",
    "message",
    "payer_account_id",
    "running_hash",
    "running_hash_version",
    "sequence_number",
    "topic_id",
    "valid_start_timestamp",
)


def topic_message_queryset(*, topic_id: int) -> QuerySet:
    """A topic's messages as dicts; both indexes of the table lead with topic_id."""
    return TopicMessage.objects.filter(topic_id=topic_id).values(*_MESSAGE_COLUMNS)


def topic_message_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/topics/{topicId}/messages` (the topic is `criteria.scope`'s)."""
    return _TOPIC_MESSAGE_PAGES.rows(criteria)


def topic_message_page(criteria: PageCriteria) -> QuerySet:
    """The topic's messages the criteria select, in their order, each sequence number bound
    restated as a bound on the consensus timestamp.

    A topic numbers its messages in consensus order, so the message nearest a sequence
    number bound also bounds the timestamps. With it PostgreSQL range-scans the
    (topic_id, consensus_timestamp) index the page is ordered by instead of filtering its
    way through all of the topic's messages.
    """
    (topic_id,) = criteria.scope
    queryset = narrow(topic_message_queryset(topic_id=topic_id), criteria)
    for comparison in criteria["sequencenumber"]:
        operator, value = comparison.operator, comparison.value
        if operator == "ne":
            continue
        nearest = topic_message_queryset(topic_id=topic_id).filter(
            **{f"sequence_number__{OPERATORS[operator].lookup}": value}
        )
        if operator in ("lt", "lte"):
            nearest, bound = nearest.order_by("-sequence_number"), "lte"
        else:
            nearest, bound = nearest.order_by("sequence_number"), "gte" if operator != "eq" else "exact"
        nearest_timestamp = Subquery(nearest.values("consensus_timestamp")[:1])
        queryset = queryset.filter(**{f"consensus_timestamp__{bound}": nearest_timestamp})
    return queryset


_TOPIC_MESSAGE_PAGES = CompiledPages(topic_message_page)


def topic_message_get(
    *, topic_id: int, sequence_number: int | None = None, consensus_timestamp: int | None = None
) -> dict | None:
    """One message of a topic, by its sequence number or else by its consensus timestamp."""
    if sequence_number is not None:
        return _only(_MESSAGE_BY_SEQUENCE_NUMBER.rows(topic_id, sequence_number))
    return _only(_MESSAGE_BY_TIMESTAMP.rows(topic_id, consensus_timestamp))


def topic_message_at(*, consensus_timestamp: int) -> dict | None:
    """The message a successful ConsensusSubmitMessage transaction at that instant submitted
    (one statement: the transaction names the topic)."""
    return _only(_SUBMITTED_MESSAGE.rows(consensus_timestamp))


def _only(rows: list[dict]) -> dict | None:
    return rows[0] if len(rows) == 1 else None


_MESSAGE_BY_SEQUENCE_NUMBER = CompiledQuery(
    lambda topic_id, number: topic_message_queryset(topic_id=topic_id).filter(sequence_number=number)[:2]
)
_MESSAGE_BY_TIMESTAMP = CompiledQuery(
    lambda topic_id, timestamp: topic_message_queryset(topic_id=topic_id).filter(consensus_timestamp=timestamp)[:2]
)
_SUBMITTED_MESSAGE = CompiledQuery(
    lambda timestamp: TopicMessage.objects.filter(
        consensus_timestamp=timestamp,
        topic_id=Subquery(
            Transaction.objects.filter(
                consensus_timestamp=timestamp, type=CONSENSUS_SUBMIT_MESSAGE, result=SUCCESS
            ).values("entity_id")[:1]
        ),
    ).values(*_MESSAGE_COLUMNS)[:2]
)


@dataclass(frozen=True, slots=True)
class TopicDetails:
    """The three rows a topic's details come from; None where a row is missing."""

    topic: dict | None
    entity: dict | None
    custom_fee: dict | None


def topic_details(*, topic_id: int) -> TopicDetails:
    """The topic's three rows, read in one statement."""
    with statement_cursor() as cursor:
        cursor.execute(sql.TOPIC_DETAILS, [topic_id])
        found = cursor.fetchone()
    if found is None:
        return TopicDetails(None, None, None)
    parts, start = [], 0
    for columns in (sql.TOPIC_COLUMNS, sql.TOPIC_ENTITY_COLUMNS, sql.TOPIC_FEE_COLUMNS):
        row = dict(zip(columns, found[start : start + len(columns)]))
        # The key column is null only when the left join found no row.
        parts.append(row if row[columns[0]] is not None else None)
        start += len(columns)
    topic, entity, custom_fee = parts
    if custom_fee is not None:
        # Django reads jsonb as text outside the ORM.
        fees = custom_fee["fixed_fees"]
        custom_fee["fixed_fees"] = None if fees is None else json.loads(fees)
    return TopicDetails(topic, entity, custom_fee)
