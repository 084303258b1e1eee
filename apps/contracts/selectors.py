"""Reads of contracts and what they produced (results, logs, state, actions)."""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument, MirrorApiError, NotFound
from apps.common.codecs import MAX_LONG, EntityId, decode_entity_id, encode_entity_id, parse_entity_id
from apps.common.compiled import CompiledQuery
from apps.common.database import column_names, statement_cursor
from apps.common.filters import OPERATOR_LOOKUPS, Comparison, apply_comparisons
from apps.contracts.models import Contract, ContractState, ContractStateChange
from apps.transactions.selectors import TRANSACTION_CONSENSUS_RANGE_NS

__all__ = ("contract_id_from_path", "parse_contract_detail_path", "parse_contract_id", "parse_contract_path")

_CONTRACT_PATH = re.compile(r"^(\d{1,10}\.){0,2}(\d{1,10}|(0x)?[A-Fa-f0-9]{40})$")
# The shapes upstream reads as a contract id before decoding: a shard of up to 4 digits, a realm
# of up to 5, a num of up to 12 (19 alone, an encoded id), and a bare EVM address, or a prefixed
# one without `0x`. Any other shape is a bad parameter; these shapes may still encode no id.
_CONTRACT_DETAIL_PATH = re.compile(
    r"^(?:(?:\d{1,4}\.)?\d{1,5}\.(?:\d{1,12}|[A-Fa-f0-9]{40})|\d{1,19}|(?:0x)?[A-Fa-f0-9]{40})$"
)
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
        raise InvalidArgument(f'Invalid entity ID "{_with_system_shard_realm(text)}"') from None


def _with_system_shard_realm(text: str) -> str:
    """`text` with the shard and realm it leaves out, the system's, in front."""
    missing = 3 - len(text.split("."))
    return ".".join([str(settings.MIRROR["SHARD"]), str(settings.MIRROR["REALM"])][:missing] + [text])


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
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        names = column_names(cursor) if row else ()
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
    with statement_cursor() as cursor:
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
    `modified_timestamp` and the contract's `evm_address`, in one statement
    (compiled once per order and limit for the current state of every slot)."""
    if criteria.contract_id is None:
        return []
    if not criteria.slots and not criteria.timestamps:
        return _CURRENT_STATE.rows(criteria.contract_id, shape=(criteria.order, criteria.limit))
    return list(_state_page(criteria.contract_id, criteria.slots, criteria.timestamps, criteria.order, criteria.limit))


def _state_page(
    contract_id: int, slots: Sequence[Comparison], timestamps: Sequence[Comparison], order: str, limit: int
) -> QuerySet:
    slot_order = "-slot" if order == "desc" else "slot"
    evm_address = Subquery(Entity.objects.filter(id=contract_id).values("evm_address")[:1])
    if not timestamps:
        slots = [Comparison(c.operator, c.value.to_bytes(SLOT_BYTES)) for c in slots]
        changes = apply_comparisons(ContractState.objects.filter(contract_id=contract_id), "slot", slots)
        rows = changes.order_by(slot_order).values(
            "contract_id", "slot", "value", "modified_timestamp", evm_address=evm_address
        )
    else:
        slots = [Comparison(c.operator, c.value.to_bytes((c.value.bit_length() + 7) // 8)) for c in slots]
        changes = apply_comparisons(ContractStateChange.objects.filter(contract_id=contract_id), "slot", slots)
        for comparison in timestamps:
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
                evm_address=evm_address,
            )
        )
    return rows[:limit]


_CURRENT_STATE = CompiledQuery(lambda contract_id, shape: _state_page(contract_id, (), (), *shape))


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
    with statement_cursor() as cursor:
        cursor.execute(*contract_log_page_query(criteria=criteria, contract_id=contract_id))
        columns = column_names(cursor)
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
    # Written into the statement: a prepared statement's generic plan cannot know a limit
    # parameter (it assumes a tenth of the table), so the page would be planned every time.
    limit = f"limit {int(criteria.limit)}"
    parts, params = [], []
    for bounds in _keyset_parts(criteria.timestamp, criteria.index) or [[]]:
        conditions = [*common, *(f"cl.{column} {_SQL_OPERATORS[operator]} %s" for column, operator, _ in bounds)]
        where = f"where {' and '.join(conditions)}" if conditions else ""
        parts.append(f"(select {_LOG_COLUMNS} from contract_log cl {where} {ordering} {limit})")
        params.extend([*common_params, *(value for _, _, value in bounds)])
    # One contract's logs share its address: looked up once, not for each log.
    evm_address = "(select e.evm_address from entity e where e.id = {})".format(
        "cl.contract_id" if contract_id is None else "%s"
    )
    sql = f"""
        select cl.*, {evm_address} as evm_address, block.hash as block_hash, block.index as block_number
        from ({" union all ".join(parts)}) cl
        left join lateral (
            select rf.hash, rf.index from record_file rf
            where rf.consensus_end >= cl.consensus_timestamp and rf.consensus_start <= cl.consensus_timestamp
            order by rf.consensus_end limit 1
        ) block on true
        {ordering}
        {limit}
    """
    return sql, [*(() if contract_id is None else (contract_id,)), *params]


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
    with statement_cursor() as cursor:
        cursor.execute(
            f"select consensus_timestamp from transaction_hash where {' and '.join(conditions)}"
            " order by consensus_timestamp limit 1",
            params,
        )
        row = cursor.fetchone()
    return row[0] if row else None


__all__ += ()

# --- contract results and actions (part B) ----------------------------------------------------

WRONG_NONCE = 312
SUCCESS = 22
_FIRST_USER_FILE_NUM = 1001
_FILE_CREATE, _FILE_APPEND, _FILE_UPDATE = 17, 16, 19
_SQL_OPERATORS = {"eq": "=", "ne": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}

_RESULT_COLUMNS = (
    "cr.amount, cr.bloom, cr.call_result, cr.consensus_timestamp, cr.contract_id, cr.created_contract_ids,"
    " cr.error_message, cr.failed_initcode, cr.function_parameters, cr.gas_consumed, cr.gas_limit,"
    " cr.gas_used, cr.payer_account_id, cr.sender_id, cr.transaction_hash, cr.transaction_index,"
    " cr.transaction_nonce, cr.transaction_result,"
    # Only needed to recover the sender's alias when the importer did not know its id.
    " case when cr.sender_id is null then cr.function_result end as function_result,"
    " e.evm_address as contract_evm_address"
)


@dataclass(frozen=True)
class ContractResultFilter:
    """What `/contracts/{id}/results` and `/contracts/results` select; `contract_id` None means every contract."""

    contract_id: int | None
    timestamps: Sequence[Comparison] = ()
    # Encoded ids, or 20-byte EVM addresses resolved here.
    senders: Sequence[Comparison] = ()
    block_number: int | None = None
    block_hash: str | None = None
    transaction_indexes: Sequence[Comparison] = ()
    internal: bool = False
    order: str = "desc"
    limit: int = 25
    synthetic: bool = False


class _Where:
    def __init__(self):
        self.clauses: list[str] = []
        self.params: list = []

    def add(self, clause: str, *params) -> None:
        self.clauses.append(clause)
        self.params.extend(params)

    def compare(self, column: str, comparisons: Sequence[Comparison], *, or_equals: bool = True) -> None:
        """ANDs each comparison; unless `or_equals` is false, the `eq` ones are ORed into one `in`."""
        equals = [c.value for c in comparisons if c.operator == "eq" and or_equals]
        for comparison in comparisons:
            if comparison.operator != "eq" or not or_equals:
                self.add(f"{column} {_SQL_OPERATORS[comparison.operator]} %s", comparison.value)
        equals = list(dict.fromkeys(equals))
        if len(equals) == 1:
            # A plain equality lets a (column, timestamp) index give the page in order.
            self.add(f"{column} = %s", equals[0])
        elif equals:
            self.add(f"{column} = any(%s::bigint[])", equals)

    @property
    def sql(self) -> str:
        return " and ".join(self.clauses) or "true"


def _dict_rows(sql: str, params: Sequence = ()) -> list[dict]:
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        names = column_names(cursor)
        return [dict(zip(names, row)) for row in cursor.fetchall()]


def contract_result_list(*, criteria: ContractResultFilter) -> list[dict]:
    """A page of contract results, newest first unless `order` is asc.

    With `synthetic`, the HTS transfers the importer recorded as ERC events
    (synthetic logs) count as results too, unless `from` names senders.
    """
    senders = _resolve_senders(criteria.senders)
    where = _Where()
    if criteria.contract_id is not None:
        where.add("cr.contract_id = %s", criteria.contract_id)
    where.compare("cr.consensus_timestamp", criteria.timestamps)
    where.compare("cr.sender_id", senders)
    block = None
    if criteria.block_number is not None or criteria.block_hash is not None:
        block = _block_range(number=criteria.block_number, hash_prefix=criteria.block_hash)
        if block is None:
            return []
        where.add("cr.consensus_timestamp between %s and %s", *block)
    where.compare("cr.transaction_index", criteria.transaction_indexes)
    if not criteria.internal:
        where.add("cr.transaction_nonce = 0")
    where.add(f"cr.transaction_result <> {WRONG_NONCE}")
    direction = "desc" if criteria.order == "desc" else "asc"
    # Leading the order with a column fixed by equality steers the planner to the
    # (contract_id | sender_id, consensus_timestamp) index, which yields the page in order.
    keys = ["cr.consensus_timestamp"]
    if criteria.contract_id is not None:
        keys.insert(0, "cr.contract_id")
    elif len(senders) == 1 and senders[0].operator == "eq":
        keys.insert(0, "cr.sender_id")
    order_by = ", ".join(f"{key} {direction}" for key in keys)
    # The limit and constants are written into the statement, so that a prepared page can keep
    # one generic plan (which cannot know a limit parameter) instead of being planned each time.
    rows = _dict_rows(
        f"select {_RESULT_COLUMNS} from contract_result cr left join entity e on e.id = cr.contract_id"
        f" where {where.sql} order by {order_by} limit {int(criteria.limit)}",
        where.params,
    )
    if criteria.synthetic and not any(c.operator == "eq" for c in criteria.senders):
        rows = _merge_synthetic(rows, criteria, block)
    return rows


def _resolve_senders(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Senders as encoded ids; an EVM address no entity holds is NotFound, as upstream."""
    resolved = []
    for comparison in comparisons:
        value = comparison.value
        if isinstance(value, bytes):
            ids = list(Entity.objects.filter(evm_address=value).values_list("id", flat=True)[:1])
            if not ids:
                raise NotFound()
            value = ids[0]
        resolved.append(Comparison(comparison.operator, value))
    return resolved


def _block_range(*, number: int | None, hash_prefix: str | None) -> tuple[int, int] | None:
    """(consensus_start, consensus_end) of a block by number or hash prefix."""
    if number is not None:
        rows = _dict_rows(
            "select consensus_start, consensus_end from record_file where index = %s limit 1", [number]
        )
    else:
        # The index on hash is COLLATE "C", which a prefix LIKE can use.
        rows = _dict_rows(
            "select consensus_start, consensus_end from record_file"
            ' where hash collate "C" like %s order by consensus_end limit 1',
            [hash_prefix + "%"],
        )
    return (rows[0]["consensus_start"], rows[0]["consensus_end"]) if rows else None


def _merge_synthetic(
    rows: list[dict], criteria: ContractResultFilter, block: tuple[int, int] | None
) -> list[dict]:
    where = _Where()
    where.add("synthetic is true")
    where.compare("consensus_timestamp", criteria.timestamps)
    if block is not None:
        where.add("consensus_timestamp between %s and %s", *block)
    where.compare("transaction_index", criteria.transaction_indexes)
    direction = "desc" if criteria.order == "desc" else "asc"
    synthetic = _dict_rows(
        "select null::bigint as amount, null::bytea as bloom,"
        " null::bytea as call_result, cl.consensus_timestamp,"
        " coalesce(cl.root_contract_id, cl.contract_id) as contract_id, null::bigint[] as created_contract_ids,"
        " null::text as error_message, null::bytea as failed_initcode, ''::bytea as function_parameters,"
        " null::bigint as gas_consumed, 0::bigint as gas_limit, null::bigint as gas_used, cl.payer_account_id,"
        " cl.payer_account_id as sender_id, cl.transaction_hash, cl.transaction_index,"
        f" 0 as transaction_nonce, {SUCCESS} as transaction_result, null::bytea as function_result,"
        " e.evm_address as contract_evm_address"
        # The first log of each transaction in page order (the last one when descending) stands for it.
        " from (select distinct on (consensus_timestamp) * from contract_log"
        f" where {where.sql} order by consensus_timestamp {direction}, index {direction} limit %s) cl"
        " left join entity e on e.id = coalesce(cl.root_contract_id, cl.contract_id)"
        f" order by cl.consensus_timestamp {direction}",
        [*where.params, criteria.limit],
    )
    real = {row["consensus_timestamp"] for row in rows}
    merged = rows + [row for row in synthetic if row["consensus_timestamp"] not in real]
    merged.sort(key=lambda row: row["consensus_timestamp"], reverse=criteria.order == "desc")
    return merged[: criteria.limit]


@dataclass(frozen=True)
class ContractTransaction:
    consensus_timestamp: int
    payer_account_id: int
    contract_ids: list[int]


def contract_transaction_at(*, timestamp: int, entity_id: int) -> ContractTransaction | None:
    """The contract transaction at `timestamp` that involved `entity_id`, with every contract it touched."""
    rows = _dict_rows(
        "select consensus_timestamp, payer_account_id, contract_ids from contract_transaction"
        " where consensus_timestamp = %s and entity_id = %s",
        [timestamp, entity_id],
    )
    if not rows:
        return None
    return ContractTransaction(**rows[0])


@dataclass(frozen=True)
class ContractTransactionKey:
    """How a transaction id or hash names a contract transaction: its timestamp, its payer, and the
    entity whose contract_transaction row lists the contracts it touched."""

    consensus_timestamp: int
    payer_account_id: int
    entity_id: int


def contract_transaction_by_hash(*, transaction_hash: bytes) -> ContractTransactionKey | None:
    """The contract transaction of an Ethereum hash or of the 32-byte prefix of a transaction hash;
    a successful transaction wins over failed ones, then the latest."""
    rows = _dict_rows(
        "select consensus_timestamp, payer_account_id, entity_id from contract_transaction_hash where hash = %s"
        f" order by (transaction_result = {SUCCESS}) desc, consensus_timestamp desc limit 1",
        [transaction_hash],
    )
    return ContractTransactionKey(**rows[0]) if rows else None


def contract_transaction_by_id(*, payer: int, valid_start: int, nonce: int) -> ContractTransactionKey | None:
    """The transaction of a transaction id (and nonce); a successful one wins, then the latest."""
    rows = _dict_rows(
        "select consensus_timestamp from transaction"
        " where payer_account_id = %s and consensus_timestamp between %s and %s and valid_start_ns = %s"
        f" and nonce = %s order by (result = {SUCCESS}) desc, consensus_timestamp desc limit 1",
        [payer, valid_start, valid_start + TRANSACTION_CONSENSUS_RANGE_NS, valid_start, nonce],
    )
    return ContractTransactionKey(rows[0]["consensus_timestamp"], payer, payer) if rows else None


def contract_result_details(
    *, transaction: ContractTransaction, state_contract_id: int | None
) -> dict | None:
    """The contract result of a transaction with what the detail shows besides it: its Ethereum
    transaction, block, logs and state changes. The state changes are those of `state_contract_id`
    and the non-migration changes of the contracts the transaction touched, or without
    `state_contract_id` every non-migration change. None when the transaction produced no result."""
    timestamp, ids = transaction.consensus_timestamp, transaction.contract_ids
    results = _dict_rows(_RESULT_DETAIL_SQL, [timestamp, ids])
    if not results:
        return None
    result = results[0]
    ethereum = {column: result.pop(f"ethereum_{column}") for column in _ETHEREUM_COLUMNS}
    block = {column: result.pop(f"block_{column}") for column in _BLOCK_COLUMNS}
    result["ethereum"] = None if ethereum["consensus_timestamp"] is None else _with_call_data(result, ethereum)
    result["block"] = None if block["hash"] is None else block
    result["logs"] = _dict_rows(
        "select cl.bloom, cl.contract_id, cl.data, cl.index, cl.topic0, cl.topic1, cl.topic2, cl.topic3,"
        " e.evm_address from contract_log cl left join entity e on e.id = cl.contract_id"
        " where cl.consensus_timestamp = %s and cl.contract_id = any(%s::bigint[]) order by cl.index",
        [timestamp, ids],
    )
    if state_contract_id is None:
        changes, params = "sc.migration is false", []
    else:
        changes = "(sc.contract_id = %s or (sc.contract_id = any(%s::bigint[]) and sc.migration is false))"
        params = [state_contract_id, ids]
    result["state_changes"] = _dict_rows(
        "select sc.contract_id, sc.slot, sc.value_read, sc.value_written, e.evm_address"
        " from contract_state_change sc left join entity e on e.id = sc.contract_id"
        f" where sc.consensus_timestamp = %s and {changes} order by sc.contract_id, sc.slot",
        [timestamp, *params],
    )
    return result


_ETHEREUM_COLUMNS = (
    "access_list", "authorization_list", "call_data", "call_data_id", "chain_id", "consensus_timestamp",
    "gas_limit", "gas_price", "max_fee_per_gas", "max_priority_fee_per_gas", "nonce", "payer_account_id",
    "recovery_id", "signature_r", "signature_s", "signature_v", "to_address", "type", "value",
)
_BLOCK_COLUMNS = ("gas_used", "hash", "index")
# The record file holding a result: one probe of the record_file primary key (consensus_end).
_BLOCK_OF = (
    "(select gas_used, hash, index from record_file where consensus_end >= {timestamp}"
    " order by consensus_end limit 1)"
)
# One result with its Ethereum transaction (the one its payer sent at its timestamp) and its
# block, in one statement; columns of those two are prefixed `ethereum_` and `block_`.
_RESULT_DETAIL_SQL = (
    f"select {_RESULT_COLUMNS}, {', '.join(f'et.{column} as ethereum_{column}' for column in _ETHEREUM_COLUMNS)},"
    f" {', '.join(f'rf.{column} as block_{column}' for column in _BLOCK_COLUMNS)}"
    " from contract_result cr left join entity e on e.id = cr.contract_id"
    " left join ethereum_transaction et"
    " on et.consensus_timestamp = cr.consensus_timestamp and et.payer_account_id = cr.payer_account_id"
    f" left join lateral {_BLOCK_OF.format(timestamp='cr.consensus_timestamp')} rf on true"
    " where cr.consensus_timestamp = %s and cr.contract_id = any(%s::bigint[]) limit 1"
)


def attach_ethereum_transactions(rows: list[dict]) -> None:
    """Sets `ethereum` on each result: its Ethereum transaction (with call data read from its file
    when the call data was too large to keep inline), or None."""
    if not rows:
        return
    found = _dict_rows(
        f"select {', '.join(_ETHEREUM_COLUMNS)} from ethereum_transaction"
        " where consensus_timestamp = any(%s::bigint[])",
        [[row["consensus_timestamp"] for row in rows]],
    )
    by_key = {(eth["consensus_timestamp"], eth["payer_account_id"]): eth for eth in found}
    for row in rows:
        eth = by_key.get((row["consensus_timestamp"], row["payer_account_id"]))
        row["ethereum"] = None if eth is None else _with_call_data(row, eth)


def _with_call_data(result: dict, eth: dict) -> dict:
    """The Ethereum transaction of `result` as the serializers read it: its JSON lists parsed and,
    when its call data was too large to keep inline, the call data read from its file."""
    # The cursor reads jsonb as text.
    for name in ("access_list", "authorization_list"):
        if isinstance(eth[name], str):
            eth[name] = json.loads(eth[name])
    if not result["function_parameters"] and not eth["call_data"]:
        eth["call_data_file"] = _user_file_content(eth["call_data_id"])
    return eth


def _user_file_content(file_id: int | None) -> bytes | None:
    """The latest content of a user file."""
    if file_id is None or decode_entity_id(file_id).num < _FIRST_USER_FILE_NUM:
        return None
    versions = file_versions(file_id=file_id, count=1)
    return versions[0] if versions else None


def file_versions(*, file_id: int, at: int | None = None, count: int | None = None) -> list[bytes]:
    """The latest `count` contents (every one when None) a file had up to `at` (the end of
    time when None), newest first: each create or non-empty update starts a version, the
    appends after it complete it.

    Only the rows of those versions are read: from the `count`-th latest start on, found
    backwards along `file_data__id_timestamp`. A system file changes for the life of the
    network (the exchange rates every hour), so reading its whole history would cost more
    with every version."""
    where = _Where()
    where.add("entity_id = %s", file_id)
    if at is not None:
        where.add("consensus_timestamp <= %s", at)
    sql = f"select file_data, transaction_type from file_data where {where.sql}"
    params = where.params
    if count is not None:
        sql += (
            " and consensus_timestamp >= coalesce((select consensus_timestamp from file_data"
            f" where {where.sql} and (transaction_type = {_FILE_CREATE}"
            f" or (transaction_type = {_FILE_UPDATE} and length(file_data) > 0))"
            # Written into the SQL: a generic plan cannot know an offset parameter.
            f" order by consensus_timestamp desc offset {int(count) - 1} limit 1), 0)"
        )
        params = [*params, *where.params]
    versions: list[bytes] = []
    for row in _dict_rows(f"{sql} order by consensus_timestamp", params):
        data = bytes(row["file_data"] or b"")
        if row["transaction_type"] == _FILE_CREATE or (row["transaction_type"] == _FILE_UPDATE and data):
            versions.append(data)
        elif versions and row["transaction_type"] in (_FILE_APPEND, _FILE_UPDATE):
            versions[-1] += data
    return versions[::-1][:count]


def attach_blocks(rows: list[dict]) -> None:
    """Sets `block` on each result: the record file holding its timestamp, or None."""
    if not rows:
        return
    found = _dict_rows(
        "select t.timestamp, r.gas_used, r.hash, r.index from unnest(%s::bigint[]) t(timestamp)"
        f" cross join lateral {_BLOCK_OF.format(timestamp='t.timestamp')} r",
        [sorted({row["consensus_timestamp"] for row in rows})],
    )
    blocks = {block.pop("timestamp"): block for block in found}
    for row in rows:
        row["block"] = blocks.get(row["consensus_timestamp"])


def contract_action_list(
    *, timestamp: int, payer: int, indexes: Sequence[Comparison], order: str, limit: int
) -> list[dict]:
    where = _Where()
    where.add("consensus_timestamp = %s", timestamp)
    where.add("payer_account_id = %s", payer)
    # The upstream ANDs every index condition, equalities included.
    where.compare("index", indexes, or_equals=False)
    direction = "desc" if order == "desc" else "asc"
    return _dict_rows(
        "select call_depth, call_operation_type, call_type, caller, caller_type, consensus_timestamp, gas,"
        " gas_used, index, input, recipient_account, recipient_address, recipient_contract, result_data,"
        " result_data_type, value from contract_action"
        f" where {where.sql} order by index {direction} limit %s",
        [*where.params, limit],
    )


# --- end contract results and actions ---------------------------------------------------------
