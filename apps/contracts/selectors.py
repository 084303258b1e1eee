"""Reads of contracts and what they produced (results, logs, state, actions)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument, MirrorApiError
from apps.common.codecs import MAX_LONG, EntityId, decode_entity_id, encode_entity_id, parse_entity_id
from apps.common.filters import OPERATOR_LOOKUPS, Comparison, apply_comparisons
from apps.contracts.models import Contract, ContractState, ContractStateChange

__all__ = ("contract_id_from_path", "parse_contract_detail_path", "parse_contract_id", "parse_contract_path")

_CONTRACT_PATH = re.compile(r"^(\d{1,10}\.){0,2}(\d{1,10}|(0x)?[A-Fa-f0-9]{40})$")
_CONTRACT_DETAIL_PATH = re.compile(r"^(\d+\.){0,2}(\d+|(0x)?[A-Fa-f0-9]{40})$")
EVM_ADDRESS_HEX_DIGITS = 40


def contract_id_from_path(text: str) -> int | None:
    """The encoded id named by a `{contractIdOrAddress}` path segment, or None
    for an EVM address that no live contract or account holds.

    An id or a long-zero address is taken as given, without checking that it
    exists. Since HIP-1340 an externally owned account with a code delegation
    produces results, logs and state like a contract, so an address may name an
    account as well as a contract.
    """
    entity = parse_contract_path(text)
    if entity.evm_address is None:
        return encode_entity_id(entity.shard, entity.realm, entity.num)
    return contract_id_by_evm_address(bytes.fromhex(entity.evm_address))


def parse_contract_path(text: str) -> EntityId:
    """The id or EVM address a `{contractIdOrAddress}` path segment spells, unresolved."""
    if not _CONTRACT_PATH.match(text):
        raise InvalidArgument.for_params("contractid")
    try:
        return parse_contract_id(text)
    except ValueError:
        raise InvalidArgument.for_params("contractid") from None


def parse_contract_id(text: str) -> EntityId:
    """A contract id (a bare number is a num) or EVM address; ValueError otherwise.

    The upstream ignores a shard and realm written before an address that
    encodes no id, and checks them before one that does.
    """
    *prefix, last = text.split(".")
    address = last.removeprefix("0x")
    if len(address) == EVM_ADDRESS_HEX_DIGITS and len(prefix) <= 2:
        entity = parse_entity_id(address)
        if entity.evm_address is not None:
            return entity
    elif not prefix:
        text = _with_system_shard_realm(last)
    return parse_entity_id(text)


def parse_contract_detail_path(text: str) -> EntityId:
    """As `parse_contract_path`, for `/contracts/{contractIdOrAddress}`, where the
    upstream names an id of the right shape that encodes none (a num too large,
    say) in its message."""
    if not _CONTRACT_DETAIL_PATH.match(text):
        raise InvalidArgument.for_params("contractid")
    try:
        return parse_contract_id(text)
    except ValueError:
        shown = text if "." in text else _with_system_shard_realm(text)
        raise InvalidArgument(f'Invalid entity ID "{shown}"') from None


def _with_system_shard_realm(num: str) -> str:
    return f"{settings.MIRROR['SHARD']}.{settings.MIRROR['REALM']}.{num}"


def contract_id_by_evm_address(address: bytes) -> int | None:
    """The live contract or account holding an EVM address; None when none does."""
    ids = list(
        Entity.objects.filter(deleted=False, type__in=("CONTRACT", "ACCOUNT"), evm_address=address)
        .values_list("id", flat=True)[:2]
    )
    if len(ids) > 1:
        raise MirrorApiError(
            f"More than one contract or account with the evm address 0x{address.hex()} have been found."
        )
    return ids[0] if ids else None


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------
#
# A page of contracts is one ordered, limited read of the `entity (type, id)`
# index; one contract at a past time is the newest `entity` / `entity_history`
# version overlapping every requested range. A page of current state is one
# range read of the `contract_state` primary key (slots there are 32 bytes); a
# page of historical state is the newest `contract_state_change` row per slot
# (slots there have their leading zero bytes trimmed), read through its
# `(contract_id, slot, consensus_timestamp)` index.

__all__ += (
    "ContractListFilter",
    "StateListFilter",
    "contract_bytecode",
    "contract_get",
    "contract_list",
    "state_list",
)

# The entity columns a contract renders from.
CONTRACT_COLUMNS = (
    "auto_renew_account_id",
    "auto_renew_period",
    "created_timestamp",
    "deleted",
    "ethereum_nonce",
    "evm_address",
    "expiration_timestamp",
    "id",
    "key",
    "max_automatic_token_associations",
    "memo",
    "obtainer_id",
    "permanent_removal",
    "proxy_account_id",
    "timestamp_range",
)
SLOT_BYTES = 32
# Files up to 0.0.1000 are system files: a contract naming one keeps its bytecode in `initcode`.
LAST_SYSTEM_FILE_NUM = 1000
FILE_CREATE, FILE_APPEND, FILE_UPDATE = 17, 16, 19


@dataclass(frozen=True, kw_only=True)
class ContractListFilter:
    """What `/contracts` selects. `contracts` values are encoded ids; an `eq` value
    may be None (an EVM address no live entity holds), which matches nothing."""

    contracts: Sequence[Comparison] = ()
    limit: int = 25
    order: str = "desc"


def contract_list(*, criteria: ContractListFilter) -> list[dict]:
    """One page of contracts ordered by id: `CONTRACT_COLUMNS` plus `file_id`."""
    contracts = apply_comparisons(Entity.objects.filter(type="CONTRACT"), "id", criteria.contracts)
    contracts = contracts.annotate(
        file_id=Subquery(Contract.objects.filter(id=OuterRef("id")).values("file_id")[:1])
    )
    ordering = "-id" if criteria.order == "desc" else "id"
    return list(contracts.order_by(ordering).values(*CONTRACT_COLUMNS, "file_id")[: criteria.limit])


def contract_get(*, contract: EntityId, timestamps: Sequence[Comparison] = ()) -> dict | None:
    """The contract an id or EVM address names, as it was within every `timestamps`
    range (its newest such version) or now: `CONTRACT_COLUMNS` plus `file_id`,
    `runtime_bytecode` and `bytecode` (see `contract_bytecode`); None if it is
    no contract (then)."""
    if contract.evm_address is None:
        condition, params = "id = %s", [contract.encoded]
    else:
        condition, params = "evm_address = %s", [bytes.fromhex(contract.evm_address)]
    condition = f"type = 'CONTRACT' and {condition}"
    for comparison in timestamps:
        condition, params = _overlapping(condition, params, comparison)
    columns = ", ".join(CONTRACT_COLUMNS)
    versions = f"(select {columns} from entity where {condition})"
    if timestamps:
        versions += f" union all (select {columns} from entity_history where {condition})"
        params = params * 2
    sql = (
        f"select e.*, c.file_id, c.initcode, c.runtime_bytecode from ({versions}"
        " order by timestamp_range desc limit 1) e left join contract c on c.id = e.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        names = [column.name for column in cursor.description] if row else ()
    if row is None:
        return None
    contract = dict(zip(names, row))
    contract["bytecode"] = contract_bytecode(contract)
    return contract


def contract_bytecode(contract: dict) -> str:
    """The init code of a contract as hex text: the content of its file as it was
    when the contract was created (a file holds the code as hex text), else its
    `initcode`; empty when there is none."""
    file_id = contract["file_id"]
    if file_id is None or decode_entity_id(file_id).num <= LAST_SYSTEM_FILE_NUM:
        return bytes(contract["initcode"] or b"").hex()
    # The newest create or non-empty update up to then starts the content; appends follow.
    sql = (
        "select string_agg(file_data, ''::bytea order by consensus_timestamp) from file_data"
        " where entity_id = %(file)s and consensus_timestamp <= %(at)s and consensus_timestamp >= ("
        "  select consensus_timestamp from file_data where entity_id = %(file)s and consensus_timestamp <= %(at)s"
        "  and (transaction_type = %(create)s or (transaction_type = %(update)s and length(file_data) > 0))"
        "  order by consensus_timestamp desc limit 1)"
        " and transaction_type in (%(create)s, %(update)s, %(append)s)"
    )
    params = {
        "file": file_id,
        "at": contract["created_timestamp"],
        "create": FILE_CREATE,
        "update": FILE_UPDATE,
        "append": FILE_APPEND,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        content = cursor.fetchone()[0]
    return bytes(content or b"").decode("utf-8", errors="replace")


@dataclass(frozen=True, kw_only=True)
class StateListFilter:
    """What `/contracts/{id}/state` selects. Slots are numbers; without
    `timestamps` the state is the current one, with them the newest value of
    each slot changed within every range (`eq` reads as `lte`: the state then)."""

    contract_id: int | None
    slots: Sequence[Comparison] = ()
    timestamps: Sequence[Comparison] = ()
    limit: int = 25
    order: str = "asc"


def state_list(*, criteria: StateListFilter) -> list[dict]:
    """One page of slots ordered by slot: `contract_id`, `slot`, `value`,
    `modified_timestamp` and the contract's `evm_address`."""
    if criteria.contract_id is None:
        return []
    slot_order = "-slot" if criteria.order == "desc" else "slot"
    if not criteria.timestamps:
        slots = [Comparison(c.operator, c.value.to_bytes(SLOT_BYTES)) for c in criteria.slots]
        changes = apply_comparisons(ContractState.objects.filter(contract_id=criteria.contract_id), "slot", slots)
        rows = changes.order_by(slot_order).values("contract_id", "slot", "value", "modified_timestamp")
    else:
        slots = [Comparison(c.operator, c.value.to_bytes((c.value.bit_length() + 7) // 8)) for c in criteria.slots]
        changes = apply_comparisons(ContractStateChange.objects.filter(contract_id=criteria.contract_id), "slot", slots)
        for comparison in criteria.timestamps:
            lookup = "lte" if comparison.operator == "eq" else OPERATOR_LOOKUPS[comparison.operator]
            changes = changes.filter(**{f"consensus_timestamp__{lookup}": comparison.value})
        rows = (
            changes.order_by(slot_order, "-consensus_timestamp")
            .distinct("slot")
            .values(
                "contract_id",
                "slot",
                value=Coalesce("value_written", "value_read"),
                modified_timestamp=F("consensus_timestamp"),
            )
        )
    rows = list(rows[: criteria.limit])
    evm_address = Entity.objects.filter(id=criteria.contract_id).values_list("evm_address", flat=True).first()
    for row in rows:
        row["evm_address"] = evm_address
    return rows


def _overlapping(condition: str, params: list, comparison: Comparison) -> tuple[str, list]:
    """`condition` narrowed to versions whose `timestamp_range` overlaps the comparison's
    range (`eq` means "as of": up to and including the instant). Bounds past the last
    bigint are read as no bound, or as an empty range."""
    operator, value = comparison.operator, comparison.value
    if operator == "ne":
        if value > MAX_LONG:
            return condition, params
        return f"{condition} and not timestamp_range @> %s::bigint", [*params, value]
    if operator in ("gt", "gte"):
        lower = value + (operator == "gt")
        if lower > MAX_LONG:
            return f"{condition} and false", params
        return f"{condition} and timestamp_range && int8range(%s, null)", [*params, lower]
    upper = value - (operator == "lt")
    if upper >= MAX_LONG:
        return condition, params
    return f"{condition} and timestamp_range && int8range(null, %s, '(]')", [*params, upper]

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


__all__ += ("KeyBound", "LogCriteria", "contract_log_list", "contract_log_page_query", "transaction_timestamp_by_hash")

# --- Logs ---

_SQL_OPERATORS = {"eq": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_LOG_COLUMNS = (
    "cl.bloom, cl.consensus_timestamp, cl.contract_id, cl.data, cl.index, cl.root_contract_id,"
    " cl.topic0, cl.topic1, cl.topic2, cl.topic3, cl.transaction_hash, cl.transaction_index"
)


def contract_log_list(*, criteria: LogCriteria, contract_id: int | None = None) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(*contract_log_page_query(criteria=criteria, contract_id=contract_id))
        columns = [column.name for column in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


def contract_log_page_query(*, criteria: LogCriteria, contract_id: int | None = None) -> tuple[str, list]:
    """The SQL and parameters of a page of logs, of one contract (or account) or
    of all, in (timestamp, index) order.

    The keyset bounds split into up to three parts, each a single range of the
    (contract_id, consensus_timestamp, index) or (consensus_timestamp, index)
    index: the rest of the first timestamp past the index bound, the timestamps
    strictly inside, and the start of the last one. Each part reads at most a
    page; their union is sorted and cut to the page.
    """
    common, common_params = [], []
    if contract_id is not None:
        common.append("cl.contract_id = %s")
        common_params.append(contract_id)
    for name, values in criteria.topics.items():
        common.append(f"cl.{name} in ({', '.join(['%s'] * len(values))})")
        common_params.extend(values)

    order = "asc" if criteria.order == "asc" else "desc"
    ordering = f"order by consensus_timestamp {order}, index {order}"
    parts, params = [], []
    for bounds in _keyset_parts(criteria.timestamp, criteria.index) or [[]]:
        conditions = [*common, *(f"cl.{column} {_SQL_OPERATORS[operator]} %s" for column, operator, _ in bounds)]
        where = f"where {' and '.join(conditions)}" if conditions else ""
        parts.append(f"(select {_LOG_COLUMNS} from contract_log cl {where} {ordering} limit %s)")
        params.extend([*common_params, *(value for _, _, value in bounds), criteria.limit])
    sql = f"""
        select cl.*, (select e.evm_address from entity e where e.id = cl.contract_id) as evm_address,
            block.hash as block_hash, block.index as block_number
        from ({" union all ".join(parts)}) cl
        left join lateral (
            select rf.hash, rf.index from record_file rf
            where rf.consensus_end >= cl.consensus_timestamp and rf.consensus_start <= cl.consensus_timestamp
            order by rf.consensus_end limit 1
        ) block on true
        {ordering}
        limit %s
    """
    return sql, [*params, criteria.limit]


def _keyset_parts(timestamp: KeyBound, index: KeyBound) -> list[list[tuple[str, str, int]]]:
    """The (column, operator, value) conditions of each non-empty part."""

    def condition(column: str, comparison: Comparison | None, operator: str | None = None):
        return [] if comparison is None else [(column, operator or comparison.operator, comparison.value)]

    ts, idx = "consensus_timestamp", "index"
    if not index.has_range:
        lower = [
            *condition(ts, timestamp.equal),
            *condition(ts, timestamp.lower),
            *condition(ts, timestamp.upper),
            *condition(idx, index.equal),
        ]
    elif timestamp.lower and index.lower:
        lower = [*condition(ts, timestamp.lower, "eq"), *condition(idx, index.lower)]
    elif timestamp.equal:
        lower = [*condition(ts, timestamp.equal), *condition(idx, index.lower), *condition(idx, index.upper)]
    else:
        lower = []
    inner = []
    if timestamp.has_range and index.has_range:
        inner = [
            *condition(ts, timestamp.lower, "gt" if index.lower else None),
            *condition(ts, timestamp.upper, "lt" if index.upper else None),
        ]
    upper = []
    if timestamp.upper and index.upper:
        upper = [*condition(ts, timestamp.upper, "eq"), *condition(idx, index.upper)]
    return [part for part in (lower, inner, upper) if part]


def transaction_timestamp_by_hash(*, transaction_hash: bytes, timestamps: KeyBound) -> int | None:
    """The consensus timestamp of the transaction with this 48-byte hash or 32-byte
    hash prefix, within the timestamp bounds; None when there is none."""
    conditions = ["substring(hash from 1 for 32) = %s"]
    params: list = [transaction_hash[:32]]
    if len(transaction_hash) > 32:
        conditions.append("hash || coalesce(hash_suffix, ''::bytea) = %s")
        params.append(transaction_hash)
    for comparison in (timestamps.equal, timestamps.lower, timestamps.upper):
        if comparison is not None:
            conditions.append(f"consensus_timestamp {_SQL_OPERATORS[comparison.operator]} %s")
            params.append(comparison.value)
    with connection.cursor() as cursor:
        cursor.execute(
            f"select consensus_timestamp from transaction_hash where {' and '.join(conditions)}"
            " order by consensus_timestamp limit 1",
            params,
        )
        row = cursor.fetchone()
    return row[0] if row else None
