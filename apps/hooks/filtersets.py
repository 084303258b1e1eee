"""Query parameters of the hook routes, which the upstream serves from its Java service:
FilterSets of the strict dialect (`apps.common.query.strict`), read as Spring binds the
controller's parameters.

- A parameter bound to an array or a list (`hook.id`, `key`, `timestamp`) given once is a
  comma-separated list, each item trimmed (`hook.id=1,2`); given more than once, each value
  is one item as sent. A blank item counts towards the parameter's size and compares nothing.
- `limit` and the path's `hookId` are numbers as Spring converts them: whitespace anywhere
  ignored, decimal or `0x`/`#` hex.
- Values that do not convert answer `Failed to convert '<name>'` for the first parameter in
  the controller's order; then every constraint the values break answers at once, one
  message each, in the controller's order (`hookId must be greater than or equal to 0`,
  `<java name> size must be between 0 and <n>`, the `limit` bounds).

`hook.id` (NumberRangeParameter): `[op:]number`, the operator in any case, `ne` accepted and
ignored. The `eq` values select hooks by id, within the tightest lower and upper bounds.

`key` (SlotRangeParameter): `[op:][0x]hex` of 1 to 64 digits, left-padded to 32 bytes, the
operator in lower case; `gt`/`lt` become `gte`/`lte` of the next or previous 32-byte value
(wrapping around). `eq` values select slots (within the bounds), else the tightest bounds.

`timestamp` (TimestampParameter): `[op:]seconds[.nanos]` (`1.5` is 1 s + 5 ns), any operator
but `ne`; `eq` bounds from above. The last lower and the last upper bound given count. Any
`timestamp` reads the storage as of then, from `hook_storage_change`.
"""

import re
from dataclasses import dataclass

from apps.common.errors import DetailedError
from apps.common.ledger.codecs import MAX_LONG, to_hex
from apps.common.query.comparisons import ALL_OPERATORS, Comparison
from apps.common.query.filters import (
    LIMIT_DESCRIPTION,
    ORDER_DESCRIPTION,
    WITH_RANGE_OPERATOR,
    parse_order,
)
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.common.query.strict import (
    RangeFilter,
    StrictDialect,
    StrictParams,
    ValueFilter,
    bad_request,
    java_long,
)

__all__ = (
    "HOOKS",
    "KEY_BYTES",
    "MAX_KEY",
    "MAX_REPEATED_QUERY_PARAMETERS",
    "STORAGE",
    "HookFilterSet",
    "HookIdRange",
    "HookStorageFilterSet",
    "SpringDialect",
    "StorageRange",
    "parse_spring_int",
    "parse_spring_long",
)

MAX_REPEATED_QUERY_PARAMETERS = 100
MAX_TIMESTAMPS = 2
LIMIT_DEFAULT, LIMIT_MAX = 25, 100
KEY_BYTES = 32
MAX_KEY = (1 << 8 * KEY_BYTES) - 1
MIN_LONG = -(1 << 63)

# What Java's String.trim() strips: every character up to the space.
_JAVA_TRIMMED = "".join(map(chr, range(0x21)))
_DECIMAL = re.compile(r"[+-]?\d+")
_HEX = re.compile(r"([+-]?)(?:0[xX]|#)([0-9A-Za-z]+)")
_SLOT = re.compile(r"(?:(eq|gt|gte|lt|lte):)?(?:0x)?([0-9a-fA-F]{1,64})")
_TIMESTAMP = re.compile(r"(?:(eq|gt|gte|lt|lte|ne):)?([0-9]{1,17})(?:\.([0-9]{1,9}))?", re.IGNORECASE)


def parse_java_long(text: str) -> int:
    """`Long.parseLong`: an optional sign, then decimal digits."""
    if not _DECIMAL.fullmatch(text) or not MIN_LONG <= int(text) <= MAX_LONG:
        raise ValueError(f"Invalid long {text!r}")
    return int(text)


def parse_spring_long(text: str, *, bits: int = 64) -> int:
    """A Java `long` (or `int` with `bits=32`) as Spring converts a request value to one:
    whitespace anywhere removed, then decimal, or hex after `0x`, `0X` or `#`."""
    text = "".join(text.split())
    if hex_match := _HEX.fullmatch(text):
        value = int(hex_match[2], 16) * (-1 if hex_match[1] == "-" else 1)
    elif _DECIMAL.fullmatch(text):
        value = int(text)
    else:
        raise ValueError(f"Invalid number {text!r}")
    if not -(1 << bits - 1) <= value < 1 << bits - 1:
        raise ValueError(f"Invalid number {text!r}")
    return value


def parse_spring_int(text: str) -> int:
    return parse_spring_long(text, bits=32)


def _java_split(text: str, separator: str) -> list[str]:
    """`String.split`: trailing empty strings are dropped when the separator occurs."""
    parts = text.split(separator)
    if len(parts) > 1:
        while parts and not parts[-1]:
            parts.pop()
    return parts


def _java_operator(name: str) -> str:
    """`RangeOperator.of`: a named operator in any case."""
    if name.lower() not in ALL_OPERATORS or not name.strip():
        raise ValueError(f"Invalid range operator {name!r}")
    return name.lower()


def parse_hook_id(text: str) -> Comparison:
    """`hook.id`: `number` or `op:number`, the number not negative."""
    parts = _java_split(text, ":")
    if len(parts) == 1:
        operator, number = "eq", parts[0]
    elif len(parts) == 2:
        operator, number = _java_operator(parts[0]), parts[1]
    else:
        raise ValueError(f"Invalid range operator syntax {text!r}")
    value = parse_java_long(number)
    if value < 0:
        raise ValueError(f"Invalid range value {text!r}")
    return Comparison(operator, value)


def parse_slot(text: str) -> Comparison:
    """`key`: an inclusive comparison (`eq`, `gte`, `lte`) of a 32-byte value as an integer."""
    match = _SLOT.fullmatch(text)
    if not match:
        raise ValueError(f"Invalid storage slot {text!r}")
    operator, value = match[1] or "eq", int(match[2], 16)
    if operator == "gt":
        operator, value = "gte", (value + 1) & MAX_KEY
    elif operator == "lt":
        operator, value = "lte", (value - 1) & MAX_KEY
    return Comparison(operator, value)


def parse_timestamp(text: str) -> Comparison:
    """`timestamp`: `[op:]seconds[.nanos]`, the digits after the dot the nanoseconds as written."""
    match = _TIMESTAMP.fullmatch(text)
    if not match or (match[1] or "").lower() == "ne":
        raise ValueError(f"Invalid timestamp parameter {text!r}")
    nanos = int(match[2]) * 10**9 + int(match[3] or 0)
    if nanos > MAX_LONG:
        raise ValueError(f"Invalid timestamp parameter {text!r}")
    return Comparison((match[1] or "eq").lower(), nanos)


class ParsedRangeFilter(RangeFilter):
    """A range parameter read by its own `parse`; its size is checked by its FilterSet."""

    def __init__(self, *, parse, **kwargs):
        super().__init__(parser=parse, max_values=None, whitespace_is_blank=True, **kwargs)

    def parse_one(self, text: str) -> Comparison:
        return self.parser(text)


@dataclass(frozen=True)
class SpringDialect(StrictDialect):
    """The strict dialect, with `list_params` bound to arrays or lists (the module's docstring)."""

    list_params: tuple[str, ...] = ()

    def read(self, query_string: str) -> StrictParams:
        params = super().read(query_string)
        for name in self.list_params:
            values = params.get(name)
            if values is None or len(values) != 1:
                continue
            items = [item.strip(_JAVA_TRIMMED) for item in values[0].split(",")] if values[0] else []
            if items:
                params[name] = items
            else:
                del params[name]
        return params


HOOKS = SpringDialect(list_params=("hook.id",))
STORAGE = SpringDialect(list_params=("key", "timestamp"))


def constraint_violations(details: list[str]) -> DetailedError:
    """One 400 naming every broken constraint, as Spring's method validation reports them."""
    error = bad_request(details[0])
    error.messages.extend({**error.messages[0], "detail": detail} for detail in details[1:])
    return error


# How Spring binds a list parameter (the module's docstring), for the descriptions.
ONE_VALUE_LISTS = "Given once, it may list several values, comma-separated."


class SpringListFilterSet(ListFilterSet):
    """A list of the hook routes: conversions, then every constraint at once (the module's docstring)."""

    limit = ValueFilter(parser=parse_spring_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)

    # (parameter, the name its Java parameter has in messages, most values)
    sizes: tuple[tuple[str, str, int], ...] = ()

    def validate(self) -> None:
        super().validate()
        details = self.path_violations()
        for param, java_name, most in self.sizes:
            if len(self.params.get(param, ())) > most:
                details.append(f"{java_name} size must be between 0 and {most}")
        limit = self.value("limit", LIMIT_DEFAULT)
        if limit < 1:
            details.append("limit must be greater than 0")
        elif limit > LIMIT_MAX:
            details.append(f"limit must be less than or equal to {LIMIT_MAX}")
        if details:
            raise constraint_violations(details)

    def path_violations(self) -> list[str]:
        """The constraints the path's values break (they are converted by the view)."""
        return []


@dataclass(frozen=True)
class HookIdRange:
    """`hook.id` as the upstream's controller reduces it: the ids asked for (sorted, none
    for all) and the tightest inclusive bounds."""

    ids: tuple[int, ...] = ()
    lower: int = 0
    upper: int = MAX_LONG

    def ids_in_range(self) -> tuple[int, ...]:
        return tuple(hook_id for hook_id in self.ids if self.lower <= hook_id <= self.upper)


class HookFilterSet(SpringListFilterSet):
    """`/accounts/{id}/hooks`: by hook id, newest first by default."""

    dialect = HOOKS
    hook_id = ParsedRangeFilter(
        param="hook.id",
        parse=parse_hook_id,
        description=f"The hook's id {WITH_RANGE_OPERATOR}, the operator in any case; several `eq:` values keep "
        f"any of them, and `ne:` is read and ignored. {ONE_VALUE_LISTS}",
    )
    limit = ValueFilter(parser=parse_spring_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)

    default_order = "desc"
    ordering_fields = ("hook_id",)
    pagination = (Anchor("hook.id", "hook_id"),)
    sizes = (("hook.id", "hookId", MAX_REPEATED_QUERY_PARAMETERS),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        return criteria.replaced(extra={"hook_ids": self.hook_id_range(criteria["hook.id"])})

    @staticmethod
    def hook_id_range(comparisons: tuple[Comparison, ...]) -> HookIdRange:
        ids, lower, upper = set(), 0, MAX_LONG
        for comparison in comparisons:
            operator, value = comparison.operator, comparison.value
            if operator == "eq":
                ids.add(value)
            elif operator in ("gt", "gte"):
                lower = max(lower, java_long(value + (operator == "gt")))
            elif operator in ("lt", "lte"):
                upper = min(upper, value - (operator == "lt"))
        return HookIdRange(tuple(sorted(ids)), lower, upper)


@dataclass(frozen=True)
class StorageRange:
    """`key` and `timestamp` as the upstream's controller reduces them: the slots asked for
    (in the order given, none for all), the tightest inclusive key bounds, and the
    inclusive timestamp bounds (None: the storage as it is now)."""

    keys: tuple[int, ...] = ()
    lower: int = 0
    upper: int = MAX_KEY
    timestamps: tuple[int, int] | None = None

    def keys_in_range(self) -> tuple[int, ...]:
        return tuple(key for key in self.keys if self.lower <= key <= self.upper)


class HookStorageFilterSet(SpringListFilterSet):
    """`/accounts/{id}/hooks/{hookId}/storage`: by slot key, in key order (`asc` by default)."""

    dialect = STORAGE
    key = ParsedRangeFilter(
        parse=parse_slot,
        description="The slot's key, 1 to 64 hex digits optionally after `0x` (a 32-byte number), "
        f"{WITH_RANGE_OPERATOR}; several `eq:` values keep any of them. {ONE_VALUE_LISTS}",
    )
    timestamp = ParsedRangeFilter(
        parse=parse_timestamp,
        description="The moment to read the storage at, a consensus timestamp (`seconds.nanos`) "
        f"{WITH_RANGE_OPERATOR} (`eq:` is at or before it). {ONE_VALUE_LISTS}",
    )
    limit = ValueFilter(parser=parse_spring_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)

    default_order = "asc"
    ordering_fields = ("key",)
    pagination = (Anchor("key", "key", format=lambda key: to_hex(key), parse=lambda text: int(text, 16)),)
    sizes = (("key", "keys", MAX_REPEATED_QUERY_PARAMETERS), ("timestamp", "timestamps", MAX_TIMESTAMPS))

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        # The scope is (owner, hook id); the hook id's bound is checked with the query's.
        self._scope = scope
        criteria = super().criteria(scope=scope)
        return criteria.replaced(extra={"storage": self.storage_range(criteria["key"], criteria["timestamp"])})

    def path_violations(self) -> list[str]:
        scope = getattr(self, "_scope", ())
        if len(scope) > 1 and scope[1] < 0:
            return ["hookId must be greater than or equal to 0"]
        return []

    @staticmethod
    def storage_range(keys: tuple[Comparison, ...], timestamps: tuple[Comparison, ...]) -> StorageRange:
        equal, lower, upper = [], 0, MAX_KEY
        for comparison in keys:
            if comparison.operator == "eq":
                equal.append(comparison.value)
            elif comparison.operator == "gte":
                lower = max(lower, comparison.value)
            else:
                upper = min(upper, comparison.value)
        timestamp_lower = timestamp_upper = None
        for comparison in timestamps:
            if comparison.operator in ("gt", "gte"):
                timestamp_lower = java_long(comparison.value + (comparison.operator == "gt"))
            else:
                timestamp_upper = comparison.value - (comparison.operator == "lt")
        bounded = timestamp_lower is not None or timestamp_upper is not None
        window = (timestamp_lower or 0, MAX_LONG if timestamp_upper is None else timestamp_upper) if bounded else None
        return StorageRange(tuple(equal), lower, upper, window)
