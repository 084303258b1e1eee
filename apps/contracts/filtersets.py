"""Query parameters of the contract routes."""

import re

from apps.accounts.models import Entity
from apps.blocks.filtersets import parse_block_number
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import EvmAddressType, parse_entity_id, parse_positive_long, parse_timestamp
from apps.common.filters import (
    ALL_OPERATORS,
    RANGE_OPERATORS,
    Comparison,
    LastValueFilter,
    OperatorFilter,
    equals_only,
    parse_bool,
)
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.contracts.models import ContractState
from apps.contracts.selectors import (
    ContractListFilter,
    KeyBound,
    LogCriteria,
    StateListFilter,
    contract_id_by_evm_address,
    parse_contract_id,
)

__all__ = ("ContractDetailFilterSet", "ContractFilterSet", "StateFilterSet", "parse_contract_id_text", "parse_slot")


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------

_SLOT = re.compile(r"^(?:0x)?([0-9A-Fa-f]{1,64})$")
# Checked first; what the shape allows but no id is (a num too large, say) is refused after the whole query.
_CONTRACT_ID = re.compile(r"^(?:\d+\.){0,2}(?:-?\d+|[0-9A-Fa-f]{40})$")
_ADDRESS_DIGITS = re.compile(r"[0-9A-Fa-f]{40}$")
TIMESTAMP_NOT_EQUALS = "Not equals (ne) operator is not supported for timestamp"


def parse_contract_id_text(text: str) -> str:
    """A `contract.id` operand of a plausible shape, read into an id once the whole query is valid."""
    if not _CONTRACT_ID.match(text):
        raise ValueError(f"Invalid contract id {text!r}")
    return text


def parse_slot(text: str) -> int:
    """A storage slot, up to 32 bytes of hex with or without `0x`, as a number."""
    match = _SLOT.match(text)
    if not match:
        raise ValueError(f"Invalid slot {text!r}")
    return int(match.group(1), 16)


class ContractFilterSet(ListFilterSet):
    contract_id = OperatorFilter(param="contract.id", field_name="id", parser=parse_contract_id_text)

    default_order = "desc"

    class Meta:
        model = Entity
        fields = ()

    def list_filter(self) -> ContractListFilter:
        """The validated query, for `selectors.contract_list`. An EVM address (no
        `0x` here) is compared with `eq` only and resolved to the live entity
        holding it; a value shaped like an id that encodes none is `contractid`."""
        self.validate()
        comparisons = self.form.cleaned_data.get("contract.id") or ()
        if any(_ADDRESS_DIGITS.search(c.value) and c.operator != "eq" for c in comparisons):
            raise InvalidArgument.for_params("contract.id")
        contracts = []
        for comparison in comparisons:
            try:
                entity = parse_contract_id(comparison.value)
            except ValueError:
                raise InvalidArgument.for_params("contractid") from None
            if entity.evm_address is None:
                value = entity.encoded
            else:
                value = contract_id_by_evm_address(bytes.fromhex(entity.evm_address))
            contracts.append(Comparison(comparison.operator, value))
        return ContractListFilter(contracts=tuple(contracts), limit=self.limit_value, order=self.order_value)


class ContractDetailFilterSet(QueryFilterSet):
    timestamp = OperatorFilter(field_name="timestamp_range", parser=parse_timestamp)

    class Meta:
        model = Entity
        fields = ()

    @property
    def timestamps(self) -> tuple[Comparison, ...]:
        self.validate()
        return tuple(self.form.cleaned_data.get("timestamp") or ())


class StateFilterSet(ListFilterSet):
    slot = OperatorFilter(field_name="slot", parser=parse_slot, operators=RANGE_OPERATORS)
    # `ne` passes validation but is refused by the route, with its own message.
    timestamp = OperatorFilter(field_name="modified_timestamp", parser=parse_timestamp)

    class Meta:
        model = ContractState
        fields = ()

    def list_filter(self, contract_id: int | None) -> StateListFilter:
        """The validated query, for `selectors.state_list`."""
        self.validate()
        data = self.form.cleaned_data
        timestamps = tuple(data.get("timestamp") or ())
        if any(comparison.operator == "ne" for comparison in timestamps):
            raise InvalidArgument(TIMESTAMP_NOT_EQUALS)
        return StateListFilter(
            contract_id=contract_id,
            slots=tuple(data.get("slot") or ()),
            timestamps=timestamps,
            limit=self.limit_value,
            order=self.order_value,
        )


# --- Logs (/contracts/{id}/results/logs, /contracts/results/logs) ---

__all__ += (
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


# --- contract results (part B) ----------------------------------------------------------------

MAX_INT = (1 << 31) - 1
_BLOCK_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")


def parse_sender(text: str) -> int | bytes:
    """An account id (encoded), or the 20 bytes of an EVM address that does not encode an id."""
    entity = parse_entity_id(text, evm_address_type=EvmAddressType.NO_SHARD_REALM)
    if entity.evm_address is not None:
        return bytes.fromhex(entity.evm_address)
    return entity.encoded


def parse_block_hash(text: str) -> str:
    """The lowercase hex of a 32- or 48-byte block hash (a block's hash starts with it)."""
    match = _BLOCK_HASH.match(text)
    if not match:
        raise ValueError(f"Invalid block hash {text!r}")
    return match.group(1).lower()


def parse_transaction_index(text: str) -> int:
    value = parse_positive_long(text, allow_zero=True)
    if value > MAX_INT:
        raise ValueError(f"Invalid transaction index {text!r}")
    return value


def parse_nonce(text: str) -> int:
    return parse_transaction_index(text)


class ContractResultFilterSet(ListFilterSet):
    """`/contracts/{id}/results` and `/contracts/results`."""

    sender = OperatorFilter(param="from", parser=parse_sender)
    block_hash = LastValueFilter(param="block.hash", parser=equals_only(parse_block_hash))
    block_number = LastValueFilter(param="block.number", parser=equals_only(parse_block_number))
    hbar = LastValueFilter(parser=parse_bool)
    internal = LastValueFilter(parser=parse_bool)
    timestamp = OperatorFilter(parser=parse_timestamp)
    # Repeated values are ORed, as upstream reads them into one `in` list.
    transaction_index = OperatorFilter(
        param="transaction.index", parser=parse_transaction_index, operators={"eq"}
    )

    default_order = "desc"

    def validate(self) -> None:
        super().validate()
        has_number = self.value("block.number") is not None
        if has_number and self.value("block.hash") is not None:
            raise InvalidArgument(
                "Invalid parameter usage: block.hash - cannot combine block.number and block.hash"
            )
        if (
            self.comparisons("transaction.index")
            and not has_number
            and self.value("block.hash") is None
        ):
            raise InvalidArgument(
                "Invalid parameter usage: transaction.index - transaction.index requires block.number"
                " or block.hash filter to be specified"
            )

    def comparisons(self, name: str) -> list:
        return self.form.cleaned_data.get(name) or []


class ContractResultDetailFilterSet(QueryFilterSet):
    """`/contracts/{id}/results/{timestamp}`: only `hbar`."""

    hbar = LastValueFilter(parser=parse_bool)


class ContractResultByTransactionFilterSet(QueryFilterSet):
    """`/contracts/results/{transactionIdOrHash}`."""

    messages_in_query_order = True
    hbar = LastValueFilter(parser=parse_bool)
    nonce = LastValueFilter(parser=equals_only(parse_nonce))


class ContractActionFilterSet(ListFilterSet):
    index = OperatorFilter(parser=parse_transaction_index, operators=RANGE_OPERATORS)

    def comparisons(self, name: str) -> list:
        return self.form.cleaned_data.get(name) or []


# --- end contract results ---------------------------------------------------------------------
