"""Queries of the routes the upstream serves from its Java service (rest-java).

They read the query string differently from the Node routes:
- parameter names are case-sensitive and unknown parameters are ignored;
- a value that does not convert answers 400 with detail `Failed to convert '<name>'`,
  a range parameter given more than twice `<name> size must be between 0 and 2`,
  and `limit` must lie in 1..100 (`limit must be greater than 0`,
  `limit must be less than or equal to 100`): larger is refused, not capped;
- errors are `{"message": "Bad Request", "detail": "..."}` (`DetailedError`).

`links.next` (`java_next_link`) repeats the query as sent, drops the values of
each sort parameter that bound the order's direction, and appends
`gt:`/`lt:` + the last row's value to each sort parameter not pinned by a
value that is no range bound (`gte:`/`lte:` when the next sort parameter is
not pinned either), e.g.
`/api/v1/accounts/1001/allowances/nfts?account.id=gte:0.0.2002&owner=true&limit=2&token.id=gt:0.0.700`.
A page shorter than `limit` has no next link.
"""

import re
from collections.abc import Callable, Collection, Sequence
from urllib.parse import parse_qsl, quote

from django.conf import settings

from apps.common.api.exceptions import DetailedError
from apps.common.codecs import MAX_LONG, MAX_NUM, MAX_REALM, MAX_SHARD, encode_entity_id
from apps.common.filters import ALL_OPERATORS, Comparison

LIMIT_DEFAULT = 25
LIMIT_MAX = 100
MAX_RANGE_VALUES = 2

_ENTITY_ID = re.compile(r"^(?:(\d+)\.)?(?:(\d+)\.)?(\d+)$")
_RANGE_BOUND = re.compile(r"^(?:gt|gte|lt|lte):", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"^[+-]?\d{1,18}$")
_TRUE = frozenset({"true", "on", "yes", "1"})
_FALSE = frozenset({"false", "off", "no", "0"})


def bad_request(detail: str) -> DetailedError:
    return DetailedError(400, detail)


def conversion_error(name: str) -> DetailedError:
    return bad_request(f"Failed to convert '{name}'")


def parse_java_entity_id(text: str) -> int:
    """`[shard.][realm.]num` as an encoded id (a bare number is a num); ValueError otherwise."""
    match = _ENTITY_ID.match(text)
    if not match:
        raise ValueError(f"Invalid entity ID {text!r}")
    first, second, num = match.groups()
    if second is None:
        # One prefix is the realm.
        shard, realm = settings.MIRROR["SHARD"], int(first) if first is not None else settings.MIRROR["REALM"]
    else:
        shard, realm = int(first), int(second)
    num = int(num)
    if shard > MAX_SHARD or realm > MAX_REALM or num > MAX_NUM:
        raise ValueError(f"Invalid entity ID {text!r}")
    return encode_entity_id(shard, realm, num)


def parse_java_number(text: str) -> int:
    if not text.isdigit() or int(text) > MAX_LONG:
        raise ValueError(f"Invalid number {text!r}")
    return int(text)


class JavaQuery:
    """The query string as the Java service binds it: names as sent, values in order."""

    def __init__(self, query_string: str):
        self.pairs = parse_qsl(query_string, keep_blank_values=True)

    def values(self, name: str) -> list[str]:
        return [value for key, value in self.pairs if key == name]

    def single(self, name: str) -> str | None:
        """The value of a one-value parameter; empty means absent."""
        values = [value for value in self.values(name) if value != ""]
        if len(values) > 1:
            raise conversion_error(name)
        return values[0] if values else None

    def ranges(self, name: str, parse_operand: Callable[[str], int]) -> list[Comparison]:
        """`[op:]value` comparisons; `ne` converts (routes reject or pass it themselves)."""
        comparisons = []
        for text in self.values(name):
            if text == "":
                continue
            operator, _, operand = text.rpartition(":")
            operator = operator.lower() or "eq"
            try:
                if operator not in ALL_OPERATORS:
                    raise ValueError(operator)
                comparisons.append(Comparison(operator, parse_operand(operand)))
            except ValueError:
                raise conversion_error(name) from None
        return comparisons

    def order(self, default: str = "asc") -> str:
        value = self.single("order")
        if value is None:
            return default
        if value.lower() not in ("asc", "desc"):
            raise conversion_error("order")
        return value.lower()

    def boolean(self, name: str, default: bool) -> bool:
        value = self.single(name)
        if value is None:
            return default
        if value.lower() not in _TRUE | _FALSE:
            raise conversion_error(name)
        return value.lower() in _TRUE

    def limit_text(self) -> str | None:
        value = self.single("limit")
        if value is not None and not re.fullmatch(r"[+-]?\d{1,10}", value):
            raise conversion_error("limit")
        if value is not None and not -(1 << 31) <= int(value) < (1 << 31):
            raise conversion_error("limit")
        return value


def validate_limit(text: str | None) -> int:
    """Bean validation of `limit`, after every value converted."""
    limit = LIMIT_DEFAULT if text is None else int(text)
    if limit < 1:
        raise bad_request("limit must be greater than 0")
    if limit > LIMIT_MAX:
        raise bad_request(f"limit must be less than or equal to {LIMIT_MAX}")
    return limit


def validate_range_count(name: str, values: Sequence) -> None:
    """At most two values of a range parameter, empty ones included."""
    if len(values) > MAX_RANGE_VALUES:
        raise bad_request(f"{name} size must be between 0 and {MAX_RANGE_VALUES}")


def java_next_link(
    path: str,
    query: JavaQuery,
    order: str,
    sort_values: Sequence[tuple[str, str]],
    *,
    paged_params: Collection[str],
    limit: int,
    count: int,
) -> str | None:
    """`links.next` after a page of `count` rows; `sort_values` are (parameter, last row's value)
    of the sort keys, `paged_params` every parameter the route pages by (a fungible airdrop
    has no serial number to sort by, yet `serialnumber` bounds are still dropped)."""
    if count < limit or not sort_values:
        return None
    same_direction = ("gt", "gte") if order == "asc" else ("lt", "lte")
    sort_params = {param for param, _ in sort_values}
    # Any value that is not a range bound (even `ne:` or empty) pins its parameter.
    pinned = {key for key, value in query.pairs if key in sort_params and not _RANGE_BOUND.match(value)}
    params: dict[str, list[str]] = {}
    for key, value in query.pairs:
        if key in paged_params and _operator(value) in same_direction:
            continue
        params.setdefault(key, []).append(value)
    operator = "gt" if order == "asc" else "lt"
    for index, (param, value) in enumerate(sort_values):
        if param in pinned:
            continue
        last = index == len(sort_values) - 1
        exclusive = last or sort_values[index + 1][0] in pinned
        params.setdefault(param, []).append(f"{operator}{'' if exclusive else 'e'}:{value}")
    if _is_empty(params.get(sort_values[0][0], ())):
        return None
    safe = ":.,-_~!$'()*+;=@/"
    query_text = "&".join(f"{quote(key, safe=safe)}={quote(value, safe=safe)}" for key, values in params.items() for value in values)
    return f"{path}?{query_text}"


def _operator(value: str) -> str:
    operator, separator, _ = value.rpartition(":")
    return operator.lower() if separator else "eq"


def _is_empty(values: Sequence[str]) -> bool:
    """Whether the primary's bounds leave nothing; as upstream, only plain numbers
    count (`lte:5` does, `gte:0.0.6` does not)."""
    lower, upper = None, None
    for text in values:
        operator, _, operand = text.rpartition(":")
        if not _PLAIN_NUMBER.match(operand):
            continue
        value = int(operand)
        operator = operator.lower()
        if operator in ("gt", "gte"):
            value += operator == "gt"
            lower = value if lower is None else max(lower, value)
        elif operator in ("lt", "lte"):
            value -= operator == "lt"
            upper = value if upper is None else min(upper, value)
    return lower is not None and upper is not None and upper < lower
