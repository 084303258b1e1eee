"""Base FilterSets: query validation with the upstream's messages, and paging.

A route's FilterSet declares its parameters as filters (see `filters.py`);
the base class adds what every route shares:
- a name that is not a declared parameter: `Unknown query parameter: <name>`;
- more values of one parameter than `MAX_REPEATED_QUERY_PARAMETERS`:
  `Parameter values count exceeds maximum number allowed: <name> count: <n> max: <max>`;
- a bad value: `Invalid parameter: <name>`, once per bad value.
All messages of a request are reported together as one `InvalidArgument`, in
the order of the upstream's filter validation (counts, then bad values, then
unknown names), or, for routes the upstream validates parameter by parameter
(`messages_in_query_order`), in the order of the query.

Built once per class, not per request: the declared filters, the form class
and its fields (`QueryForm`) are shared by every instance (django-filter deep-copies the filters for
each instance, which cost a third of a request), so a filter must keep no
per-request state; a `method=` filter calls that method of the instance at hand
(`filter_queryset`), not of the instance its filter was first bound to.

`ListFilterSet` adds `limit` (default and maximum from settings, or the
authenticated user's maximum; larger values are capped) and `order`, and orders
the queryset by `ordering_fields` in that direction.
"""

import copy
import functools

from django.conf import settings
from django.utils.datastructures import MultiValueDict
import django_filters
from django_filters.constants import EMPTY_VALUES

from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_positive_long
from apps.common.compiled import CompiledQuery
from apps.common.filters import Comparison, LastValueFilter, MirrorFilter, QueryForm, operator_ignored, parse_order
from apps.common.query import QueryParams


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


class QueryFilterSet(django_filters.FilterSet):
    messages_in_query_order = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Each override is wrapped; only the outermost call of a chain marks the instance.
        if "validate" in cls.__dict__:
            cls.validate = _once_valid(cls.__dict__["validate"])

    def __init__(self, params: QueryParams, queryset=None, *, request=None):
        # What django-filter's __init__ sets, with the filters shared instead of copied.
        self.params = params
        self.messages, usable = self._split_params()
        self.is_bound = True
        self.data = MultiValueDict(usable)
        # Validation alone (a detail route's query) needs no queryset.
        self.queryset = queryset
        self.request = request
        self.form_prefix = None
        self.filters = self._shared_filters(self._meta.model if queryset is None else queryset.model)

    @classmethod
    def _shared_filters(cls, model) -> dict:
        if "_filters" not in cls.__dict__:
            filters = copy.deepcopy(cls.base_filters)
            if model is not None:
                for filter_ in filters.values():
                    filter_.model = model
            cls._filters = filters
        return cls._filters

    def filter_queryset(self, queryset):
        for name, value in self.form.cleaned_data.items():
            filter_ = self.filters[name]
            if filter_.method is None:
                queryset = filter_.filter(queryset, value)
            elif value not in EMPTY_VALUES:
                # The shared filter's own method binding would reach another request's instance.
                queryset = getattr(self, filter_.method)(queryset, filter_.field_name, value)
        return queryset

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

    def _split_params(self) -> tuple[dict[str, dict[str, str]], QueryParams]:
        """Messages (by name) for repeated and unknown names, and the parameters left to validate."""
        maximum = settings.MIRROR["MAX_REPEATED_QUERY_PARAMETERS"]
        too_many, unknown, usable = {}, {}, {}
        for name, values in self.params.items():
            if len(values) > maximum:
                too_many[name] = (
                    f"Parameter values count exceeds maximum number allowed: {name} "
                    f"count: {len(values)} max: {maximum}"
                )
            elif name not in self.base_filters:
                unknown[name] = f"Unknown query parameter: {name}"
            else:
                usable[name] = values
        return {"too_many": too_many, "unknown": unknown}, usable

    @_once_valid
    def validate(self) -> None:
        """Raises InvalidArgument with every problem of the query; once it passed, returns at once."""
        invalid = {}
        if not self.form.is_valid():
            for name in self.params:
                invalid[name] = [f"Invalid parameter: {name}" for _ in self.form.errors.get(name, ())]
        too_many, unknown = self.messages["too_many"], self.messages["unknown"]
        if self.messages_in_query_order:
            messages = []
            for name in self.params:
                rejected = too_many.get(name) or unknown.get(name)
                messages.extend([rejected] if rejected else invalid.get(name, ()))
        else:
            messages = [*too_many.values(), *(m for ms in invalid.values() for m in ms), *unknown.values()]
        if messages:
            raise InvalidArgument(*messages)

    def value(self, name: str, default=None):
        values = self.form.cleaned_data.get(name)
        return values[-1] if values else default

    @property
    def qs(self):
        self.validate()
        return super().qs


class ListFilterSet(QueryFilterSet):
    # Upstream validates an operator written before these (`limit=eq:2`) and then drops it.
    limit = LastValueFilter(parser=operator_ignored(parse_positive_long))
    order = LastValueFilter(parser=operator_ignored(parse_order))

    default_order = "asc"
    # `/accounts` and `/balances` read `order` only when it is given once and without an
    # operator: upstream takes the default otherwise (every value is still validated).
    bare_order_only = False
    ordering_fields: tuple[str, ...] = ()
    # A route whose default page size is fixed (and not capped) rather than read per request.
    default_limit: int | None = None
    # `page_rows` compiles the page's query once per shape (see apps.common.compiled): only
    # for a FilterSet whose query's structure depends on the parameter names, their order
    # and operators, never on the values, over the same queryset on every request.
    compiled_page = False

    def page_rows(self) -> list:
        """The first `limit_value` rows of `qs`."""
        shaped = self._page_shape() if self.compiled_page else None
        if shaped is None:
            return list(self.qs[: self.limit_value])
        shape, values, marked = shaped
        return self._compiled_pages().rows(
            *values, shape=shape, build=lambda *markers: self._page_queryset(marked(markers))
        )

    def _page_shape(self):
        """(shape, values, markers -> cleaned data) when every value is an integer comparison."""
        self.validate()
        data = self.form.cleaned_data
        compared, values = [], []
        for name, parsed in data.items():
            if parsed and not isinstance(self.filters[name], LastValueFilter):
                if not all(isinstance(c, Comparison) and _is_integer(c.value) for c in parsed):
                    return None
                compared.append((name, tuple(c.operator for c in parsed)))
                values.extend(c.value for c in parsed)
        shape = (tuple(self.params), tuple(compared), self.order_value, self.limit_value)

        def marked(markers) -> dict:
            markers = iter(markers)
            return {
                **data,
                **{name: [Comparison(operator, next(markers)) for operator in operators] for name, operators in compared},
            }

        return shape, values, marked

    def _page_queryset(self, cleaned_data: dict):
        real = self.form.cleaned_data
        self.form.cleaned_data = cleaned_data
        try:
            return self.filter_queryset(self.queryset.all())[: self.limit_value]
        finally:
            self.form.cleaned_data = real

    @classmethod
    def _compiled_pages(cls) -> CompiledQuery:
        if "_pages" not in cls.__dict__:
            cls._pages = CompiledQuery()
        return cls._pages

    @property
    def limit_value(self) -> int:
        if self.default_limit is not None and self.value("limit") is None:
            return self.default_limit
        user_maximum = getattr(self.request, "mirror_limit_max", None)
        maximum = user_maximum or settings.MIRROR["LIMIT_MAX"]
        return min(self.value("limit", settings.MIRROR["LIMIT_DEFAULT"]), maximum)

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

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        prefix = "-" if self.order_value == "desc" else ""
        return queryset.order_by(*(prefix + field for field in self.order_by_fields()))


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
