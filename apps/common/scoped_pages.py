"""Compiled pages of lists under a path id (`/accounts/{id}/rewards`, `/topics/{id}/messages`).

`ListFilterSet.compiled_page` compiles a page's query once per shape, over the
same queryset on every request. A list under a path id reads a queryset
narrowed by that id first: `ScopedPageFilterSet` makes the id (the scope) a
parameter of the compiled statement too, and builds the narrowed queryset only
when it compiles a shape, or when the query holds a value that is not an
integer comparison (that page is then built per request as any other).

The view (`ScopedPages` mixin) names the scope's values and the selector
that narrows the queryset by them:

    class StakingRewardViewSet(ScopedPages, MirrorViewSet):
        def page_scope(self):
            return (self.account_id(),)

        def scoped_queryset(self, account_id):
            return selectors.staking_reward_queryset(account_id=account_id)

The scope's values must be integers, as every compiled value (see `compiled`).

A list that answers 404 when the scope's parent row is missing (an account's rewards)
names that row's queryset too (`scope_parent`): a compiled page then also tells whether
the parent exists (`parent_exists`), in the same statement. An empty page would otherwise
take a second round trip to tell "no rows" from "no parent".
"""

from collections.abc import Callable

from django.db.models import IntegerField, QuerySet, Value

from apps.common.filtersets import ListFilterSet
from apps.common.query import QueryParams


class ScopedPageFilterSet(ListFilterSet):
    compiled_page = True

    def __init__(
        self,
        params: QueryParams,
        queryset=None,
        *,
        request=None,
        scope: tuple[int, ...] = (),
        scoped: Callable[..., QuerySet] | None = None,
        parent: Callable[..., QuerySet] | None = None,
    ):
        super().__init__(params, queryset, request=request)
        self.scope = scope
        self.scoped = scoped
        self.parent = parent
        # Whether the scope's parent row exists, when the page read told (see the module's doc).
        self.parent_exists: bool | None = None

    def page_rows(self) -> list:
        self.validate()
        shaped = self._page_shape() if self._compilable() else None
        if shaped is None:
            self.queryset = self.scoped(*self.scope)
            return list(self.qs[: self.limit_value])
        shape, values, marked = shaped
        count = len(self.scope)
        rows = self._compiled_pages().rows(
            *self.scope,
            *values,
            shape=(shape, self.parent is not None),
            build=lambda *markers: self._scoped_page(markers[:count], marked(markers[count:])),
        )
        if self.parent is not None:
            # The page's rows, then one row of nulls when the parent exists: UNION ALL of a
            # statement this small is a plain Append, which returns its branches in turn
            # (and no row of a page is all nulls).
            self.parent_exists = bool(rows) and all(value is None for value in rows[-1].values())
            if self.parent_exists:
                rows.pop()
        return rows

    def _compilable(self) -> bool:
        # A keyset's bounds are worked out from the values themselves (`keyset.Bound`), so a
        # query bounding a keyset column is built per request.
        data = self.form.cleaned_data
        return not any(data.get(param) for param in getattr(self, "keyset_params", ()))

    def _scoped_page(self, scope_markers: tuple[int, ...], cleaned_data: dict) -> QuerySet:
        # Filters may read `self.queryset` (a subquery of the same rows), so it is the marked one too.
        self.queryset = self.scoped(*scope_markers)
        page = self._page_queryset(cleaned_data)
        if self.parent is None:
            return page
        query = page.query
        width = len(query.selected or (*query.extra_select, *query.values_select, *query.annotation_select))
        nulls = {f"parent_{index}": Value(None, output_field=IntegerField()) for index in range(width)}
        return page.union(self.parent(*scope_markers).values(**nulls), all=True)


class ScopedPages:
    """A `MirrorViewSet` mixin for a list whose FilterSet is a `ScopedPageFilterSet`."""

    def page_scope(self) -> tuple[int, ...]:
        raise NotImplementedError

    def scoped_queryset(self, *scope: int) -> QuerySet:
        raise NotImplementedError

    def get_queryset(self):
        return self.scoped_queryset(*self.page_scope())

    # The scope's parent row as a queryset, for a list that answers 404 without it.
    scope_parent: Callable[..., QuerySet] | None = None

    def get_filterset(self, filterset_class):
        if not issubclass(filterset_class, ScopedPageFilterSet):
            return super().get_filterset(filterset_class)
        return filterset_class(
            self.query_params(),
            request=self.request,
            scope=self.page_scope(),
            scoped=self.scoped_queryset,
            parent=self.scope_parent,
        )
