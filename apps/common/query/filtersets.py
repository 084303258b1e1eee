"""Base FilterSets: query validation with the upstream's messages, and paging.

A route's FilterSet declares its parameters as filters (see `filters.py`);
the base class adds what every route shares:
- a name that is not a declared parameter: `Unknown query parameter: <name>`;
- a bad value: `Invalid parameter: <name>`, once per bad value.
(Too many fields or values are refused as the query is read: `params.py`.)
All messages of a request are reported together as one `InvalidArgument`, in
the order of the upstream's filter validation (bad values, then unknown names), or, for routes the upstream validates parameter by parameter
(`messages_in_query_order`), in the order of the query.

Built once per class, not per request: the declared filters, the form class
and its fields (`QueryForm`) are shared by every instance (django-filter would
deep-copy the filters for each instance, on every request), so a filter must keep
no per-request state.

`ListFilterSet` adds `limit` (default and maximum from settings, or the
authenticated user's maximum; larger values are capped) and `order`, and turns a
valid query into the route's criteria (`criteria()`, a `PageCriteria` unless the
route declares its own), which its selector reads.

These are the rules of the upstream's Node routes, the `NODE` dialect every FilterSet
reads its query in unless it declares another: the routes the upstream serves from its
Java service declare `dialect = STRICT` (`apps.common.query.strict`), which reads, refuses
and links as that service does, with the same filters, criteria and selectors.
"""

import copy
import functools
from collections.abc import Callable, Sequence

import django_filters
from django.conf import settings
from django.utils.datastructures import MultiValueDict

from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import OutOfRangeEntityId, parse_positive_long
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import (
    LIMIT_DESCRIPTION,
    ORDER_DESCRIPTION,
    LastValueFilter,
    MirrorFilter,
    OperatorFilter,
    QueryForm,
    operator_ignored,
    parse_order,
)
from apps.common.query.keyset import NODE_RULES, Bound, BoundRules, Keyset, KeysetError
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.common.query.params import QueryParams, parse_query_string


def _once_valid(validate):
    """`validate` returning at once on an instance that passed it: a request's query is
    validated from several places (its page, its shape, its keyset, its links)."""

    @functools.wraps(validate)
    def validate_once(self) -> None:
        state = self.__dict__.get("_validation")
        if state == "passed":
            return
        if state == "running":  # a parent's checks, within a subclass's (`super().validate()`)
            validate(self)
            return
        self._validation = "running"
        try:
            validate(self)
        except BaseException:
            self._validation = None
            raise
        self._validation = "passed"

    return validate_once


class Dialect:
    """How a FilterSet reads its query string, refuses a bad query, caps `limit` and has its
    `links.next` built: the upstream's Node routes' (the module's docstring).
    `apps.common.query.strict` holds the other one."""

    def read(self, query_string: str) -> QueryParams:
        return parse_query_string(query_string)

    def split(self, filterset: "QueryFilterSet") -> tuple[dict[str, dict[str, str]], QueryParams]:
        """Messages (by name) for unknown names, and the parameters left to validate."""
        unknown, usable = {}, {}
        for name, values in filterset.params.items():
            if name in filterset.base_filters:
                usable[name] = values
            else:
                unknown[name] = f"Unknown query parameter: {name}"
        return {"unknown": unknown}, usable

    def validate(self, filterset: "QueryFilterSet") -> None:
        """Raises InvalidArgument with every problem of the query."""
        invalid = {}
        if not filterset.form.is_valid():
            for name in filterset.params:
                invalid[name] = [f"Invalid parameter: {name}" for _ in filterset.form.errors.get(name, ())]
        unknown = filterset.messages["unknown"]
        if filterset.messages_in_query_order:
            messages = []
            for name in filterset.params:
                messages.extend([unknown[name]] if name in unknown else invalid.get(name, ()))
        else:
            messages = [*(m for ms in invalid.values() for m in ms), *unknown.values()]
        if messages:
            raise InvalidArgument(*messages)
        if filterset.data:
            _refuse_out_of_range_entity_ids(filterset.form.cleaned_data)

    def refusal(self, message: str) -> Exception:
        """The error refusing a query that converted (an empty range, a missing bound...)."""
        return InvalidArgument(message)

    def limit(self, filterset: "ListFilterSet") -> int:
        if filterset.default_limit is not None and filterset.value("limit") is None:
            return filterset.default_limit
        user_maximum = getattr(filterset.request, "mirror_limit_max", None)
        maximum = user_maximum or settings.MIRROR["LIMIT_MAX"]
        return min(filterset.value("limit", settings.MIRROR["LIMIT_DEFAULT"]), maximum)

    def paged_params(self, filterset: "ListFilterSet", anchors: tuple[Anchor, ...]) -> tuple[str, ...] | None:
        """What `PageCriteria.paged_params` says of this dialect's links: nothing."""
        return None

    def reporting_order(self, filterset: "QueryFilterSet", names: Sequence[str]) -> list[str]:
        """`names` in the order their problems are reported: those the query names first, in its order."""
        named = [name for name in filterset.params if name in names]
        return named + [name for name in names if name not in named]

    # Whether a page of a keyset every column of which is pinned by `eq` links to a next one.
    links_exact_keysets = False


NODE = Dialect()


def _refuse_out_of_range_entity_ids(cleaned_data: dict) -> None:
    """The first entity id of a valid query that names no entity (`OutOfRangeEntityId`):
    the upstream refuses it as it builds its filters, after every parameter passed."""
    for values in cleaned_data.values():
        for value in values:
            operand = value.value if isinstance(value, Comparison) else value
            if isinstance(operand, OutOfRangeEntityId):
                raise InvalidArgument(operand.message)


class QueryFilterSet(django_filters.FilterSet):
    messages_in_query_order = False
    dialect: Dialect = NODE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Each override is wrapped; only the outermost call of a chain marks the instance.
        if "validate" in cls.__dict__:
            cls.validate = _once_valid(cls.__dict__["validate"])

    def __init__(self, params: QueryParams, *, request=None):
        """`params` as the FilterSet's dialect reads them (`read_query`)."""
        # What django-filter's __init__ sets, with the filters shared instead of copied.
        self.params = params
        self.messages, usable = self.dialect.split(self)
        self.is_bound = True
        self.data = MultiValueDict(usable)
        self.queryset = None
        self.request = request
        self.form_prefix = None
        self.filters = self._shared_filters()

    @classmethod
    def read_query(cls, query_string: str) -> QueryParams:
        """The query string as this FilterSet's dialect reads it."""
        return cls.dialect.read(query_string)

    @classmethod
    def _shared_filters(cls) -> dict:
        if "_filters" not in cls.__dict__:
            cls._filters = copy.deepcopy(cls.base_filters)
        return cls._filters

    @property
    def form(self):
        if self.data:
            return super().form
        # A query with nothing to convert: every such request of the class shares one
        # validated form (its fields keep no per-request state).
        cls = type(self)
        if "_empty_form" not in cls.__dict__:
            form = self.get_form_class()(MultiValueDict())
            form.is_valid()
            cls._empty_form = form
        return cls._empty_form

    @classmethod
    def declared_filters_in_order(cls) -> tuple:
        """(name, filter) as the classes declare them: a redeclared `limit` keeps its inherited place."""
        if "_declared_in_order" not in cls.__dict__:
            cls._declared_in_order = tuple(
                sorted(cls._shared_filters().items(), key=lambda item: item[1].creation_counter)
            )
        return cls._declared_in_order

    def get_form_class(self):
        cls = type(self)
        if "_form_class" not in cls.__dict__:
            fields = {name: filter_.field for name, filter_ in self.filters.items()}
            cls._form_class = type(f"{cls.__name__}Form", (QueryForm,), fields)
        return cls._form_class

    @classmethod
    def get_filters(cls):
        filters = super().get_filters()
        return {
            (f.param if isinstance(f, MirrorFilter) and f.param else name): f for name, f in filters.items()
        }

    @_once_valid
    def validate(self) -> None:
        """Raises the dialect's error for a bad query; once it passed, returns at once."""
        self.dialect.validate(self)

    def value(self, name: str, default=None):
        values = self.form.cleaned_data.get(name)
        return values[-1] if values else default


class ListFilterSet(QueryFilterSet):
    # Upstream validates an operator written before these (`limit=eq:2`) and then drops it.
    limit = LastValueFilter(parser=operator_ignored(parse_positive_long), description=LIMIT_DESCRIPTION)
    order = LastValueFilter(parser=operator_ignored(parse_order), description=ORDER_DESCRIPTION)

    default_order = "asc"
    # `/accounts` and `/balances` read `order` only when it is given once and without an
    # operator: upstream takes the default otherwise (every value is still validated).
    bare_order_only = False
    ordering_fields: tuple[str, ...] = ()
    # A route whose default page size is fixed (and not capped) rather than read per request.
    default_limit: int | None = None
    # The parameters `links.next` moves past the page's last row, primary first.
    pagination: tuple[Anchor, ...] = ()
    # A `KeysetFilterSet`'s key parameters: they apply together, as its keyset, not one by one.
    keyset_params: tuple[str, ...] = ()

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        """The valid query as the selector's criteria; `scope` holds the ids of the path the
        rows are read under. A route with criteria of its own overrides this."""
        self.validate()
        comparisons, columns, options = {}, {}, {}
        for name, parsed in self.form.cleaned_data.items():
            filter_ = self.filters[name]
            if isinstance(filter_, OperatorFilter):
                comparisons[name] = tuple(parsed)
                if filter_.column and name not in self.keyset_params:
                    columns[name] = (filter_.column, filter_.merge_equals)
            elif name not in ("limit", "order") and parsed:
                options[name] = parsed[-1]
        anchors = self.pagination_anchors()
        return PageCriteria(
            query=self.params,
            comparisons=comparisons,
            columns=columns,
            options=options,
            order=self.order_value,
            order_by=self.order_by_fields(),
            limit=self.limit_value,
            anchors=anchors,
            paged_params=self.dialect.paged_params(self, anchors),
            keyset=self.query_keyset(),
            matches_nothing=self.matches_nothing(),
            scope=scope,
        )

    def query_keyset(self) -> Keyset | None:
        """The multi-column keyset the query bounds, for a `KeysetFilterSet`."""
        return None

    def matches_nothing(self) -> bool:
        """Whether no row can match the valid query, whatever else it says."""
        return False

    def pagination_anchors(self) -> tuple[Anchor, ...]:
        return self.pagination

    @property
    def limit_value(self) -> int:
        return self.dialect.limit(self)

    @property
    def order_value(self) -> str:
        orders = self.form.cleaned_data.get("order")
        if not orders:
            return self.default_order
        if self.bare_order_only and (len(orders) > 1 or ":" in self.params["order"][0]):
            return self.default_order
        return orders[-1]

    def order_by_fields(self) -> tuple[str, ...]:
        return self.ordering_fields


class KeyFilter(OperatorFilter):
    """One column of a `KeysetFilterSet`'s sort key: validated like any comparison
    parameter, applied with the other columns as one keyset (`apps.common.query.keyset`)."""


class KeysetFilterSet(ListFilterSet):
    """A list ordered by a multi-column key whose columns are `KeyFilter` parameters.

    `keyset_params` names them, primary first; the rows come in the order of their
    columns. `anchor_codecs` holds each column's (format, parse) for `links.next`, which
    has no anchors when every column is pinned by `eq` (unless the dialect links such pages)."""

    keyset_rules: BoundRules = NODE_RULES
    anchor_codecs: tuple[tuple[Callable, Callable], ...] = ()

    def validate(self) -> None:
        super().validate()
        if not hasattr(self, "_keyset"):
            if not any(self.form.cleaned_data.get(param) for param in self.keyset_params):
                self._keyset = self._unbounded_keyset()
                return
            nothing = self.matches_nothing()
            # Parameters parse in the order the upstream reports the first problem in.
            order = self.dialect.reporting_order(self, self.keyset_params)
            try:
                bounds = {
                    param: Bound.of(param, self.key_column(param), self._key_comparisons(param), self.keyset_rules)
                    for param in order
                }
                keyset = Keyset(tuple(bounds[param] for param in self.keyset_params), self.keyset_rules)
            except KeysetError as error:
                raise self.dialect.refusal(str(error)) from None
            # A key naming nothing still obeys the rules (checked with an id in its place); then no row matches.
            self._keyset = None if nothing else keyset

    def _unbounded_keyset(self) -> Keyset:
        """The keyset of a query bounding no key column, which nothing can refuse: one per
        set of key columns, built once (most requests name no key)."""
        columns = tuple(self.key_column(param) for param in self.keyset_params)
        kept = type(self).__dict__.get("_unbounded_keysets")
        if kept is None:
            kept = type(self)._unbounded_keysets = {}
        if (found := kept.get(columns)) is None:
            bounds = tuple(Bound(param, column) for param, column in zip(self.keyset_params, columns, strict=True))
            found = kept[columns] = Keyset(bounds, self.keyset_rules)
        return found

    def _key_comparisons(self, param: str) -> tuple[Comparison, ...]:
        return tuple(
            Comparison(comparison.operator, 0) if comparison.value is None else comparison
            for comparison in self.form.cleaned_data.get(param) or ()
        )

    def key_column(self, param: str) -> str:
        """The column of a key parameter (its filter's, unless the query decides it)."""
        return self.filters[param].column

    @property
    def keyset(self) -> Keyset | None:
        self.validate()
        return self._keyset

    def order_by_fields(self) -> tuple[str, ...]:
        return tuple(self.key_column(param) for param in self.keyset_params)

    def query_keyset(self) -> Keyset | None:
        return self.keyset

    def matches_nothing(self) -> bool:
        """A key compared with an id that names nothing (an EVM address no entity holds, None)."""
        return any(
            comparison.value is None for param in self.keyset_params for comparison in self.form.cleaned_data.get(param) or ()
        )

    def pagination_anchors(self) -> tuple[Anchor, ...]:
        keyset = self.keyset
        if keyset is None or (keyset.is_exact and not self.dialect.links_exact_keysets):
            return ()
        # The anchors follow from the key's columns and which of them `eq` pins: built once per such shape.
        shape = tuple((bound.column, bound.equal is None) for bound in keyset.bounds)
        anchors = type(self).__dict__.get("_anchors")
        if anchors is None:
            anchors = type(self)._anchors = {}
        if (found := anchors.get(shape)) is None:
            formats, parses = zip(*self.anchor_codecs)
            found = anchors[shape] = keyset.anchors(formats, parses)
        return found
