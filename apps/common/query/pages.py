"""A list route's criteria, and the shared machinery that reads a page of rows from them.

A route's FilterSet turns a valid query into `PageCriteria` (`ListFilterSet.criteria`);
the route's selector reads the page from them. For a page that is one queryset, the
selector hands a builder to `CompiledPages`:

    _BLOCKS = CompiledPages(lambda criteria: narrow(block_queryset(), criteria))

    def block_list(criteria: PageCriteria) -> list[dict]:
        return _BLOCKS.rows(criteria)

`narrow` applies the comparisons of every parameter that names a column, and the
order; `CompiledPages` takes the builder's ordered rows up to the limit (within a
multi-column keyset when the criteria carry one), and compiles
the page's statement once per shape (`apps.common.query.compiled`): the parameters'
names and order, their operators, the options, the order and the limit, never the
values. A page whose criteria hold a value that is not an integer, or bound a keyset,
is built per request.

A list under a path id (`/accounts/{id}/rewards`) carries the id in `criteria.scope`,
compiled as a parameter like any value. A list that answers 404 when the scope's parent
row is missing names that row (`parent=`): a compiled page then tells in the same
statement whether the parent exists, sparing an empty page a second round trip.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import IntegerField, QuerySet, Value

from apps.common.query.comparisons import Comparison, filter_by
from apps.common.query.compiled import CompiledQuery
from apps.common.query.keyset import Keyset, keyset_page
from apps.common.query.pagination import Anchor
from apps.common.query.params import QueryParams


@dataclass(frozen=True)
class PageCriteria:
    """What a list route selects, as its FilterSet validated it.

    `comparisons` holds every comparison parameter's comparisons, by parameter (in query
    order); `columns` the (column, whether `eq` values are ORed) of those the shared
    machinery applies; `options` the last value of every other parameter given.
    `query` is the query as read, which `links.next` repeats. A query of the strict dialect
    (`apps.common.query.strict`) names in `paged_params` every parameter its route pages by:
    its `links.next` is built as the upstream's Java service builds it."""

    query: QueryParams
    comparisons: Mapping[str, tuple[Comparison, ...]]
    columns: Mapping[str, tuple[str, bool]]
    options: Mapping[str, Any]
    order: str
    order_by: tuple[str, ...]
    limit: int
    anchors: tuple[Anchor, ...] = ()
    paged_params: tuple[str, ...] | None = None
    keyset: Keyset | None = None
    scope: tuple = ()
    # No row can match (a key compared with an id that names nothing): the page is empty.
    matches_nothing: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, param: str) -> tuple[Comparison, ...]:
        return self.comparisons.get(param, ())

    def replaced(self, **changes) -> "PageCriteria":
        """A copy with `changes`: `dataclasses.replace` without its constructor call, which
        reads every field again (criteria are replaced on every request's path)."""
        unknown = changes.keys() - self.__dict__.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__, **changes)
        return clone

    def option(self, param: str, default=None):
        return self.options.get(param, default)


def narrow(queryset: QuerySet, criteria: PageCriteria) -> QuerySet:
    """`queryset` narrowed by the criteria's column comparisons, in the criteria's order."""
    for param, (column, merge_equals) in criteria.columns.items():
        queryset = filter_by(queryset, column, criteria.comparisons[param], merge_equals=merge_equals)
    prefix = "-" if criteria.order == "desc" else ""
    return queryset.order_by(*(prefix + column for column in criteria.order_by))


def page_of(ordered: QuerySet, criteria: PageCriteria) -> QuerySet:
    """The first `limit` rows of an ordered queryset, within the criteria's keyset if any."""
    if criteria.keyset is not None:
        return keyset_page(ordered, criteria.keyset, criteria.limit)
    return ordered[: criteria.limit]


class CompiledPages:
    """The pages one builder reads, compiled per shape (see the module's docstring)."""

    def __init__(
        self,
        build: Callable[[PageCriteria], QuerySet],
        *,
        parent: Callable[[PageCriteria], QuerySet] | None = None,
    ):
        self._build = build
        self._parent = parent
        self._compiled = CompiledQuery()

    def rows(self, criteria: PageCriteria) -> list[dict]:
        return self.rows_and_parent(criteria)[0]

    def rows_and_parent(self, criteria: PageCriteria) -> tuple[list[dict], bool | None]:
        """The page's rows, and whether the scope's parent exists (None: not told)."""
        shaped = _shape(criteria)
        if shaped is None:
            return list(page_of(self._build(criteria), criteria)), None
        shape, values = shaped
        rows = self._compiled.rows(
            *values,
            shape=(shape, self._parent is not None),
            build=lambda *markers: self._marked_page(_marked(criteria, markers)),
        )
        if self._parent is None:
            return rows, None
        # The page's rows, then one row of nulls when the parent exists: UNION ALL of a
        # statement this small is a plain Append, which returns its branches in turn
        # (and no row of a page is all nulls).
        parent_exists = bool(rows) and all(value is None for value in rows[-1].values())
        if parent_exists:
            rows.pop()
        return rows, parent_exists

    def _marked_page(self, criteria: PageCriteria) -> QuerySet:
        page = page_of(self._build(criteria), criteria)
        if self._parent is None:
            return page
        query = page.query
        width = len(query.selected or (*query.extra_select, *query.values_select, *query.annotation_select))
        nulls = {f"parent_{index}": Value(None, output_field=IntegerField()) for index in range(width)}
        return page.union(self._parent(criteria).values(**nulls), all=True)


def _shape(criteria: PageCriteria) -> tuple[tuple, list[int]] | None:
    """(shape, values) of compilable criteria: every value an integer, no keyset bound."""
    if criteria.keyset is not None and not all(bound.is_empty for bound in criteria.keyset.bounds):
        return None
    values = list(criteria.scope)
    operators = []
    for param, comparisons in criteria.comparisons.items():
        if not comparisons:
            continue
        if not all(_is_integer(comparison.value) for comparison in comparisons):
            return None
        operators.append((param, tuple(comparison.operator for comparison in comparisons)))
        values.extend(comparison.value for comparison in comparisons)
    if not all(_is_integer(value) for value in criteria.scope):
        return None
    shape = (
        tuple(criteria.query),
        tuple(operators),
        tuple(sorted(criteria.options.items())),
        tuple(sorted(criteria.extra.items())),
        criteria.order,
        criteria.order_by,
        criteria.limit,
    )
    return shape, values


def _marked(criteria: PageCriteria, markers: tuple) -> PageCriteria:
    """The criteria with each value replaced by its marker, in `_shape`'s order."""
    markers = iter(markers)
    scope = tuple(next(markers) for _ in criteria.scope)
    comparisons = {
        param: tuple(Comparison(comparison.operator, next(markers)) for comparison in comparisons)
        for param, comparisons in criteria.comparisons.items()
    }
    return criteria.replaced(scope=scope, comparisons=comparisons)


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
