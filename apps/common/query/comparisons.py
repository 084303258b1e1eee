"""The comparison grammar: `?param=op:value`, and how a parameter's values combine.

A value is `op:operand` or a bare operand (meaning `eq`), with `op` one of
`eq ne lt lte gt gte`. A parameter may repeat, and its comparisons combine one way
for every route:
- every comparison but `eq` is ANDed;
- the distinct `eq` values are ORed into one `IN` (`= any(...)` in SQL), unless the
  route ANDs them too (`merge_equals=False`: blocks, where two numbers match nothing);
- a value of None (an EVM address or alias that names no entity) compares as SQL NULL
  does: an `eq` None matches nothing but leaves the other `eq` values matching, and any
  other operator against None matches nothing.

`combine` works that out once; `filter_by` applies it to a queryset and `Where` writes it
as SQL for a selector's own statement. `OPERATORS` is the grammar's one operator map.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import QuerySet

__all__ = (
    "ALL_OPERATORS",
    "LOWER_OPERATORS",
    "OPERATORS",
    "RANGE_OPERATORS",
    "UPPER_OPERATORS",
    "Combined",
    "Comparison",
    "Where",
    "combine",
    "conflicting_equals",
    "filter_by",
    "split_operator",
)


class Operator(NamedTuple):
    sql: str
    lookup: str  # the Django lookup (`ne` is registered by apps.common.query.lookups)


OPERATORS = {
    "eq": Operator("=", "exact"),
    "ne": Operator("<>", "ne"),
    "lt": Operator("<", "lt"),
    "lte": Operator("<=", "lte"),
    "gt": Operator(">", "gt"),
    "gte": Operator(">=", "gte"),
}
ALL_OPERATORS = frozenset(OPERATORS)
RANGE_OPERATORS = ALL_OPERATORS - {"ne"}
LOWER_OPERATORS = frozenset({"gt", "gte"})
UPPER_OPERATORS = frozenset({"lt", "lte"})


@dataclass(frozen=True, slots=True)
class Comparison:
    operator: str
    value: Any


def split_operator(text: str) -> tuple[str, str]:
    """`gte:5` -> ("gte", "5"); `5` -> ("eq", "5"); ValueError for more than one colon."""
    parts = text.split(":")
    if len(parts) == 1:
        return "eq", parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    raise ValueError(f"Invalid operator syntax {text!r}")


@dataclass(frozen=True, slots=True)
class Combined:
    """One parameter's comparisons as one condition: `equals` ORed, `others` ANDed with them."""

    equals: tuple
    others: tuple[Comparison, ...]
    matches_nothing: bool = False


_NOTHING = Combined((), (), matches_nothing=True)


def combine(comparisons: Iterable[Comparison], *, merge_equals: bool = True) -> Combined:
    equals, others = [], []
    saw_null_equal = False
    for comparison in comparisons:
        if comparison.operator == "eq" and merge_equals:
            if comparison.value is None:
                saw_null_equal = True
            elif comparison.value not in equals:
                equals.append(comparison.value)
        elif comparison.value is None:
            return _NOTHING
        else:
            others.append(comparison)
    if saw_null_equal and not equals:
        return _NOTHING
    return Combined(tuple(equals), tuple(others))


def conflicting_equals(comparisons: Sequence[Comparison]) -> bool:
    """Whether the comparisons name two different `eq` values: ANDed (a route with
    `merge_equals=False`), no row can meet both."""
    return len({c.value for c in comparisons if c.operator == "eq"}) > 1


def filter_by(queryset: QuerySet, field: str, comparisons: Iterable[Comparison], *, merge_equals: bool = True) -> QuerySet:
    """`queryset` narrowed by one parameter's comparisons on `field`."""
    combined = combine(comparisons, merge_equals=merge_equals)
    if combined.matches_nothing:
        return queryset.none()
    for comparison in combined.others:
        queryset = queryset.filter(**{f"{field}__{OPERATORS[comparison.operator].lookup}": comparison.value})
    if len(combined.equals) == 1:
        queryset = queryset.filter(**{field: combined.equals[0]})
    elif combined.equals:
        queryset = queryset.filter(**{f"{field}__in": combined.equals})
    return queryset


class Where:
    """The conditions of a selector's own SQL statement and their bound parameters, built up together.

    Values are always parameters, never formatted into the text."""

    def __init__(self):
        self.conditions: list[str] = []
        self.params: list = []
        self.matches_nothing = False

    def add(self, condition: str, *params) -> None:
        self.conditions.append(condition)
        self.params.extend(params)

    def compare(self, column: str, comparisons: Iterable[Comparison], *, merge_equals: bool = True) -> None:
        """ANDs one parameter's comparisons on `column` (a column or expression of the statement)."""
        combined = combine(comparisons, merge_equals=merge_equals)
        if combined.matches_nothing:
            self.matches_nothing = True
            self.add("false")
            return
        for comparison in combined.others:
            self.add(f"{column} {OPERATORS[comparison.operator].sql} %s", comparison.value)
        if len(combined.equals) == 1:
            self.add(f"{column} = %s", combined.equals[0])
        elif combined.equals:
            self.add(f"{column} = any(%s)", list(combined.equals))

    @property
    def sql(self) -> str:
        return " and ".join(self.conditions) if self.conditions else "true"
