"""The strict query dialect: how the routes the upstream serves from its Java service
(rest-java) read their query.

Such a route is built like any other (FilterSet, selector, serializer, viewset); its
FilterSet declares `dialect = STRICT` and its parameters with this module's filters:
`ValueFilter` for a parameter taking one value, `RangeFilter` for one taking comparisons.
The dialect differs from the Node routes' (`apps.common.query.filtersets.Dialect`) in:
- reading: names as sent, case-sensitive, and unknown names ignored; an empty value is
  no value (it still counts towards a `RangeFilter`'s size); a comparison's operator is
  read in any case (`LTE:5`), and an empty one is `eq`;
- refusing: the first parameter (in the order the FilterSet declares them, the Java
  controller's) with a value that does not convert, or with two values where it takes
  one, answers 400 with detail `Failed to convert '<name>'`; then a range parameter
  given more than twice `<name> size must be between 0 and 2`, then the route's own
  checks, then `limit` out of 1..100 (`limit must be greater than 0`,
  `limit must be less than or equal to 100`): larger is refused, not capped, and the
  default is 25. A keyset's parameters are checked in the order the FilterSet names them.
  Errors are `{"message": "Bad Request", "detail": "..."}` (`DetailedError`);
- linking: `links.next` is the Java service's (`pagination.strict_next_link`), which
  the criteria of this dialect choose (`PageCriteria.paged_params`); a full page is
  linked even when every column of its keyset is pinned.
"""

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from django import forms
from django.conf import settings

from apps.common.errors import DetailedError
from apps.common.ledger.codecs import (
    MAX_LONG,
    MAX_NUM,
    MAX_REALM,
    MAX_SHARD,
    encode_entity_id,
)
from apps.common.query.comparisons import ALL_OPERATORS, Comparison
from apps.common.query.filters import LastValueFilter, OperatorFilter
from apps.common.query.filtersets import Dialect, ListFilterSet, QueryFilterSet
from apps.common.query.pagination import Anchor

__all__ = (
    "STRICT",
    "RangeFilter",
    "StrictDialect",
    "StrictParams",
    "ValueFilter",
    "bad_request",
    "conversion_error",
    "java_long",
    "parse_comparison",
    "parse_java_boolean",
    "parse_java_entity_id",
    "parse_java_int",
    "parse_java_number",
    "read_booleans",
)

MAX_RANGE_VALUES = 2

_ENTITY_ID = re.compile(r"^(?:(\d+)\.)?(?:(\d+)\.)?(\d+)$")
_JAVA_INT = re.compile(r"[+-]?\d{1,10}")
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


def java_long(value: int) -> int:
    """`value` as a Java `long` computes it: wrapped into 64 bits on overflow (`gt:` the
    largest long bounds nothing)."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def parse_java_number(text: str) -> int:
    """A non-negative Java `long`."""
    if not text.isdigit() or int(text) > MAX_LONG:
        raise ValueError(f"Invalid number {text!r}")
    return int(text)


def parse_java_int(text: str) -> int:
    """A Java `int`, sign allowed (`limit`: its range is checked after every value converted)."""
    if not _JAVA_INT.fullmatch(text) or not -(1 << 31) <= int(text) < (1 << 31):
        raise ValueError(f"Invalid int {text!r}")
    return int(text)


def parse_java_boolean(text: str) -> bool:
    """As Spring converts a boolean: `true`/`on`/`yes`/`1` or `false`/`off`/`no`/`0`, in any case."""
    if text.lower() not in _TRUE | _FALSE:
        raise ValueError(f"Invalid boolean {text!r}")
    return text.lower() in _TRUE


def parse_comparison(text: str, parse_operand: Callable[[str], Any], operators=ALL_OPERATORS) -> Comparison:
    """`[op:]operand` as the Java service reads it: the operator in any case, an empty one `eq`."""
    operator, _, operand = text.rpartition(":")
    operator = operator.lower() or "eq"
    if operator not in operators:
        raise ValueError(f"Unsupported operator {operator!r}")
    return Comparison(operator, parse_operand(operand))


class StrictParams(dict):
    """The query as the Java service binds it: each name as sent with its values in order
    (a `QueryParams`), and `pairs`, every (name, value) in the order sent, which its
    `links.next` repeats."""

    def __init__(self, query_string: str):
        super().__init__()
        self.pairs = tuple(parse_qsl(query_string, keep_blank_values=True))
        for name, value in self.pairs:
            self.setdefault(name, []).append(value)


class StrictValuesField(forms.Field):
    """Every value of one parameter, converted as the Java service converts them: blank
    values are none, a parameter taking one value given more does not convert."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, parse_one: Callable[[str], Any], is_blank: Callable[[str], bool], single: bool, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.parse_one = parse_one
        self.is_blank = is_blank
        self.single = single

    def __deepcopy__(self, memo):
        # Stateless once built: a form may share it rather than copy it per request.
        return self

    def clean(self, values):
        values = [value for value in values or () if not self.is_blank(value)]
        try:
            if self.single and len(values) > 1:
                raise ValueError("one value expected")
            return [self.parse_one(value) for value in values]
        except ValueError:
            raise forms.ValidationError("invalid", code="invalid") from None


def _is_empty(text: str) -> bool:
    return text == ""


def _is_whitespace(text: str) -> bool:
    return not text.strip()


class ValueFilter(LastValueFilter):
    """A parameter taking one value (a Java scalar): `limit`, `order`, `owner`, `q`..."""

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = StrictValuesField(parse_one=self.parse_one, is_blank=_is_empty, single=True, label=self.label)
        return self._field


class RangeFilter(OperatorFilter):
    """A parameter of comparisons (a Java array of range parameters), read with
    `parse_comparison`: at most `max_values` values, empty ones included (None: any
    number). A blank value (only an empty one, unless `whitespace_is_blank`) compares nothing."""

    def __init__(self, *args, max_values: int | None = MAX_RANGE_VALUES, whitespace_is_blank: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_values = max_values
        self.is_blank = _is_whitespace if whitespace_is_blank else _is_empty

    def parse_one(self, text: str) -> Comparison:
        return parse_comparison(text, self.parser, self.operators)

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = StrictValuesField(
                parse_one=self.parse_one, is_blank=self.is_blank, single=False, label=self.label
            )
        return self._field


@dataclass(frozen=True)
class StrictDialect(Dialect):
    """The strict dialect (the module's docstring). A route binding its query to a request
    object rather than to controller parameters (`/network/nodes`) declares its own: its
    values that do not convert are `Invalid parameter: <name>`, and its `limit` has its
    own default and maximum, a larger one capped."""

    conversion_error: Callable[[str], Exception] = conversion_error
    limit_default: int = 25
    limit_max: int = 100
    caps_limit: bool = False

    def read(self, query_string: str) -> StrictParams:
        return StrictParams(query_string)

    def split(self, filterset: QueryFilterSet) -> tuple[dict, dict[str, list[str]]]:
        return {}, {name: values for name, values in filterset.params.items() if name in filterset.base_filters}

    def validate(self, filterset: QueryFilterSet) -> None:
        if not filterset.data:  # no parameter of the route's: nothing to convert or count
            return
        if not filterset.form.is_valid():
            for name, _ in filterset.declared_filters_in_order():
                if name in filterset.form.errors:
                    raise self.conversion_error(name)
        for name, maximum in _value_counts_limited(type(filterset)):
            if len(filterset.params.get(name, ())) > maximum:
                raise self.refusal(f"{name} size must be between 0 and {maximum}")

    def refusal(self, message: str) -> Exception:
        return bad_request(message)

    def limit(self, filterset: ListFilterSet) -> int:
        limit = filterset.value("limit", self.limit_default)
        if self.caps_limit:
            return min(limit, self.limit_max)
        if limit < 1:
            raise self.refusal("limit must be greater than 0")
        if limit > self.limit_max:
            raise self.refusal(f"limit must be less than or equal to {self.limit_max}")
        return limit

    def paged_params(self, filterset: ListFilterSet, anchors: tuple[Anchor, ...]) -> tuple[str, ...]:
        return tuple(anchor.param for anchor in anchors)

    def reporting_order(self, filterset: QueryFilterSet, names: Sequence[str]) -> list[str]:
        return list(names)

    # The Java service links a full page whatever its keyset.
    links_exact_keysets = True


STRICT = StrictDialect()


@functools.cache
def _value_counts_limited(filterset_class: type[QueryFilterSet]) -> tuple[tuple[str, int], ...]:
    """(name, most values) of the class's range parameters taking a limited number, in order."""
    return tuple(
        (name, filter_.max_values)
        for name, filter_ in filterset_class.declared_filters_in_order()
        if isinstance(filter_, RangeFilter) and filter_.max_values is not None
    )


def read_booleans(query_string: str, **defaults: bool) -> dict[str, bool]:
    """The boolean parameters (name=default, in the controller's order) of a route reading
    no other, read and refused by a FilterSet of the strict dialect."""
    filterset_class = _booleans_filterset(tuple(defaults))
    filterset = filterset_class(filterset_class.read_query(query_string))
    filterset.validate()
    return {name: filterset.value(name, default) for name, default in defaults.items()}


@functools.cache
def _booleans_filterset(names: tuple[str, ...]) -> type[QueryFilterSet]:
    filters = {
        f"boolean_{index}": ValueFilter(param=name, parser=parse_java_boolean) for index, name in enumerate(names)
    }
    return type("BooleansFilterSet", (QueryFilterSet,), {"dialect": STRICT, **filters})
