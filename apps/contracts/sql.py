"""The SQL of the contract reads (`selectors`): the statements, and the builders of those
whose text follows the request's shape. Every value is a bound parameter; the one number
written into a statement is a page's limit (through `int()`, where said), for the plan's sake.
`rows` runs a statement and returns its rows as dicts.
"""

from collections.abc import Sequence

from apps.common.database.connections import column_names, statement_cursor
from apps.common.ledger.codecs import MAX_LONG, EntityId
from apps.common.query.comparisons import OPERATORS, Comparison, Where

SUCCESS = 22
WRONG_NONCE = 312
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19


def rows(sql: str, params: Sequence = ()) -> list[dict]:
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        names = column_names(cursor)
        return [dict(zip(names, row)) for row in cursor.fetchall()]


# --- Contracts (`/contracts/{id}`) ----------------------------------------------------------------

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


def contract_version(contract: EntityId, timestamps: Sequence[Comparison]) -> tuple[str, list]:
    """The newest `entity` (or, with `timestamps`, `entity_history`) version of a contract
    overlapping every timestamp range, with its `contract` row's file and bytecodes."""
    where = Where()
    where.add("type = 'CONTRACT'")
    if contract.evm_address is None:
        where.add("id = %s", contract.encoded)
    else:
        where.add("evm_address = %s", bytes.fromhex(contract.evm_address))
    for comparison in timestamps:
        _overlapping(where, comparison)
    columns = ", ".join(CONTRACT_COLUMNS)
    versions = f"(select {columns} from entity where {where.sql})"
    params = where.params
    if timestamps:
        versions += f" union all (select {columns} from entity_history where {where.sql})"
        params = params * 2
    sql = (
        f"select e.*, c.file_id, c.initcode, c.runtime_bytecode from ({versions}"
        " order by timestamp_range desc limit 1) e left join contract c on c.id = e.id"
    )
    return sql, params


def _overlapping(where: Where, comparison: Comparison) -> None:
    """Versions whose `timestamp_range` overlaps the comparison's range (`eq` means "as of":
    up to and including the instant). Bounds past the last bigint are read as no bound, or
    as an empty range."""
    operator, value = comparison.operator, comparison.value
    if operator == "ne":
        if value <= MAX_LONG:
            where.add("not timestamp_range @> %s::bigint", value)
    elif operator in ("gt", "gte"):
        lower = value + (operator == "gt")
        if lower > MAX_LONG:
            where.add("false")
        else:
            where.add("timestamp_range && int8range(%s, null)", lower)
    else:
        upper = value - (operator == "lt")
        if upper < MAX_LONG:
            where.add("timestamp_range && int8range(null, %s, '(]')", upper)


# The content of a contract's file as it was when the contract was created: the newest create
# or non-empty update up to then starts it, appends follow.
FILE_CONTENT_AT = (
    "select string_agg(file_data, ''::bytea order by consensus_timestamp) from file_data"
    " where entity_id = %(file)s and consensus_timestamp <= %(at)s and consensus_timestamp >= ("
    "  select consensus_timestamp from file_data where entity_id = %(file)s and consensus_timestamp <= %(at)s"
    f"  and (transaction_type = {FILE_CREATE} or (transaction_type = {FILE_UPDATE} and length(file_data) > 0))"
    "  order by consensus_timestamp desc limit 1)"
    f" and transaction_type in ({FILE_CREATE}, {FILE_UPDATE}, {FILE_APPEND})"
)


# --- Files ------------------------------------------------------------------------------------------


def file_versions(file_id: int, at: int | None, count: int | None) -> tuple[str, list]:
    """The rows of a file's latest `count` versions (every one when None) up to `at` (the end
    of time when None), oldest first: from the `count`-th latest create or non-empty update
    on, found backwards along `file_data__id_timestamp`."""
    where = Where()
    where.add("entity_id = %s", file_id)
    if at is not None:
        where.add("consensus_timestamp <= %s", at)
    sql = f"select file_data, transaction_type from file_data where {where.sql}"
    params = where.params
    if count is not None:
        sql += (
            " and consensus_timestamp >= coalesce((select consensus_timestamp from file_data"
            f" where {where.sql} and (transaction_type = {FILE_CREATE}"
            f" or (transaction_type = {FILE_UPDATE} and length(file_data) > 0))"
            # Written into the statement through int(): a generic plan cannot know an offset parameter.
            f" order by consensus_timestamp desc offset {int(count) - 1} limit 1), 0)"
        )
        params = [*params, *where.params]
    return f"{sql} order by consensus_timestamp", params


# --- Logs (`/contracts/{id}/results/logs`, `/contracts/results/logs`) -------------------------------

_LOG_COLUMNS = (
    "cl.bloom, cl.consensus_timestamp, cl.contract_id, cl.data, cl.index, cl.root_contract_id,"
    " cl.topic0, cl.topic1, cl.topic2, cl.topic3, cl.transaction_hash, cl.transaction_index"
)


def log_page(
    parts: Sequence[Sequence[tuple[str, str, int]]],
    topics: dict[str, list[bytes]],
    *,
    contract_id: int | None,
    order: str,
    limit: int,
) -> tuple[str, list]:
    """A page of logs, of one contract (or account) or of all, in (timestamp, index) order:
    the union of one ordered, limited read per keyset part (its (column, operator, value)
    conditions), sorted and cut to the page, with each log's block."""
    order = "asc" if order == "asc" else "desc"
    ordering = f"order by consensus_timestamp {order}, index {order}"
    # Written into the statement through int(): a prepared statement's generic plan cannot know
    # a limit parameter (it assumes a tenth of the table), so the page would be planned every time.
    limit_clause = f"limit {int(limit)}"
    selects, params = [], []
    for bounds in parts or [[]]:
        where = Where()
        if contract_id is not None:
            where.add("cl.contract_id = %s", contract_id)
        for name, values in topics.items():
            where.add(f"cl.{name} in ({', '.join(['%s'] * len(values))})", *values)
        for column, operator, value in bounds:
            where.add(f"cl.{column} {OPERATORS[operator].sql} %s", value)
        selects.append(f"(select {_LOG_COLUMNS} from contract_log cl where {where.sql} {ordering} {limit_clause})")
        params.extend(where.params)
    # One contract's logs share its address: looked up once, not for each log.
    evm_address = "(select e.evm_address from entity e where e.id = {})".format(
        "cl.contract_id" if contract_id is None else "%s"
    )
    sql = f"""
        select cl.*, {evm_address} as evm_address, block.hash as block_hash, block.index as block_number
        from ({" union all ".join(selects)}) cl
        left join lateral (
            select rf.hash, rf.index from record_file rf
            where rf.consensus_end >= cl.consensus_timestamp and rf.consensus_start <= cl.consensus_timestamp
            order by rf.consensus_end limit 1
        ) block on true
        {ordering}
        {limit_clause}
    """
    return sql, [*(() if contract_id is None else (contract_id,)), *params]


def transaction_timestamp(transaction_hash: bytes, timestamps: Sequence[Comparison]) -> tuple[str, list]:
    """The earliest consensus timestamp of the transaction with this 48-byte hash or 32-byte
    hash prefix, within the timestamp comparisons."""
    where = Where()
    where.add("substring(hash from 1 for 32) = %s", transaction_hash[:32])
    if len(transaction_hash) > 32:
        where.add("hash || coalesce(hash_suffix, ''::bytea) = %s", transaction_hash)
    where.compare("consensus_timestamp", timestamps)
    sql = f"select consensus_timestamp from transaction_hash where {where.sql} order by consensus_timestamp limit 1"
    return sql, where.params


# --- Contract results (`/contracts/{id}/results`, `/contracts/results`, their details) -------------

_RESULT_COLUMNS = (
    "cr.amount, cr.bloom, cr.call_result, cr.consensus_timestamp, cr.contract_id, cr.created_contract_ids,"
    " cr.error_message, cr.failed_initcode, cr.function_parameters, cr.gas_consumed, cr.gas_limit,"
    " cr.gas_used, cr.payer_account_id, cr.sender_id, cr.transaction_hash, cr.transaction_index,"
    " cr.transaction_nonce, cr.transaction_result,"
    # Only needed to recover the sender's alias when the importer did not know its id.
    " case when cr.sender_id is null then cr.function_result end as function_result,"
    " e.evm_address as contract_evm_address"
)


def result_page(
    *,
    contract_id: int | None,
    timestamps: Sequence[Comparison],
    senders: Sequence[Comparison],
    block: tuple[int, int] | None,
    transaction_indexes: Sequence[Comparison],
    internal: bool,
    order: str,
    limit: int,
) -> tuple[str, list]:
    """A page of contract results (of one contract, or of all with `contract_id` None)
    within a block's (consensus_start, consensus_end); wrong-nonce results never show,
    nor, unless `internal`, the results of child transactions."""
    where = Where()
    if contract_id is not None:
        where.add("cr.contract_id = %s", contract_id)
    where.compare("cr.consensus_timestamp", timestamps)
    where.compare("cr.sender_id", senders)
    if block is not None:
        where.add("cr.consensus_timestamp between %s and %s", *block)
    where.compare("cr.transaction_index", transaction_indexes)
    if not internal:
        where.add("cr.transaction_nonce = 0")
    where.add(f"cr.transaction_result <> {WRONG_NONCE}")
    direction = "desc" if order == "desc" else "asc"
    # Leading the order with a column fixed by equality steers the planner to the
    # (contract_id | sender_id, consensus_timestamp) index, which yields the page in order.
    keys = ["cr.consensus_timestamp"]
    if contract_id is not None:
        keys.insert(0, "cr.contract_id")
    elif len(senders) == 1 and senders[0].operator == "eq":
        keys.insert(0, "cr.sender_id")
    order_by = ", ".join(f"{key} {direction}" for key in keys)
    # The limit is written into the statement through int(), so that a prepared page can keep
    # one generic plan (which cannot know a limit parameter) instead of being planned each time.
    sql = (
        f"select {_RESULT_COLUMNS} from contract_result cr left join entity e on e.id = cr.contract_id"
        f" where {where.sql} order by {order_by} limit {int(limit)}"
    )
    return sql, where.params


BLOCK_RANGE_BY_NUMBER = "select consensus_start, consensus_end from record_file where index = %s limit 1"
# The index on hash is COLLATE "C", which a prefix LIKE can use.
BLOCK_RANGE_BY_HASH_PREFIX = (
    'select consensus_start, consensus_end from record_file where hash collate "C" like %s'
    " order by consensus_end limit 1"
)


def synthetic_results(
    *,
    timestamps: Sequence[Comparison],
    block: tuple[int, int] | None,
    transaction_indexes: Sequence[Comparison],
    order: str,
    limit: int,
) -> tuple[str, list]:
    """The HTS transfers the importer recorded as ERC events (synthetic logs), as results in
    page order: the first log of each transaction (the last one when descending) stands for it."""
    where = Where()
    where.add("synthetic is true")
    where.compare("consensus_timestamp", timestamps)
    if block is not None:
        where.add("consensus_timestamp between %s and %s", *block)
    where.compare("transaction_index", transaction_indexes)
    direction = "desc" if order == "desc" else "asc"
    sql = (
        "select null::bigint as amount, null::bytea as bloom,"
        " null::bytea as call_result, cl.consensus_timestamp,"
        " coalesce(cl.root_contract_id, cl.contract_id) as contract_id, null::bigint[] as created_contract_ids,"
        " null::text as error_message, null::bytea as failed_initcode, ''::bytea as function_parameters,"
        " null::bigint as gas_consumed, 0::bigint as gas_limit, null::bigint as gas_used, cl.payer_account_id,"
        " cl.payer_account_id as sender_id, cl.transaction_hash, cl.transaction_index,"
        f" 0 as transaction_nonce, {SUCCESS} as transaction_result, null::bytea as function_result,"
        " e.evm_address as contract_evm_address"
        " from (select distinct on (consensus_timestamp) * from contract_log"
        f" where {where.sql} order by consensus_timestamp {direction}, index {direction} limit %s) cl"
        " left join entity e on e.id = coalesce(cl.root_contract_id, cl.contract_id)"
        f" order by cl.consensus_timestamp {direction}"
    )
    return sql, [*where.params, limit]


CONTRACT_TRANSACTION_AT = (
    "select consensus_timestamp, payer_account_id, contract_ids from contract_transaction"
    " where consensus_timestamp = %s and entity_id = %s"
)
# A successful transaction wins over failed ones, then the latest.
CONTRACT_TRANSACTION_BY_HASH = (
    "select consensus_timestamp, payer_account_id, entity_id from contract_transaction_hash where hash = %s"
    f" order by (transaction_result = {SUCCESS}) desc, consensus_timestamp desc limit 1"
)
TRANSACTION_BY_ID = (
    "select consensus_timestamp from transaction"
    " where payer_account_id = %s and consensus_timestamp between %s and %s and valid_start_ns = %s"
    f" and nonce = %s order by (result = {SUCCESS}) desc, consensus_timestamp desc limit 1"
)

ETHEREUM_COLUMNS = (
    "access_list", "authorization_list", "call_data", "call_data_id", "chain_id", "consensus_timestamp",
    "gas_limit", "gas_price", "max_fee_per_gas", "max_priority_fee_per_gas", "nonce", "payer_account_id",
    "recovery_id", "signature_r", "signature_s", "signature_v", "to_address", "type", "value",
)
BLOCK_COLUMNS = ("gas_used", "hash", "index")
# The record file holding a result: one probe of the record_file primary key (consensus_end).
_BLOCK_OF = (
    "(select gas_used, hash, index from record_file where consensus_end >= {timestamp}"
    " order by consensus_end limit 1)"
)
# One result with its Ethereum transaction (the one its payer sent at its timestamp) and its
# block, in one statement; columns of those two are prefixed `ethereum_` and `block_`.
RESULT_DETAIL = (
    f"select {_RESULT_COLUMNS}, {', '.join(f'et.{column} as ethereum_{column}' for column in ETHEREUM_COLUMNS)},"
    f" {', '.join(f'rf.{column} as block_{column}' for column in BLOCK_COLUMNS)}"
    " from contract_result cr left join entity e on e.id = cr.contract_id"
    " left join ethereum_transaction et"
    " on et.consensus_timestamp = cr.consensus_timestamp and et.payer_account_id = cr.payer_account_id"
    f" left join lateral {_BLOCK_OF.format(timestamp='cr.consensus_timestamp')} rf on true"
    " where cr.consensus_timestamp = %s and cr.contract_id = any(%s::bigint[]) limit 1"
)
RESULT_LOGS = (
    "select cl.bloom, cl.contract_id, cl.data, cl.index, cl.topic0, cl.topic1, cl.topic2, cl.topic3,"
    " e.evm_address from contract_log cl left join entity e on e.id = cl.contract_id"
    " where cl.consensus_timestamp = %s and cl.contract_id = any(%s::bigint[]) order by cl.index"
)


def result_state_changes(timestamp: int, contract_ids: list[int], state_contract_id: int | None) -> tuple[str, list]:
    """The state changes of a result: those of `state_contract_id` and the non-migration
    changes of `contract_ids`, or without `state_contract_id` every non-migration change."""
    if state_contract_id is None:
        changes, params = "sc.migration is false", []
    else:
        changes = "(sc.contract_id = %s or (sc.contract_id = any(%s::bigint[]) and sc.migration is false))"
        params = [state_contract_id, contract_ids]
    sql = (
        "select sc.contract_id, sc.slot, sc.value_read, sc.value_written, e.evm_address"
        " from contract_state_change sc left join entity e on e.id = sc.contract_id"
        f" where sc.consensus_timestamp = %s and {changes} order by sc.contract_id, sc.slot"
    )
    return sql, [timestamp, *params]


ETHEREUM_TRANSACTIONS_AT = (
    f"select {', '.join(ETHEREUM_COLUMNS)} from ethereum_transaction where consensus_timestamp = any(%s::bigint[])"
)
BLOCKS_AT = (
    "select t.timestamp, r.gas_used, r.hash, r.index from unnest(%s::bigint[]) t(timestamp)"
    f" cross join lateral {_BLOCK_OF.format(timestamp='t.timestamp')} r"
)


# --- Actions (`/contracts/results/{transactionIdOrHash}/actions`) -----------------------------------


def action_page(
    *, timestamp: int, payer: int, indexes: Sequence[Comparison], order: str, limit: int
) -> tuple[str, list]:
    """A page of the actions of one transaction of one payer, by index."""
    where = Where()
    where.add("consensus_timestamp = %s", timestamp)
    where.add("payer_account_id = %s", payer)
    # The upstream ANDs every index condition, equalities included.
    where.compare("index", indexes, merge_equals=False)
    direction = "desc" if order == "desc" else "asc"
    sql = (
        "select call_depth, call_operation_type, call_type, caller, caller_type, consensus_timestamp, gas,"
        " gas_used, index, input, recipient_account, recipient_address, recipient_contract, result_data,"
        " result_data_type, value from contract_action"
        f" where {where.sql} order by index {direction} limit %s"
    )
    return sql, [*where.params, limit]
