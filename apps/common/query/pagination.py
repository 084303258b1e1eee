"""`links.next`, built as the upstream builds it.

The next page repeats the current query (lower-cased names, values in the order
given, not URL-encoded) with each anchor parameter moved past the last row:
values bounding the same direction as the order (`gt`/`gte` when ascending,
`lt`/`lte` when descending) are dropped and `gt:<last>` (or `lt:`, or the
inclusive `gte:`/`lte:` for a non-final column of a multi-column key) is added.
A parameter that only had other values keeps them and gains the anchor only if
its first value was a range bound; an anchor the query did not name is appended.
If the anchors then describe an empty range, there is no next page.

    /api/v1/blocks?limit=2            -> /api/v1/blocks?limit=2&block.number=lt:18
    /api/v1/blocks?order=asc&limit=1  -> /api/v1/blocks?order=asc&limit=1&block.number=gt:16

A query of the strict dialect (`apps.common.query.strict`, the routes the upstream serves
from its Java service) gets that service's link instead (`strict_next_link`): the query
as sent (names as sent, values URL-encoded; only `STRICT_LINKED_PARAMS` and the anchors,
free of control characters) without the values bounding the order's
direction of every parameter the route pages by, then `gt:`/`lt:` + the last row's value
for each anchor not pinned by a value that is no range bound (`gte:`/`lte:` when the next
anchor is not pinned either):

    /api/v1/accounts/1001/allowances/nfts?account.id=gte:0.0.2002&owner=true&limit=2
    -> ...?account.id=gte:0.0.2002&owner=true&limit=2&token.id=gt:0.0.700
"""

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from apps.common.query.comparisons import split_operator
from apps.common.query.params import QueryParams

_RANGE_BOUND = re.compile(r"^[gl]te?:")
_SAME_DIRECTION = {"asc": re.compile(r"gte?:"), "desc": re.compile(r"lte?:")}
_STRICT_RANGE_BOUND = re.compile(r"^(?:gt|gte|lt|lte):", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"^[+-]?\d{1,18}$")
# Kept as they are in a strict link's values; any other character is percent-encoded.
_STRICT_SAFE = ":.,-_~!$'()*+;=@/"
# The parameters a strict link repeats (besides the anchors), whichever route it pages: the
# Java service's link factory knows no others. A name or value holding a control character
# is left out.
STRICT_LINKED_PARAMS = frozenset({
    "account.id", "file.id", "hook.id", "key", "limit", "node.id", "order", "owner", "receiver.id",
    "registerednode.id", "sender.id", "serialnumber", "timestamp", "token.id", "type",
})
_CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Anchor:
    """One keyset column of a route's pagination.

    `param` is the query parameter carrying it, `column` the row key holding
    the last value, `format` its text in the link and `parse` the
    inverse, used to detect an empty range.
    """

    param: str
    column: str
    format: Callable[[Any], str] = str
    parse: Callable[[str], int] = int
    inclusive: bool = False

    def value_of(self, row) -> str:
        return self.format(row[self.column])


# Printable ASCII other than the space: kept as they are in a `Link` header, whose value is latin-1
# text on one line. A parameter's value is echoed into the next link as sent, newlines included.
_HEADER_SAFE = "".join(map(chr, range(0x21, 0x7F)))


def link_header(next_link: str) -> str:
    """The `Link` header naming the next page; any other character percent-encoded (UTF-8)."""
    return f'<{quote(next_link, safe=_HEADER_SAFE)}>; rel="next"'


def page_link(path: str, criteria, rows: Sequence) -> str | None:
    """`links.next` after a page of `rows` read by `criteria` (`pages.PageCriteria`): none
    when the page is not full or the route has no anchors."""
    if not criteria.anchors or not rows or len(rows) < criteria.limit:
        return None
    if criteria.paged_params is not None:
        return strict_next_link(
            path, criteria.query.pairs, criteria.order, criteria.anchors, rows[-1], paged_params=criteria.paged_params
        )
    return next_link(path, criteria.query, criteria.order, criteria.anchors, rows[-1])


def next_link(
    path: str, params: QueryParams, order: str, anchors: Sequence[Anchor], last_row
) -> str | None:
    params = {name: list(values) for name, values in params.items()}
    same_direction = _SAME_DIRECTION[order]
    operator = "gt" if order == "asc" else "lt"
    for anchor in anchors:
        bound = f"{operator}{'e' if anchor.inclusive else ''}:{anchor.value_of(last_row)}"
        _move_bound(params, anchor.param, bound, same_direction)

    primary = anchors[0]
    if _is_empty_range(params.get(primary.param, ()), primary.parse):
        return None
    query = "&".join(f"{name}={value}" for name, values in params.items() for value in values)
    return f"{path.removesuffix('/')}?{query}" if query else path.removesuffix("/")


def _move_bound(params: QueryParams, name: str, bound: str, same_direction: re.Pattern) -> None:
    values = params.get(name)
    if values is None:
        params[name] = [bound]
        return
    kept = [value for value in values if not same_direction.search(value or "")]
    if len(values) == 1 and not kept:
        # The upstream deletes and re-adds a single value, which moves it last.
        del params[name]
        params[name] = [bound]
    elif _RANGE_BOUND.match(values[0] or ""):
        params[name] = [*kept, bound]
    else:
        params[name] = kept


def _is_empty_range(values, parse: Callable[[str], int]) -> bool:
    lower = upper = None
    for text in values:
        if not _RANGE_BOUND.match(text or ""):
            continue
        operator, operand = split_operator(text)
        value = parse(operand)
        if operator in ("gt", "gte"):
            value += operator == "gt"
            lower = value if lower is None else max(lower, value)
        else:
            value -= operator == "lt"
            upper = value if upper is None else min(upper, value)
    return lower is not None and upper is not None and upper < lower


def strict_next_link(
    path: str,
    pairs: Sequence[tuple[str, str]],
    order: str,
    anchors: Sequence[Anchor],
    last_row,
    *,
    paged_params: Collection[str],
) -> str | None:
    """The strict dialect's link (see the module's docstring) after the query's `pairs`
    (name, value) in the order sent. An anchor whose last value formats to None gives no
    bound (a fungible airdrop has no serial number); the values of every parameter in
    `paged_params` bounding the order's direction are dropped all the same."""
    sort_values = [(anchor.param, value) for anchor in anchors if (value := anchor.value_of(last_row)) is not None]
    if not sort_values:
        return None
    same_direction = ("gt", "gte") if order == "asc" else ("lt", "lte")
    sort_params = {param for param, _ in sort_values}
    pairs = [
        (name, value) for name, value in pairs
        if (name in STRICT_LINKED_PARAMS or name in sort_params)
        and not _CONTROL_CHARACTER.search(name) and not _CONTROL_CHARACTER.search(value)
    ]
    # Any value that is no range bound (even `ne:` or empty) pins its parameter.
    pinned = {name for name, value in pairs if name in sort_params and not _STRICT_RANGE_BOUND.match(value)}
    kept: dict[str, list[str]] = {}
    for name, value in pairs:
        if name not in paged_params or _strict_operator(value) not in same_direction:
            kept.setdefault(name, []).append(value)
    operator = "gt" if order == "asc" else "lt"
    for index, (param, value) in enumerate(sort_values):
        if param in pinned:
            continue
        last = index == len(sort_values) - 1
        exclusive = last or sort_values[index + 1][0] in pinned
        kept.setdefault(param, []).append(f"{operator}{'' if exclusive else 'e'}:{value}")
    if _is_empty_plain_range(kept.get(sort_values[0][0], ())):
        return None
    query = "&".join(
        f"{quote(name, safe=_STRICT_SAFE)}={quote(value, safe=_STRICT_SAFE)}"
        for name, values in kept.items()
        for value in values
    )
    return f"{path}?{query}"


def _strict_operator(value: str) -> str:
    """The operator a value begins with: a comma list (`gt:1,lt:40`) counts as its first."""
    operator, separator, _ = value.partition(":")
    return operator.lower() if separator else "eq"


def _is_empty_plain_range(values: Sequence[str]) -> bool:
    """Whether the primary's bounds leave nothing; as the Java service, only plain numbers
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
