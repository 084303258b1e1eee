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

`ListFilterSet` adds `limit` (default and maximum from settings, or the
authenticated user's maximum; larger values are capped) and `order`, and orders
the queryset by `ordering_fields` in that direction.
"""

from django.conf import settings
from django.utils.datastructures import MultiValueDict
import django_filters

from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_positive_long
from apps.common.filters import LastValueFilter, MirrorFilter, parse_order
from apps.common.query import QueryParams


class QueryFilterSet(django_filters.FilterSet):
    messages_in_query_order = False

    def __init__(self, params: QueryParams, queryset=None, *, request=None):
        self.params = params
        self.messages, usable = self._split_params()
        super().__init__(MultiValueDict(usable), queryset=queryset, request=request)

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

    def validate(self) -> None:
        """Raises InvalidArgument with every problem of the query."""
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
    limit = LastValueFilter(parser=parse_positive_long)
    order = LastValueFilter(parser=parse_order)

    default_order = "asc"
    ordering_fields: tuple[str, ...] = ()
    # A route whose default page size is fixed (and not capped) rather than read per request.
    default_limit: int | None = None

    @property
    def limit_value(self) -> int:
        if self.default_limit is not None and self.value("limit") is None:
            return self.default_limit
        user_maximum = getattr(self.request, "mirror_limit_max", None)
        maximum = user_maximum or settings.MIRROR["LIMIT_MAX"]
        return min(self.value("limit", settings.MIRROR["LIMIT_DEFAULT"]), maximum)

    @property
    def order_value(self) -> str:
        return self.value("order", self.default_order)

    def order_by_fields(self) -> tuple[str, ...]:
        return self.ordering_fields

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        prefix = "-" if self.order_value == "desc" else ""
        return queryset.order_by(*(prefix + field for field in self.order_by_fields()))
