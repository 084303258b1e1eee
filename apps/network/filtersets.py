"""Query reading of the GET network routes, which the upstream serves from its Java service
(`apps.common.java` rules: names case-sensitive, unknown parameters ignored).

`timestamp` (exchangerate, fees, supply) is one or two `[op:]seconds[.nanos]` values; as
the upstream, `eq` bounds from above (the file in force at that instant) and the digits
after the dot are the nanoseconds as written (`1.5` is 1 s + 5 ns). `/network/nodes` binds
its query to a request object: a value that does not bind answers
`Invalid parameter: <name>` without detail.
"""

import re
from dataclasses import dataclass

from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import MAX_LONG
from apps.common.java import JavaQuery, bad_request, conversion_error, parse_java_entity_id, validate_range_count
from apps.network.selectors import NodeCriteria

__all__ = ("TimestampBound", "node_criteria", "supply_type", "timestamp_bound", "timestamp_comparisons")

_TIMESTAMP = re.compile(r"^(?:(eq|gt|gte|lt|lte|ne):)?(\d{1,17})(?:\.(\d{1,9}))?$", re.IGNORECASE)
_NUMBER = re.compile(r"^\d{1,19}$")
_INT = re.compile(r"^[+-]?\d{1,10}$")


@dataclass(frozen=True, slots=True)
class TimestampBound:
    """Inclusive bounds in nanoseconds; None where the query sets none."""

    lower: int | None = None
    upper: int | None = None


def timestamp_comparisons(query: JavaQuery) -> list[tuple[str, int]]:
    """Each `timestamp` value converted, `eq` as `lte`; blank values bound nothing."""
    return [_timestamp_comparison(value) for value in query.values("timestamp") if value.strip()]


def timestamp_bound(query: JavaQuery, comparisons: list[tuple[str, int]]) -> TimestampBound:
    """Validates the converted values (after every parameter converted, as the upstream)."""
    validate_range_count("timestamp", query.values("timestamp"))
    lower = upper = None
    for operator, value in comparisons:
        if operator in ("gt", "gte"):
            lower = value + 1 if operator == "gt" else value
        else:
            upper = value - 1 if operator == "lt" else value
    if (lower or 0) > (MAX_LONG if upper is None else upper):
        raise bad_request("Invalid range provided for timestamp")
    return TimestampBound(lower, upper)


def _timestamp_comparison(text: str) -> tuple[str, int]:
    match = _TIMESTAMP.match(text)
    if not match or (match[1] or "").lower() == "ne":
        raise conversion_error("timestamp")
    nanos = int(match[2]) * 10**9 + int(match[3] or 0)
    if nanos > MAX_LONG:
        raise conversion_error("timestamp")
    operator = (match[1] or "eq").lower()
    return ("lte" if operator == "eq" else operator), nanos


SUPPLY_TYPES = ("circulating", "totalcoins")


def supply_type(query: JavaQuery) -> str | None:
    """`/network/supply?q=`: `totalcoins`, `circulating` or None."""
    value = query.single("q")
    if value is None:
        return None
    # Spring's lenient enum binding: letters and digits compared without case.
    value = "".join(character for character in value if character.isalnum()).lower()
    if value not in SUPPLY_TYPES:
        raise conversion_error("q")
    return value


#
# /network/nodes
#

ADDRESS_BOOK_FILE = 102
NODES_LIMIT_DEFAULT = 10
NODES_LIMIT_MAX = 25


def node_criteria(query: JavaQuery) -> NodeCriteria | None:
    """The criteria of a nodes page; None when the `node.id` values leave no node."""
    file_operator, file_id = _file_id(query)
    node_comparisons = [_node_id(value) for value in query.values("node.id") if value != ""]
    limit = min(_bound_single(query, "limit", _limit, NODES_LIMIT_DEFAULT), NODES_LIMIT_MAX)
    order = _bound_single(query, "order", _order, "asc")
    if file_operator != "eq":
        raise bad_request("Only equality operator is supported for file.id")
    equal, lower, upper = set(), 0, MAX_LONG
    for operator, value in node_comparisons:
        if operator == "eq":
            equal.add(value)
        elif operator in ("gt", "gte"):
            lower = max(lower, value + 1 if operator == "gt" else value)
        elif operator in ("lt", "lte"):
            upper = min(upper, value - 1 if operator == "lt" else value)
    if lower > upper:
        raise bad_request("Invalid range provided for node.id")
    node_ids = sorted(node_id for node_id in equal if lower <= node_id <= upper) if equal else None
    if node_ids == []:
        return None
    return NodeCriteria(file_id=file_id, node_ids=node_ids, lower=lower, upper=upper, order=order, limit=limit)


def _bound_single(query: JavaQuery, name: str, convert, default):
    values = [value for value in query.values(name) if value != ""]
    if not values:
        return default
    try:
        if len(values) > 1:
            raise ValueError(name)
        return convert(values[0])
    except ValueError:
        raise InvalidArgument.for_params(name) from None


def _file_id(query: JavaQuery) -> tuple[str, int]:
    def convert(text: str) -> tuple[str, int]:
        operator, _, operand = text.rpartition(":")
        operator = operator.lower() or "eq"
        if operator not in ("eq", "ne", "gt", "gte", "lt", "lte"):
            raise ValueError(text)
        return operator, parse_java_entity_id(operand)

    return _bound_single(query, "file.id", convert, ("eq", parse_java_entity_id(str(ADDRESS_BOOK_FILE))))


def _node_id(text: str) -> tuple[str, int]:
    operator, _, operand = text.rpartition(":")
    operator = operator.lower() or "eq"
    if operator not in ("eq", "ne", "gt", "gte", "lt", "lte") or not _NUMBER.match(operand) or int(operand) > MAX_LONG:
        raise InvalidArgument.for_params("node.id")
    return operator, int(operand)


def _limit(text: str) -> int:
    if not _INT.match(text) or not 0 < int(text) < 1 << 31:
        raise ValueError(text)
    return int(text)


def _order(text: str) -> str:
    if text.lower() not in ("asc", "desc"):
        raise ValueError(text)
    return text.lower()
