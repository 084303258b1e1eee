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
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from apps.common.filters import split_operator
from apps.common.query import QueryParams

_RANGE_BOUND = re.compile(r"^[gl]te?:")
_SAME_DIRECTION = {"asc": re.compile(r"gte?:"), "desc": re.compile(r"lte?:")}


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
