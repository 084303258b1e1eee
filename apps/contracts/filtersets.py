import re
from dataclasses import dataclass

from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_positive_long, parse_timestamp
from apps.common.filters import ALL_OPERATORS, Comparison, OperatorFilter
from apps.common.filtersets import ListFilterSet

# --- Logs (/contracts/{id}/results/logs, /contracts/results/logs) ---

__all__ = (
    "AllContractLogFilterSet",
    "ContractLogFilterSet",
    "KeyBound",
    "LogCriteria",
    "parse_log_index",
    "parse_topic",
)

MAX_TOPIC_TIMESTAMP_RANGE_NS = 7 * 24 * 3600 * 1_000_000_000
MAX_TOPIC_TIMESTAMP_RANGE_TEXT = "7d"
TOPIC_PARAMS = ("topic0", "topic1", "topic2", "topic3")

_TOPIC = re.compile(r"^(?:0x)?([0-9A-Fa-f]{1,64})$")
_TRANSACTION_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")


def parse_topic(text: str) -> bytes:
    """A topic as stored: leading zero bytes trimmed (`0x000a` is `0a`)."""
    match = _TOPIC.match(text)
    if not match:
        raise ValueError(f"Invalid topic {text!r}")
    digits = match.group(1).lstrip("0")
    return bytes.fromhex(digits.rjust(len(digits) + len(digits) % 2, "0"))


def parse_transaction_hash(text: str) -> bytes:
    match = _TRANSACTION_HASH.match(text)
    if not match:
        raise ValueError(f"Invalid transaction hash {text!r}")
    return bytes.fromhex(match.group(1))


def parse_log_index(text: str) -> int:
    return parse_positive_long(text, allow_zero=True)


@dataclass
class KeyBound:
    """The conditions on one column of the (timestamp, index) keyset: at most one
    equality, one lower and one upper bound."""

    param: str
    equal: Comparison | None = None
    lower: Comparison | None = None
    upper: Comparison | None = None

    def add(self, comparison: Comparison) -> None:
        operator = comparison.operator
        if operator == "ne":
            raise InvalidArgument(f"Not equal (ne) operator is not supported for {self.param}")
        if operator == "eq":
            if self.equal:
                raise InvalidArgument(f"Only one equal (eq) operator is allowed for {self.param}")
            self.equal = comparison
        elif operator in ("gt", "gte"):
            if self.lower:
                raise InvalidArgument(f"Only one gt/gte operator is allowed for {self.param}")
            self.lower = comparison
        else:
            if self.upper:
                raise InvalidArgument(f"Only one lt/lte operator is allowed for {self.param}")
            self.upper = comparison

    @property
    def has_range(self) -> bool:
        return bool(self.lower or self.upper)

    @property
    def is_empty(self) -> bool:
        return not (self.equal or self.has_range)


@dataclass
class LogCriteria:
    timestamp: KeyBound
    index: KeyBound
    topics: dict[str, list[bytes]]
    order: str
    limit: int


class ContractLogFilterSet(ListFilterSet):
    index = OperatorFilter(parser=parse_log_index, operators=ALL_OPERATORS)
    timestamp = OperatorFilter(parser=parse_timestamp, operators=ALL_OPERATORS)
    topic0 = OperatorFilter(parser=parse_topic, operators={"eq"})
    topic1 = OperatorFilter(parser=parse_topic, operators={"eq"})
    topic2 = OperatorFilter(parser=parse_topic, operators={"eq"})
    topic3 = OperatorFilter(parser=parse_topic, operators={"eq"})

    default_order = "desc"

    def timestamps(self) -> list[Comparison]:
        """`timestamp=gte:A&timestamp=lte:A` means `timestamp=A`."""
        comparisons = self.form.cleaned_data.get("timestamp") or []
        if (
            len(comparisons) == 2
            and {comparison.operator for comparison in comparisons} == {"gte", "lte"}
            and comparisons[0].value == comparisons[1].value
        ):
            return [Comparison("eq", comparisons[0].value)]
        return comparisons

    def _check_topic_timestamps(self) -> None:
        if any(self.form.cleaned_data.get(name) for name in TOPIC_PARAMS):
            try:
                _check_closed_range(self.timestamps())
            except InvalidArgument as error:
                raise InvalidArgument(
                    f"Cannot search topics without a valid timestamp range: {error.messages[0]}"
                ) from None

    def criteria(self) -> LogCriteria:
        """The validated keyset bounds, topics, order and page size."""
        self._check_topic_timestamps()
        timestamp, index = KeyBound("timestamp"), KeyBound("index")
        for comparison in self.timestamps():
            timestamp.add(comparison)
        for comparison in self.form.cleaned_data.get("index") or ():
            index.add(comparison)
        _check_bounds(timestamp, index)
        topics = {}
        for name in TOPIC_PARAMS:
            values = [comparison.value for comparison in self.form.cleaned_data.get(name) or ()]
            if values:
                topics[name] = list(dict.fromkeys(values))
        return LogCriteria(timestamp, index, topics, self.order_value, self.limit_value)


class AllContractLogFilterSet(ContractLogFilterSet):
    transaction_hash = OperatorFilter(param="transaction.hash", parser=parse_transaction_hash, operators={"eq"})

    def transaction_hash_value(self) -> bytes | None:
        comparisons = self.form.cleaned_data.get("transaction.hash") or []
        if len(comparisons) > 1:
            raise InvalidArgument("Only one transaction.hash filter is allowed")
        return comparisons[0].value if comparisons else None


def _check_closed_range(comparisons: list[Comparison]) -> None:
    if not comparisons:
        raise InvalidArgument("No timestamp range or eq operator provided")
    by_operator = {}
    for comparison in comparisons:
        by_operator.setdefault(comparison.operator, []).append(comparison.value)
    lowers = [*by_operator.get("gt", ()), *by_operator.get("gte", ())]
    uppers = [*by_operator.get("lt", ()), *by_operator.get("lte", ())]
    if "ne" in by_operator:
        raise InvalidArgument("Not equals operator not supported for timestamp param")
    if len(lowers) > 1:
        raise InvalidArgument("Multiple gt or gte operators not permitted for timestamp param")
    if len(uppers) > 1:
        raise InvalidArgument("Multiple lt or lte operators not permitted for timestamp param")
    if "eq" in by_operator:
        if lowers or uppers:
            raise InvalidArgument("Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param")
        return
    if not lowers or not uppers:
        raise InvalidArgument("Timestamp range must have gt (or gte) and lt (or lte), or eq operator")
    earliest = by_operator["gt"][0] + 1 if "gt" in by_operator else by_operator["gte"][0]
    latest = by_operator["lt"][0] - 1 if "lt" in by_operator else by_operator["lte"][0]
    if not 0 < latest - earliest + 1 <= MAX_TOPIC_TIMESTAMP_RANGE_NS:
        raise InvalidArgument(
            "Timestamp range by the lower and upper bounds must be positive and within "
            + MAX_TOPIC_TIMESTAMP_RANGE_TEXT
        )


def _check_bounds(timestamp: KeyBound, index: KeyBound) -> None:
    """An index bound needs the timestamp bound that makes the keyset range whole."""
    if index.equal and not timestamp.equal:
        raise InvalidArgument("timestamp must have eq operator")
    for bound in (timestamp, index):
        if bound.has_range and bound.equal:
            raise InvalidArgument(f"Can't support both range and equal for {bound.param}")
    if timestamp.is_empty and not index.is_empty:
        raise InvalidArgument("index without a timestamp parameter filter")
    if not timestamp.equal:
        if index.lower and (not timestamp.lower or timestamp.lower.operator == "gt"):
            raise InvalidArgument("timestamp must have gte or eq operator")
        if index.upper and (not timestamp.upper or timestamp.upper.operator == "lt"):
            raise InvalidArgument("timestamp must have lte or eq operator")
