"""Query parameters of the network routes, which the upstream serves from its Java service:
FilterSets of the strict dialect (`apps.common.query.strict`).

`timestamp` (exchangerate, fees, supply) is one or two `[op:]seconds[.nanos]` values; as
the upstream, `eq` bounds from above (the file in force at that instant) and the digits
after the dot are the nanoseconds as written (`1.5` is 1 s + 5 ns). `/network/nodes` binds
its query to a request object: a value that does not bind answers
`Invalid parameter: <name>` without detail. `/network/registered-nodes` binds to one too,
with its own dialect (`RegisteredNodesDialect`).
"""

import re
from dataclasses import dataclass, replace

from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import MAX_LONG
from apps.common.query.comparisons import (
    ALL_OPERATORS,
    LOWER_OPERATORS,
    RANGE_OPERATORS,
    UPPER_OPERATORS,
    Comparison,
)
from apps.common.query.filters import (
    LIMIT_DESCRIPTION,
    ORDER_DESCRIPTION,
    WITH_RANGE_OPERATOR,
    parse_order,
)
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.common.query.strict import (
    STRICT,
    RangeFilter,
    StrictDialect,
    ValueFilter,
    bad_request,
    java_long,
    parse_comparison,
    parse_java_entity_id,
)
from apps.network.models import RegisteredNodeType

__all__ = (
    "FEE_ESTIMATE_MODES",
    "MAX_HIGH_VOLUME_THROTTLE",
    "NODES_LIMIT_DEFAULT",
    "NODES_LIMIT_MAX",
    "REGISTERED_NODES_DIALECT",
    "SUPPLY_TYPES",
    "FeeEstimateFilterSet",
    "FeesFilterSet",
    "NodeFilterSet",
    "RegisteredNodeFilterSet",
    "SupplyFilterSet",
    "TimestampBound",
    "TimestampFilterSet",
)

_OPERATOR = re.compile(r"^(?:(eq|gt|gte|lt|lte|ne):)?", re.IGNORECASE)
_SECONDS_NANOS = re.compile(r"^(\d{1,17})(?:\.(\d{1,9}))?$")
_NUMBER = re.compile(r"^\d{1,19}$")
_INT = re.compile(r"^[+-]?\d{1,10}$")
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
_JAVA_HEX_INT = re.compile(r"([+-]?)(?:0[xX]|#)([0-9a-fA-F]+)")


@dataclass(frozen=True, slots=True)
class TimestampBound:
    """Inclusive bounds in nanoseconds; None where the query sets none."""

    lower: int | None = None
    upper: int | None = None


def parse_nanos(text: str) -> int:
    """`seconds[.nanos]`, the digits after the dot being the nanoseconds as written."""
    match = _SECONDS_NANOS.match(text)
    nanos = int(match[1]) * 10**9 + int(match[2] or 0) if match else None
    if nanos is None or nanos > MAX_LONG:
        raise ValueError(f"Invalid timestamp {text!r}")
    return nanos


class TimestampFilter(RangeFilter):
    """The upstream's timestamp parameter: `[op:]seconds[.nanos]`, an operator other than
    `ne` written in full or none at all; a blank value bounds nothing."""

    def __init__(self, **kwargs):
        super().__init__(parser=parse_nanos, operators=RANGE_OPERATORS, whitespace_is_blank=True, **kwargs)

    def parse_one(self, text: str) -> Comparison:
        written = _OPERATOR.match(text)
        operator = (written[1] or "eq").lower()
        if operator not in self.operators:
            raise ValueError(f"Unsupported operator {operator!r}")
        return Comparison(operator, self.parser(text[written.end() :]))


class TimestampFilterSet(QueryFilterSet):
    """`/network/exchangerate`, and the base of the other routes reading at a `timestamp`."""

    dialect = STRICT
    timestamp = TimestampFilter(
        description="The moment to read at, a consensus timestamp (`seconds.nanos`) after an optional operator in "
        "any case: `eq:` (the default) or `lte:` for at or before it, `lt:`, `gt:` or `gte:`; two values make a "
        "range. Without it, now.",
    )

    def validate(self) -> None:
        super().validate()
        self._timestamp_bound = bound = self._bound()
        if (bound.lower or 0) > (MAX_LONG if bound.upper is None else bound.upper):
            raise bad_request("Invalid range provided for timestamp")

    @property
    def timestamp_bound(self) -> TimestampBound:
        self.validate()
        return self._timestamp_bound

    def _bound(self) -> TimestampBound:
        """`eq` bounds from above; a later value of a side replaces an earlier one."""
        lower = upper = None
        for comparison in self.form.cleaned_data["timestamp"]:
            if comparison.operator in LOWER_OPERATORS:
                lower = comparison.value + (comparison.operator == "gt")
            else:
                upper = comparison.value - (comparison.operator == "lt")
        return TimestampBound(lower, upper)


class FeesFilterSet(TimestampFilterSet):
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)


SUPPLY_TYPES = ("circulating", "totalcoins")


def parse_supply_type(text: str) -> str:
    """Spring's lenient enum binding: letters and digits compared without case."""
    value = "".join(character for character in text if character.isalnum()).lower()
    if value not in SUPPLY_TYPES:
        raise ValueError(f"Invalid supply type {text!r}")
    return value


class SupplyFilterSet(TimestampFilterSet):
    """`q`: the figure alone (`totalcoins` or `circulating`), or None for the whole answer."""

    q = ValueFilter(
        parser=parse_supply_type,
        description="`totalcoins` or `circulating`: answer that figure alone, as text in hbars.",
    )


#
# /network/nodes
#

NODES_LIMIT_DEFAULT = 10
NODES_LIMIT_MAX = 25


def parse_node_id(text: str) -> int:
    if not _NUMBER.match(text) or int(text) > MAX_LONG:
        raise ValueError(f"Invalid node ID {text!r}")
    return int(text)


def parse_file_id(text: str) -> Comparison:
    return parse_comparison(text, parse_java_entity_id)


def parse_nodes_limit(text: str) -> int:
    if not _INT.match(text) or not 0 < int(text) < 1 << 31:
        raise ValueError(f"Invalid limit {text!r}")
    return int(text)


class NodeFilterSet(ListFilterSet):
    """`file.id` (an address book's file, 0.0.102 by default: only `eq`) and `node.id`
    (any number of comparisons; `ne` is read and compares nothing). The query binds to the
    upstream's request object: the page is 10 nodes by default, 25 at most."""

    dialect = replace(
        STRICT,
        conversion_error=InvalidArgument.for_params,
        limit_default=NODES_LIMIT_DEFAULT,
        limit_max=NODES_LIMIT_MAX,
        caps_limit=True,
    )
    file_id = ValueFilter(
        param="file.id",
        parser=parse_file_id,
        description="The address book file to read the nodes from: `0.0.102` (the default) or `0.0.101`, "
        "optionally after `eq:`.",
    )
    node_id = RangeFilter(
        param="node.id",
        parser=parse_node_id,
        max_values=None,
        description=f"The node's id {WITH_RANGE_OPERATOR}, the operator in any case; several `eq:` values keep "
        "any of them. `ne:` is read and compares nothing.",
    )
    limit = ValueFilter(parser=parse_nodes_limit, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)

    pagination = (Anchor("node.id", "node_id"),)

    def validate(self) -> None:
        super().validate()
        file_id = self.value("file.id")
        if file_id is not None and file_id.operator != "eq":
            raise bad_request("Only equality operator is supported for file.id")
        lower, upper = 0, MAX_LONG
        for comparison in self.form.cleaned_data["node.id"]:
            if comparison.operator in LOWER_OPERATORS:
                lower = max(lower, comparison.value + (comparison.operator == "gt"))
            elif comparison.operator in UPPER_OPERATORS:
                upper = min(upper, comparison.value - (comparison.operator == "lt"))
        if lower > upper:
            raise bad_request("Invalid range provided for node.id")


#
# POST /network/fees
#

FEE_ESTIMATE_MODES = ("INTRINSIC", "STATE")
MAX_HIGH_VOLUME_THROTTLE = 10_000


def parse_estimate_mode(text: str) -> str:
    """As Spring's lenient enum binding reads it: the exact name, or the same letters and
    digits in any case (`state`, `S-t_ate`); blank is the default."""
    if not text.strip():
        return FEE_ESTIMATE_MODES[0]
    text = text.strip()
    if text in FEE_ESTIMATE_MODES:
        return text
    letters = "".join(character for character in text if character.isalnum()).lower()
    for mode in FEE_ESTIMATE_MODES:
        if mode.lower() == letters:
            return mode
    raise ValueError(f"Invalid mode {text!r}")


def parse_spring_int(text: str) -> int:
    """A Java int as Spring converts it: whitespace anywhere ignored, decimal or `0x`/`#` hex."""
    text = "".join(text.split())
    if hex_match := _JAVA_HEX_INT.fullmatch(text):
        value = int(hex_match[2], 16) * (-1 if hex_match[1] == "-" else 1)
    elif _JAVA_INT.fullmatch(text):
        value = int(text)
    else:
        raise ValueError(f"Invalid int {text!r}")
    if not -(1 << 31) <= value < 1 << 31:
        raise ValueError(f"Invalid int {text!r}")
    return value


class FeeEstimateFilterSet(QueryFilterSet):
    dialect = STRICT
    mode = ValueFilter(
        parser=parse_estimate_mode,
        description="`INTRINSIC` (the default): estimate from the transaction alone; `STATE`: from the ledger's "
        "state too.",
    )
    high_volume_throttle = ValueFilter(
        parser=parse_spring_int,
        description=f"How full the high-volume throttle is, in hundredths of a percent (0 to "
        f"{MAX_HIGH_VOLUME_THROTTLE}): in `STATE` mode, the price of a high-volume transaction rises with it. "
        "0, the default, prices none as high-volume.",
    )

    def validate(self) -> None:
        super().validate()
        throttle = self.value("high_volume_throttle", 0)
        if throttle < 0:
            raise bad_request("highVolumeThrottle must be greater than or equal to 0")
        if throttle > MAX_HIGH_VOLUME_THROTTLE:
            raise bad_request(f"highVolumeThrottle must be less than or equal to {MAX_HIGH_VOLUME_THROTTLE}")

    @property
    def state_mode(self) -> bool:
        self.validate()
        return self.value("mode", FEE_ESTIMATE_MODES[0]) == "STATE"

    @property
    def throttle(self) -> int:
        self.validate()
        return self.value("high_volume_throttle", 0)


#
# /network/registered-nodes
#

_JAVA_NOT_WHITESPACE = frozenset("\x85\xa0\u2007\u202f")
_JAVA_LONG = re.compile(r"[+-]?\d+")


def is_java_blank(text: str) -> bool:
    """Empty or only whitespace, as Java's `Character.isWhitespace` counts it (not the no-break spaces)."""
    return all(character.isspace() and character not in _JAVA_NOT_WHITESPACE for character in text)


def parse_java_long(text: str) -> int:
    """A non-negative number as Java's `Long.parseLong` reads it (a sign allowed, `-0` is 0)."""
    if not _JAVA_LONG.fullmatch(text) or not 0 <= int(text) <= MAX_LONG:
        raise ValueError(f"Invalid number {text!r}")
    return int(text)


def parse_number_range(text: str) -> Comparison:
    """`[op:]number` as the Java service's number range parameter splits it: on every colon,
    the empty parts ending the value dropped (`gt:5:` is `gt:5`), the operator one of
    `eq gt gte lt lte ne` in any case and never empty."""
    parts = text.split(":")
    while parts and not parts[-1]:
        parts.pop()
    if len(parts) == 1:
        return Comparison("eq", parse_java_long(parts[0]))
    if len(parts) != 2 or parts[0].lower() not in ALL_OPERATORS:
        raise ValueError(f"Invalid range {text!r}")
    return Comparison(parts[0].lower(), parse_java_long(parts[1]))


def parse_registered_node_type(text: str) -> RegisteredNodeType:
    """Spring's lenient enum binding: the letters and digits of the name, in any case (`bLoCk-NoDe`)."""
    letters = "".join(character for character in text if character.isalpha() or character.isdecimal()).lower()
    for node_type in RegisteredNodeType:
        if node_type.name.replace("_", "").lower() == letters:
            return node_type
    raise ValueError(f"Invalid registered node type {text!r}")


class NumberRangeFilter(RangeFilter):
    """Comparisons of a number, each read by `parse_number_range`; a blank value compares nothing."""

    def __init__(self, **kwargs):
        super().__init__(parser=parse_java_long, **kwargs)
        self.is_blank = is_java_blank

    def parse_one(self, text: str) -> Comparison:
        return parse_number_range(text)


@dataclass(frozen=True)
class RegisteredNodesDialect(StrictDialect):
    """The strict dialect as the Java service binds a query to a request object and then
    validates it, parameter by parameter in the order the object declares them:
    - a parameter whose first value is blank is not given (its default applies);
    - a parameter taking one value given more: 400 `Only a single instance is supported for
      <name>` (detail), before anything converts;
    - then every value that does not convert, and every converted one out of its bounds
      (`limit` outside 1..`limit_max`, a range parameter given more than `max_values` times,
      blank values included), answer together, one `Invalid parameter: <name>` each (no
      detail): those that did not convert first."""

    def split(self, filterset: QueryFilterSet) -> tuple[dict, dict[str, list[str]]]:
        return {}, {
            name: values
            for name, values in filterset.params.items()
            if name in filterset.base_filters and not is_java_blank(values[0])
        }

    def validate(self, filterset: QueryFilterSet) -> None:
        if not filterset.data:
            return
        declared = filterset.declared_filters_in_order()
        for name, filter_ in declared:
            if not isinstance(filter_, RangeFilter) and len(filterset.data.getlist(name)) > 1:
                raise bad_request(f"Only a single instance is supported for {name}")
        errors = filterset.form.errors
        unconverted = [name for name, _ in declared if name in errors]
        out_of_bounds = [
            name for name, filter_ in declared if name not in errors and self._out_of_bounds(filterset, name, filter_)
        ]
        if unconverted or out_of_bounds:
            raise self.conversion_error(*unconverted, *out_of_bounds)

    def _out_of_bounds(self, filterset: QueryFilterSet, name: str, filter_) -> bool:
        if isinstance(filter_, RangeFilter):
            return filter_.max_values is not None and len(filterset.data.getlist(name)) > filter_.max_values
        if name == "limit":
            limit = filterset.value("limit")
            return limit is not None and not 1 <= limit <= self.limit_max
        return False


REGISTERED_NODES_DIALECT = RegisteredNodesDialect(conversion_error=InvalidArgument.for_params)


class RegisteredNodeFilterSet(ListFilterSet):
    """`registerednode.id` (at most two comparisons; an `eq` comes alone; `ne` is read and
    compares nothing), `type` (a `RegisteredNodeType`: the nodes with an endpoint of that type),
    `limit` (25 by default, 1..100) and `order`. The comparisons resolve to one closed range,
    which the criteria carry as `gte` and `lte` on `registered_node_id`."""

    dialect = REGISTERED_NODES_DIALECT
    limit = ValueFilter(parser=parse_spring_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)
    registered_node_id = NumberRangeFilter(
        param="registerednode.id",
        description=f"The registered node's id {WITH_RANGE_OPERATOR}, the operator in any case; an `eq:` value "
        "comes alone. `ne:` is read and compares nothing.",
    )
    node_type = ValueFilter(
        param="type",
        parser=parse_registered_node_type,
        description="Only the nodes with an endpoint of this type (`BLOCK_NODE`, `GENERAL_SERVICE`, `MIRROR_NODE` "
        "or `RPC_RELAY`), in any case.",
    )

    ordering_fields = ("registered_node_id",)
    pagination = (Anchor("registerednode.id", "registered_node_id"),)

    def validate(self) -> None:
        super().validate()
        self._id_range = self._resolve_id_range()

    @property
    def id_range(self) -> tuple[int, int]:
        """The inclusive (lower, upper) the `registerednode.id` comparisons leave."""
        self.validate()
        return self._id_range

    def _resolve_id_range(self) -> tuple[int, int]:
        """As the upstream's service reads the comparisons, in the order given: an `eq` is the
        range when it is the only value (blank ones count), else refused; lower and upper
        bounds narrow the range from 0..the largest long."""
        given = len(self.data.getlist("registerednode.id"))
        lower, upper = 0, MAX_LONG
        for comparison in self.form.cleaned_data["registerednode.id"]:
            if comparison.operator == "eq":
                if given > 1:
                    raise bad_request("The 'eq' operator cannot be combined with other operators")
                return comparison.value, comparison.value
            if comparison.operator in LOWER_OPERATORS:
                lower = max(lower, java_long(comparison.value + (comparison.operator == "gt")))
            elif comparison.operator in UPPER_OPERATORS:
                upper = min(upper, comparison.value - (comparison.operator == "lt"))
        if lower > upper:
            raise bad_request("Invalid range: lower bound exceeds upper bound")
        return lower, upper

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        lower, upper = self.id_range
        return criteria.replaced(
            comparisons={"registerednode.id": (Comparison("gte", lower), Comparison("lte", upper))},
            columns={"registerednode.id": ("registered_node_id", True)},
        )
