"""Multi-column keyset ranges: one query parameter per column of a sort key.

`/accounts/{id}/nfts?token.id=gte:0.0.1500&token.id=lte:2500&serialnumber=gt:2&serialnumber=lt:5`
pages through rows ordered by `(token_id, serial_number)`. Each parameter
gives a `Bound` (at most one `eq`, one lower `gt`/`gte` and one upper `lt`/`lte`),
and the bounds of a `Keyset`, primary column first, read lexicographically:
the lower bounds together are the tuple `(token_id, serial_number) >= (1500, 3)`,
the upper ones `(token_id, serial_number) <= (2500, 4)`, an `eq` counts as both
bounds of its column and is required as well. A tuple stops at the first
column without that bound (`token.id=gte:5&serialnumber=gt:2` without upper
bounds has no upper tuple).

`Keyset.parts` splits such a range as the upstream does, into a lower edge
(`token_id = 1500 and serial_number >= 3`), a middle (`1500 < token_id < 2500`)
and an upper edge; `keyset_page` reads each part as one ordered, limited index
range scan (row-value comparisons like `(token_id, serial_number) >= (9020, 6)`
are index conditions) and merges them. For every range that is not degenerate
the union is exactly the lexicographic range.

Which combinations are allowed, and with which 400 text, differs between the
upstream's two services: `BoundRules` holds a route family's texts
(`NODE_RULES`, `JAVA_RULES`, `JAVA_LENIENT_RULES`); a violation raises
`KeysetError(text)`, which the route wraps in its own error envelope.
`KeysetFilterSet` (apps.common.query.filtersets) declares the columns as query parameters.

The next page continues after the last row: `Keyset.anchors` gives the
`links.next` anchors, inclusive (`gte`/`lte`) for each column but the last, and
for a column whose next column is pinned by `eq`.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from django.db.models import F, Q, QuerySet
from django.db.models.fields.tuple_lookups import (
    Tuple,
    TupleGreaterThanOrEqual,
    TupleLessThanOrEqual,
)

from apps.common.ledger.codecs import MAX_LONG
from apps.common.query.comparisons import LOWER_OPERATORS, Comparison
from apps.common.query.pagination import Anchor


class KeysetError(ValueError):
    """A query the keyset rules reject; `str()` is the upstream's text."""


@dataclass(frozen=True)
class BoundRules:
    """The 400 texts of one family of routes, as `str.format` templates.

    `{param}` is the offending parameter, `{primary}`/`{secondary}` the two
    columns of a dependency. A rule set to None is not checked: `not_equal`
    None passes `ne` through as `<>`; `repeated` None keeps the last value of
    an operator class.
    """

    not_equal: str | None
    repeated: dict[str, str] | None
    range_and_equal: str | None
    empty_range: str | None
    missing_primary: str | None
    primary_lower: str | None
    primary_upper: str | None
    # Java: a primary range of a single value counts as `eq`, an empty range
    # is bounded by 0 and the int64 maximum where open, the upper-bound
    # dependency is checked first, and parts merge without duplicates.
    java: bool = False
    union_all: bool = True
    # The rules of the columns after the primary, when they differ.
    later_columns: "BoundRules | None" = None

    @property
    def for_later_columns(self) -> "BoundRules":
        return self.later_columns or self


NODE_RULES = BoundRules(
    not_equal="Not equal (ne) operator is not supported for {param}",
    repeated={
        "eq": "Only one equal (eq) operator is allowed for {param}",
        "lower": "Only one gt/gte operator is allowed for {param}",
        "upper": "Only one lt/lte operator is allowed for {param}",
    },
    range_and_equal="Can't support both range and equal for {param}",
    empty_range=None,
    missing_primary="{secondary} without a {primary} parameter filter",
    primary_lower="{primary} must have gte or eq operator",
    primary_upper="{primary} must have lte or eq operator",
)

JAVA_RULES = BoundRules(
    not_equal="Unsupported range operator ne for {param}",
    repeated={
        "eq": "Only one range operator from [EQ] is allowed for the given parameter for {param}",
        "lower": "Only one range operator from [GT, GTE] is allowed for the given parameter for {param}",
        "upper": "Only one range operator from [LT, LTE] is allowed for the given parameter for {param}",
    },
    range_and_equal="Can't support both range and equal for {param}",
    empty_range="Invalid range provided for {param}",
    missing_primary="{secondary} parameter must have {primary} present",
    primary_lower="Requires the presence of an gte or eq {primary} parameter",
    primary_upper="Requires the presence of an lte or eq {primary} parameter",
    java=True,
    union_all=False,
)

# Java's airdrop routes only check that the primary range is not empty.
_JAVA_UNCHECKED = BoundRules(
    not_equal=None,
    repeated=None,
    range_and_equal=None,
    empty_range=None,
    missing_primary=None,
    primary_lower=None,
    primary_upper=None,
    java=True,
    union_all=False,
)
JAVA_LENIENT_RULES = replace(
    _JAVA_UNCHECKED, empty_range="Invalid range provided for {param}", later_columns=_JAVA_UNCHECKED
)


@dataclass(frozen=True)
class Bound:
    """The comparisons of one keyset column: values are column values (encoded ids, numbers)."""

    param: str
    column: str
    equal: int | None = None
    lower: Comparison | None = None
    upper: Comparison | None = None
    excluded: tuple[int, ...] = ()

    @classmethod
    def of(cls, param: str, column: str, comparisons: Sequence[Comparison], rules: BoundRules) -> "Bound":
        equal = lower = upper = None
        excluded = []
        for comparison in comparisons:
            operator = comparison.operator
            if operator == "ne":
                if rules.not_equal:
                    raise KeysetError(rules.not_equal.format(param=param))
                excluded.append(comparison.value)
                continue
            kind = "eq" if operator == "eq" else "lower" if operator in LOWER_OPERATORS else "upper"
            current = {"eq": equal, "lower": lower, "upper": upper}[kind]
            if current is not None and rules.repeated:
                raise KeysetError(rules.repeated[kind].format(param=param))
            if kind == "eq":
                equal = comparison.value
            elif kind == "lower":
                lower = comparison
            else:
                upper = comparison
        return cls(param, column, equal, lower, upper, tuple(excluded))

    def check(self, rules: BoundRules, *, check_range: bool = True) -> None:
        """The checks of one column that follow parsing every parameter."""
        if self.equal is not None and (self.lower or self.upper) and rules.range_and_equal:
            raise KeysetError(rules.range_and_equal.format(param=self.param))
        if rules.empty_range and check_range:
            low = self.lowest if self.lowest is not None else 0
            high = self.highest if self.highest is not None else MAX_LONG
            if low > high:
                raise KeysetError(rules.empty_range.format(param=self.param))

    @property
    def is_single_value(self) -> bool:
        """Both range bounds, admitting one value only."""
        return self.lower is not None and self.upper is not None and self.lowest == self.highest

    @property
    def is_empty(self) -> bool:
        return self.equal is None and self.lower is None and self.upper is None and not self.excluded

    @property
    def lowest(self) -> int | None:
        """The least value the bound admits (integers: `gt:5` admits 6), or None."""
        if self.equal is not None:
            return self.equal
        if self.lower is None:
            return None
        return self.lower.value + (self.lower.operator == "gt")

    @property
    def highest(self) -> int | None:
        if self.equal is not None:
            return self.equal
        if self.upper is None:
            return None
        return self.upper.value - (self.upper.operator == "lt")

    @property
    def has_lower(self) -> bool:
        return self.lower is not None

    @property
    def has_upper(self) -> bool:
        return self.upper is not None


@dataclass(frozen=True)
class Keyset:
    """The bounds of a sort key, primary column first."""

    bounds: tuple[Bound, ...]
    rules: BoundRules = field(default=NODE_RULES, compare=False)

    def __post_init__(self):
        primary = self.bounds[0]
        # Java checks a later column's range only when the primary is not bounded on both sides.
        primary_closed = (primary.lower or primary.equal is not None) and primary.upper
        self.bounds[0].check(self.rules)
        for bound in self.bounds[1:]:
            bound.check(self.rules.for_later_columns, check_range=not primary_closed)
        self._check_dependencies()

    def _check_dependencies(self) -> None:
        rules = self.rules
        for primary, secondary in zip(self.bounds, self.bounds[1:]):
            if secondary.is_empty:
                continue
            names = {"primary": primary.param, "secondary": secondary.param}
            if primary.is_empty and rules.missing_primary:
                raise KeysetError(rules.missing_primary.format(**names))
            if primary.equal is not None:
                continue
            checks = [
                (secondary.has_lower, primary.lower, "gte", rules.primary_lower),
                (secondary.has_upper, primary.upper, "lte", rules.primary_upper),
            ]
            for needed, primary_bound, operator, message in checks[::-1] if rules.java else checks:
                if needed and message and not (primary_bound and primary_bound.operator == operator):
                    raise KeysetError(message.format(**names))

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(bound.column for bound in self.bounds)

    @property
    def is_exact(self) -> bool:
        """Every column pinned by `eq`: at most one row, never a next page."""
        return all(bound.equal is not None for bound in self.bounds)

    def parts(self) -> list[list[Q]]:
        """The keyset as a union of conjunctions, each readable as one index range scan.

        With the primary column pinned by `eq`, or no range on a later column,
        every column's own comparisons simply apply together. Otherwise the
        primary range splits into a lower edge (primary = its lowest value and
        the later columns from their lower tuple on), a middle (the primary
        strictly inside) and an upper edge, as the upstream splits it. For
        ranges that are not degenerate this is exactly the lexicographic range
        of the module docstring; the upstream's answers for degenerate ones
        (an edge that is also the other edge) follow from the split, so it is kept.
        """
        primary, rest = self.bounds[0], self.bounds[1:]
        excluded = [Q(**{f"{bound.column}__ne": value}) for bound in self.bounds for value in bound.excluded]
        rest_equals = [Q(**{bound.column: bound.equal}) for bound in rest if bound.equal is not None]
        pinned = primary.equal is not None or (self.rules.java and primary.is_single_value)
        if pinned or not any(bound.lower or bound.upper for bound in rest):
            return [[*excluded, *(q for bound in self.bounds for q in _own_conditions(bound))]]

        column = primary.column
        lower_rest = _lexicographic(rest, "lower")
        upper_rest = _lexicographic(rest, "upper")
        # An exclusive primary bound (`gt`, `lt`) swallows its edge: the later columns do not narrow it.
        lower_edge = bool(primary.lower and primary.lower.operator == "gte" and lower_rest)
        upper_edge = bool(primary.upper and primary.upper.operator == "lte" and upper_rest)

        parts = []
        if lower_edge:
            parts.append([Q(**{column: primary.lowest}), *lower_rest, *rest_equals, *excluded])
        middle = [*rest_equals, *excluded]
        if primary.lower is not None:
            middle.append(Q(**{f"{column}__{'gt' if lower_edge else 'gte'}": primary.lowest}))
        if primary.upper is not None:
            middle.append(Q(**{f"{column}__{'lt' if upper_edge else 'lte'}": primary.highest}))
        parts.append(middle)
        if upper_edge:
            parts.append([Q(**{column: primary.highest}), *upper_rest, *rest_equals, *excluded])
        return parts

    def anchors(self, formats: Sequence[Callable], parses: Sequence[Callable] | None = None) -> tuple[Anchor, ...]:
        """`links.next` anchors: each column's parameter, inclusive unless it is the
        last column or the next one is pinned by `eq`."""
        anchors = []
        for index, bound in enumerate(self.bounds):
            following = self.bounds[index + 1] if index + 1 < len(self.bounds) else None
            inclusive = following is not None and following.equal is None
            parse = parses[index] if parses else int
            anchors.append(Anchor(bound.param, bound.column, format=formats[index], parse=parse, inclusive=inclusive))
        return tuple(anchors)


def _own_conditions(bound: Bound) -> list[Q]:
    conditions = []
    if bound.equal is not None:
        conditions.append(Q(**{bound.column: bound.equal}))
    for comparison in (bound.lower, bound.upper):
        if comparison is not None:
            conditions.append(Q(**{f"{bound.column}__{comparison.operator}": comparison.value}))
    return conditions


def _lexicographic(bounds: Sequence[Bound], side: str) -> list[Q]:
    """`(a, b) >= (x, y)` (side "lower") or `<=` over the leading columns with a bound on
    that side; [] when the first has none. A column bounded exclusively ends the tuple."""
    prefix = []
    for bound in bounds:
        comparison = bound.lower if side == "lower" else bound.upper
        value = bound.lowest if side == "lower" else bound.highest
        if value is None:
            break
        prefix.append((bound.column, value))
        if comparison is not None and comparison.operator in ("gt", "lt"):
            break
    tuple_lookup, lookup = (TupleGreaterThanOrEqual, "gte") if side == "lower" else (TupleLessThanOrEqual, "lte")
    if not prefix:
        return []
    if len(prefix) == 1:
        return [Q(**{f"{prefix[0][0]}__{lookup}": prefix[0][1]})]
    return [Q(tuple_lookup(Tuple(*(F(column) for column, _ in prefix)), [value for _, value in prefix]))]


def keyset_page(ordered: QuerySet, keyset: Keyset, limit: int) -> QuerySet:
    """The first `limit` rows of an ordered queryset within the keyset: one
    ordered, limited read per part, merged (`union all` as the upstream's Node
    service does, `union` as its Java one)."""
    parts = keyset.parts()
    if len(parts) == 1:
        return ordered.filter(*parts[0])[:limit]
    pages = [ordered.filter(*part)[:limit] for part in parts]
    return pages[0].union(*pages[1:], all=keyset.rules.union_all).order_by(*ordered.query.order_by)[:limit]
