"""Query parameters of the contract routes.

A list route under a path reads the path where the upstream does, so that a request with a
bad path and a bad query answers the same first error: `/contracts/{id}/state` before its
query (the view's `scope()` reads the contract); logs, results and actions once the query's
values are valid (the view's scope is the segment as written, which `criteria()` reads).
"""

import re
from functools import partial

from django.conf import settings

from apps.blocks.filtersets import parse_block_number
from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import (
    EvmAddressType,
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    parse_positive_long,
    parse_timestamp,
)
from apps.common.query.comparisons import ALL_OPERATORS, RANGE_OPERATORS, Comparison
from apps.common.query.filters import (
    WITH_ANY_OPERATOR,
    WITH_RANGE_OPERATOR,
    LastValueFilter,
    OperatorFilter,
    equals_only,
    parse_bool,
)
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.contracts.api.encoding import uint256
from apps.contracts.selectors.logs import KeyBound, LogCriteria
from apps.contracts.selectors.paths import (
    contract_id_by_evm_address,
    contract_id_from_path,
    parse_contract_id,
)
from apps.transactions.api.views import parse_transaction_id

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------

_SLOT = re.compile(r"^(?:0x)?([0-9A-Fa-f]{1,64})$")
# Checked first; what the shape allows but no id is (a num too large, say) is refused after the whole query.
# An id as the upstream validates one (`shard.realm.num`, `realm.num`, a number of up to 19
# digits), or an EVM address without `0x`.
_CONTRACT_ID = re.compile(
    r"^(?:(?:\d{1,4}\.)?\d{1,5}\.\d{1,12}|-?\d{1,19}|(?:\d+\.){0,2}[0-9A-Fa-f]{40})$", re.ASCII
)
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


def _parse_contract_anchor(text: str) -> int:
    return parse_entity_id(text, allow_evm_address=False).encoded


class ContractFilterSet(ListFilterSet):
    contract_id = OperatorFilter(
        param="contract.id",
        field_name="id",
        parser=parse_contract_id_text,
        description=f"The contract's id {WITH_ANY_OPERATOR}; or its EVM address (40 hex digits, optionally after "
        "`shard.realm.`) after `eq:` or none.",
    )

    default_order = "desc"
    ordering_fields = ("id",)
    pagination = (Anchor("contract.id", "id", format=format_entity_id, parse=_parse_contract_anchor),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        """The criteria with `contract.id` values read into encoded ids. An EVM address (no
        `0x` here) is compared with `eq` only and read into the live entity holding it (None
        when none does); a value shaped like an id that encodes none is `contractid`."""
        criteria = super().criteria(scope=scope)
        comparisons = criteria["contract.id"]
        if any(_ADDRESS_DIGITS.search(c.value) and c.operator != "eq" for c in comparisons):
            raise InvalidArgument.for_params("contract.id")
        contracts = tuple(Comparison(c.operator, _contract_id(c.value)) for c in comparisons)
        return criteria.replaced(comparisons={**criteria.comparisons, "contract.id": contracts})


def _contract_id(text: str) -> int | None:
    try:
        entity = parse_contract_id(text)
    except ValueError:
        raise InvalidArgument.for_params("contractid") from None
    if entity.evm_address is None:
        return entity.encoded
    return contract_id_by_evm_address(bytes.fromhex(entity.evm_address))


class ContractDetailFilterSet(QueryFilterSet):
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description=f"The moment to show the contract at, a consensus timestamp (`seconds.nanos`) {WITH_ANY_OPERATOR}.",
    )

    @property
    def timestamps(self) -> tuple[Comparison, ...]:
        self.validate()
        return tuple(self.form.cleaned_data.get("timestamp") or ())


class StateFilterSet(ListFilterSet):
    """`/contracts/{id}/state`: the view's scope holds the contract's id (the upstream reads
    the path before the query)."""

    slot = OperatorFilter(
        parser=parse_slot,
        operators=RANGE_OPERATORS,
        description=f"The storage slot, up to 64 hex digits optionally after `0x`, {WITH_RANGE_OPERATOR}.",
    )
    # `ne` passes the value's validation but is refused by the route, with its own message.
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description="The moment to read the storage at, a consensus timestamp (`seconds.nanos`) "
        f"{WITH_RANGE_OPERATOR}.",
    )

    pagination = (Anchor("slot", "slot", format=uint256, parse=parse_slot),)

    def validate(self) -> None:
        super().validate()
        if any(comparison.operator == "ne" for comparison in self.form.cleaned_data.get("timestamp") or ()):
            raise InvalidArgument(TIMESTAMP_NOT_EQUALS)


# --- Logs (/contracts/{id}/results/logs, /contracts/results/logs) ---

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


# A non-negative number as JavaScript's `Number` reads one, which is how the upstream validates
# a log `index`: digits of any length, a fraction, an exponent or hex digits.
_JS_NUMBER = re.compile(r"^\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^0[xX][0-9A-Fa-f]+$", re.ASCII)


def parse_log_index(text: str) -> int | float:
    """A log `index`: an int when written in digits, else the number it spells (a float),
    which passes validation and is refused once the keyset's rules passed (the upstream
    fails reading it, after those rules)."""
    if text.isascii() and text.isdigit():
        return int(text)
    if not _JS_NUMBER.match(text):
        raise ValueError(f"Invalid index {text!r}")
    return float(int(text, 16)) if text[:2].lower() == "0x" else float(text)


def topic_description(position: int) -> str:
    return (
        f"A topic the log has at position {position}: up to 64 hex digits, optionally after `0x` (leading zeros "
        "aside). `eq:` is the only operator; several values keep any of them. It needs a `timestamp` range."
    )


class ContractLogFilterSet(ListFilterSet):
    """`/contracts/{id}/results/logs`; the scope is the path's contract, as written."""

    index = OperatorFilter(
        parser=parse_log_index,
        operators=ALL_OPERATORS,
        description=f"The log's index, {WITH_RANGE_OPERATOR}, each kind once. It needs `timestamp`: "
        "`eq:` with `eq:`, a lower (upper) bound with `gte:` (`lte:`) or `eq:`.",
    )
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        operators=ALL_OPERATORS,
        description=f"The log's consensus timestamp (`seconds.nanos`), {WITH_RANGE_OPERATOR}, each kind once.",
    )
    topic0 = OperatorFilter(parser=parse_topic, operators={"eq"}, description=topic_description(0))
    topic1 = OperatorFilter(parser=parse_topic, operators={"eq"}, description=topic_description(1))
    topic2 = OperatorFilter(parser=parse_topic, operators={"eq"}, description=topic_description(2))
    topic3 = OperatorFilter(parser=parse_topic, operators={"eq"}, description=topic_description(3))

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

    def criteria(self, *, scope: tuple = ()) -> LogCriteria:
        """The validated keyset bounds and topics, and the path's contract (read once the
        query's values are valid, before the keyset's rules, as the upstream)."""
        self.validate()
        contract_ids = tuple(contract_id_from_path(segment) for segment in scope)
        self._check_topic_timestamps()
        timestamp, index = KeyBound("timestamp"), KeyBound("index")
        given = {"timestamp": (timestamp, self.timestamps()), "index": (index, self.form.cleaned_data.get("index") or ())}
        # Each parameter's operators are checked in the order the query first names them, as the upstream.
        names = list(self.params)
        for name in sorted(given, key=lambda name: names.index(name) if name in names else len(names)):
            bound, comparisons = given[name]
            for comparison in comparisons:
                bound.add(comparison)
        _check_bounds(timestamp, index)
        if any(not isinstance(c.value, int) or c.value > MAX_INT for c in self.form.cleaned_data.get("index") or ()):
            raise InvalidArgument.for_params("index")
        topics = {}
        for name in TOPIC_PARAMS:
            values = [comparison.value for comparison in self.form.cleaned_data.get(name) or ()]
            if values:
                topics[name] = list(dict.fromkeys(values))
        page = super().criteria(scope=contract_ids)
        return LogCriteria.of(page, timestamp=timestamp, index=index, topics=topics)

    def pagination_anchors(self) -> tuple[Anchor, ...]:
        """Past the last row on the keyset columns the query does not pin with an equality;
        the timestamp stays inclusive, as more logs may share it."""
        index_pinned = any(comparison.operator == "eq" for comparison in self.form.cleaned_data.get("index") or ())
        anchors = []
        if not self.timestamp_pinned():
            anchors.append(
                Anchor(
                    "timestamp",
                    "consensus_timestamp",
                    format=format_timestamp,
                    parse=parse_timestamp,
                    inclusive=not index_pinned,
                )
            )
        if not index_pinned:
            anchors.append(Anchor("index", "index", parse=parse_log_index))
        return tuple(anchors)

    def timestamp_pinned(self) -> bool:
        return any(comparison.operator == "eq" for comparison in self.timestamps())


class AllContractLogFilterSet(ContractLogFilterSet):
    """`/contracts/results/logs`, optionally of the one transaction `transaction.hash` names."""

    transaction_hash = OperatorFilter(
        param="transaction.hash",
        parser=parse_transaction_hash,
        operators={"eq"},
        description="Only the logs of the transaction with this hash: 64 or 96 hex digits, optionally after "
        "`0x`, given once. `eq:` is the only operator.",
    )

    def transaction_hash_value(self) -> bytes | None:
        comparisons = self.form.cleaned_data.get("transaction.hash") or []
        if len(comparisons) > 1:
            raise InvalidArgument("Only one transaction.hash filter is allowed")
        return comparisons[0].value if comparisons else None

    def criteria(self, *, scope: tuple = ()) -> LogCriteria:
        criteria = super().criteria(scope=scope)
        return criteria.replaced(transaction_hash=self.transaction_hash_value())

    def timestamp_pinned(self) -> bool:
        # The selector pins the timestamp of a transaction's page to the transaction's.
        return super().timestamp_pinned() or bool(self.form.cleaned_data.get("transaction.hash"))


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
    maximum = settings.MIRROR["MAX_TIMESTAMP_RANGE"]
    if not 0 < latest - earliest + 1 <= maximum.nanoseconds:
        raise InvalidArgument(f"Timestamp range by the lower and upper bounds must be positive and within {maximum}")


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


# --- Contract results and actions -------------------------------------------------------------

MAX_INT = (1 << 31) - 1
_BLOCK_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")
_ETHEREUM_HASH_HEX_DIGITS = 64


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


def parse_transaction_path(text: str) -> bytes | tuple[int, int]:
    """A `{transactionIdOrHash}` path segment: the 32 bytes of an Ethereum hash, or the
    (encoded payer, valid start) of a transaction id; InvalidArgument otherwise."""
    hex_digits = text.removeprefix("0x")
    if len(hex_digits) == _ETHEREUM_HASH_HEX_DIGITS:
        try:
            return bytes.fromhex(hex_digits)
        except ValueError:
            pass
    return parse_transaction_id(text)


def hbar_of(params) -> bool:
    """Whether amounts are in tinybars (`hbar`, default true); one `true` or `false`, in any case."""
    values = params.get("hbar")
    if not values:
        return True
    if len(values) > 1 or (values[0] or "").lower() not in ("true", "false"):
        joined = ",".join(value or "" for value in values)
        raise InvalidArgument(f"Invalid hbar parameter value: {joined}. Must be 'true' or 'false'")
    return values[0].lower() == "true"


HBAR_DESCRIPTION = "`true` (the default): amounts in tinybars; `false`: in weibars. `eq:` is the only operator."


class ContractResultFilterSet(ListFilterSet):
    """`/contracts/{id}/results`; the scope is the path's contract, as written, read into its
    id once the query is valid."""

    sender = OperatorFilter(
        param="from",
        parser=parse_sender,
        description=f"The caller: an account id, or an EVM address, {WITH_ANY_OPERATOR}.",
    )
    block_hash = LastValueFilter(
        param="block.hash",
        parser=equals_only(parse_block_hash),
        description="The hash of the results' block (64 or 96 hex digits, optionally after `0x`). `eq:` is the "
        "only operator; the last value counts. Not with `block.number`.",
    )
    block_number = LastValueFilter(
        param="block.number",
        parser=equals_only(parse_block_number),
        description="The number of the results' block, decimal or `0x` hex. `eq:` is the only operator; the last "
        "value counts. Not with `block.hash`.",
    )
    hbar = LastValueFilter(parser=equals_only(parse_bool), description=HBAR_DESCRIPTION)
    internal = LastValueFilter(
        parser=equals_only(parse_bool),
        description="`true` to include the results of child transactions too; `false` (the default) keeps those "
        "of the transactions their payers sent. `eq:` is the only operator.",
    )
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description=f"The result's consensus timestamp (`seconds.nanos`), {WITH_ANY_OPERATOR}.",
    )
    # Repeated values are ORed, as upstream reads them into one `in` list.
    # Validated as any non-negative long (a larger index matches nothing), as the upstream does.
    transaction_index = OperatorFilter(
        param="transaction.index",
        parser=partial(parse_positive_long, allow_zero=True),
        operators={"eq"},
        description="The transaction's position in its block, from 0; it needs `block.number` or `block.hash`. "
        "`eq:` is the only operator; several values keep any of them.",
    )

    default_order = "desc"
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)

    def validate(self) -> None:
        super().validate()
        has_number = self.value("block.number") is not None
        if has_number and self.value("block.hash") is not None:
            raise InvalidArgument(
                "Invalid parameter usage: block.hash - cannot combine block.number and block.hash"
            )
        if self.form.cleaned_data.get("transaction.index") and not has_number and self.value("block.hash") is None:
            raise InvalidArgument(
                "Invalid parameter usage: transaction.index - transaction.index requires block.number"
                " or block.hash filter to be specified"
            )

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        return criteria.replaced(scope=tuple(contract_id_from_path(segment) for segment in scope))


class AllContractResultFilterSet(ContractResultFilterSet):
    """`/contracts/results`, which also refuses an `hbar` given twice."""

    def validate(self) -> None:
        super().validate()
        hbar_of(self.params)


class ContractResultDetailFilterSet(QueryFilterSet):
    """`/contracts/{id}/results/{timestamp}`: only `hbar`."""

    hbar = LastValueFilter(
        parser=parse_bool, description="`true` (the default): amounts in tinybars; `false`: in weibars."
    )


class ContractResultByTransactionFilterSet(QueryFilterSet):
    """`/contracts/results/{transactionIdOrHash}`."""

    messages_in_query_order = True
    hbar = LastValueFilter(parser=equals_only(parse_bool), description=HBAR_DESCRIPTION)
    nonce = LastValueFilter(
        parser=equals_only(parse_nonce),
        description="The nonce of the transaction among those sharing the id: 0 (the default) for the one its "
        "payer sent, from 1 for its child transactions. `eq:` is the only operator.",
    )


class ContractActionFilterSet(ListFilterSet):
    """`/contracts/results/{transactionIdOrHash}/actions`; the scope is the path's segment, as
    written, read into the transaction it names once the query is valid."""

    index = OperatorFilter(
        parser=parse_transaction_index,
        operators=RANGE_OPERATORS,
        description=f"The action's index in the call trace, from 0, {WITH_RANGE_OPERATOR}.",
    )

    pagination = (Anchor("index", "index"),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        return criteria.replaced(scope=tuple(parse_transaction_path(segment) for segment in scope))
