"""Query parameters of `/topics/{topicId}/messages`."""

from apps.common.ledger.codecs import (
    format_timestamp,
    parse_positive_long,
    parse_timestamp,
)
from apps.common.query.comparisons import ALL_OPERATORS, split_operator
from apps.common.query.filters import WITH_ANY_OPERATOR, LastValueFilter, OperatorFilter
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pagination import Anchor
from apps.common.query.params import QueryParams

__all__ = ("BASE64", "ENCODING_DESCRIPTION", "UTF8", "TopicMessageFilterSet", "parse_encoding", "requested_encoding")

BASE64 = "base64"
UTF8 = "utf-8"
_ENCODINGS = {"base64": BASE64, "utf-8": UTF8, "utf8": UTF8}


def parse_encoding(text: str) -> str:
    """`base64` or `utf-8` (any case) after any operator; with an operator written the
    upstream compares the whole text with `utf-8`, so the messages stay base64."""
    operator, operand = split_operator(text)
    if operator not in ALL_OPERATORS or operand.lower() not in _ENCODINGS:
        raise ValueError(f"Invalid encoding {text!r}")
    return _ENCODINGS[operand.lower()] if operand == text else BASE64


ENCODING_DESCRIPTION = "`base64` (the default) or `utf-8`, in any case: how each message's content is written."


def requested_encoding(params: QueryParams) -> str:
    """The encoding a valid query shows the messages in: its last `encoding`, base64 by default."""
    encodings = params.get("encoding")
    return parse_encoding(encodings[-1]) if encodings else BASE64


class TopicMessageFilterSet(ListFilterSet):
    """One topic's messages (the topic is the path's: `criteria.scope`)."""

    # Every condition is ANDed, equalities included, as the upstream builds them.
    sequencenumber = OperatorFilter(
        field_name="sequence_number",
        parser=parse_positive_long,
        merge_equals=False,
        description=f"The message's sequence number, from 1, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )
    timestamp = OperatorFilter(
        field_name="consensus_timestamp",
        parser=parse_timestamp,
        merge_equals=False,
        description=f"The message's consensus timestamp (`seconds.nanos`), {WITH_ANY_OPERATOR}. Each value is one "
        "more condition.",
    )
    encoding = LastValueFilter(parser=parse_encoding, description=ENCODING_DESCRIPTION)

    ordering_fields = ("consensus_timestamp",)
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)
