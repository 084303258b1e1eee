"""Reads of transactions and the lists that render with them.

A page of `/transactions` is one query of two steps, each bounded by the page size:
1. the consensus timestamps of the page (`transaction_page_timestamps`). Without
   an account or transfer direction that is one range scan of the transaction
   primary key (or of `(type, consensus_timestamp)`). With an account, it is a
   UNION of one index range scan per place an account shows up in a
   transaction, each ordered and limited by itself: the payer
   (`transaction__payer_account_id_consensus_ns`), its crypto transfers
   (`crypto_transfer__entity_id_consensus_timestamp`), its token transfers
   (`token_transfer__account_timestamp`) and any other involvement recorded in
   `entity_transaction` (its primary key). A credit/debit filter reads the two
   transfer tables only.
2. the transaction rows at those timestamps (`transactions_at`) with their crypto
   and token transfers, in one query (each transfer list aggregated as a JSON
   array, and so are the assessed custom fees of a transaction looked up by
   id); staking reward transfers (only for transactions debiting 0.0.800) take
   one more query.
`transaction_list` nests step 1 in step 2 (`= any(array(...))`): one round trip.

Rows are dicts (`.values()`), which `api.serializers.TransactionSerializer`
renders; other routes that embed transactions call `transactions_at` with their
own page of timestamps.
"""

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import Q

from apps.accounts.models import StakingRewardTransfer
from apps.common.codecs import encode_entity_id
from apps.common.compiled import CompiledQuery
from apps.common.filters import Comparison
from apps.transactions.models import Transaction

__all__ = (
    "CREDIT",
    "DEBIT",
    "RESULT_FAIL",
    "RESULT_NAMES",
    "RESULT_SUCCESS",
    "SUCCESS_RESULTS",
    "TRANSACTION_TYPES",
    "TransactionListFilter",
    "TransactionLookup",
    "attach_transfers",
    "result_name",
    "transaction_list",
    "transaction_page_timestamps",
    "transaction_type_id",
    "transaction_type_name",
    "transactions_at",
    "transactions_by_hash",
    "transactions_by_id",
)

CREDIT = "credit"
DEBIT = "debit"
RESULT_SUCCESS = "success"
RESULT_FAIL = "fail"

NANOS_PER_MINUTE = 60 * 1_000_000_000
# How far a consensus timestamp may lie from its transaction's valid start.
VALID_START_DRIFT_NS = 1_000_000_000
TRANSACTION_CONSENSUS_RANGE_NS = 35 * NANOS_PER_MINUTE
# A scheduled transaction may execute this long after its schedule was created.
SCHEDULED_CONSENSUS_RANGE_NS = 89_285 * NANOS_PER_MINUTE

TYPE_CRYPTO_CREATE_ACCOUNT = 11
TYPE_CRYPTO_UPDATE_ACCOUNT = 15
TYPE_SCHEDULE_CREATE = 42
STAKING_REWARD_ACCOUNT_NUM = 800

# The columns a transaction renders from.
TRANSACTION_COLUMNS = (
    "batch_key",
    "charged_tx_fee",
    "consensus_timestamp",
    "entity_id",
    "high_volume",
    "high_volume_pricing_multiplier",
    "inner_transactions",
    "max_custom_fees",
    "max_fee",
    "memo",
    "nft_transfer",
    "node_account_id",
    "nonce",
    "parent_consensus_timestamp",
    "payer_account_id",
    "result",
    "scheduled",
    "transaction_bytes",
    "transaction_hash",
    "type",
    "valid_duration_seconds",
    "valid_start_ns",
)


# --- The list ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TransactionListFilter:
    """What `/transactions` selects: each field as validated by `TransactionFilterSet`.

    `accounts` and `timestamps` are ANDed comparisons (`eq` values of one
    parameter ORed); an account value of None (an EVM address that encodes no
    id) matches nothing. `directions` holds the distinct `type` values.
    """

    accounts: Sequence[Comparison] = ()
    timestamps: Sequence[Comparison] = ()
    types: Sequence[int] = ()
    result: str | None = None
    directions: Sequence[str] = ()
    limit: int = 25
    order: str = "desc"


def transaction_list(*, criteria: TransactionListFilter) -> list[dict]:
    """One page of `/transactions`: rows with their transfer lists, in page order, in one query."""
    page = _page_timestamps_query(criteria)
    if page is None:
        return []
    sql, params = page
    return _rows_with_transfers(f"array({sql})", params, order=criteria.order)


# Only eq values up to this many get an index range scan of their own.
_MAX_SPLIT_ACCOUNTS = 10
_SQL_OPERATORS = {"eq": "=", "ne": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}


class _Where:
    """SQL conditions and their parameters, built up together."""

    def __init__(self):
        self.conditions: list[str] = []
        self.params: list = []

    def add(self, condition: str, *params) -> None:
        self.conditions.append(condition)
        self.params.extend(params)

    def compare(self, column: str, comparisons: Iterable[Comparison]) -> None:
        equals = []
        for comparison in comparisons:
            if comparison.operator == "eq":
                if comparison.value not in equals:
                    equals.append(comparison.value)
            else:
                self.add(f"{column} {_SQL_OPERATORS[comparison.operator]} %s", comparison.value)
        if len(equals) == 1:
            self.add(f"{column} = %s", equals[0])
        elif equals:
            self.add(f"{column} = any(%s)", equals)

    @property
    def sql(self) -> str:
        return " and ".join(self.conditions) if self.conditions else "true"


def transaction_page_timestamps(*, criteria: TransactionListFilter) -> list[int]:
    """The consensus timestamps of one page, in page order (see the module docstring)."""
    page = _page_timestamps_query(criteria)
    if page is None:
        return []
    with connection.cursor() as cursor:
        cursor.execute(*page)
        return [row[0] for row in cursor.fetchall()]


def _page_timestamps_query(criteria: TransactionListFilter) -> tuple[str, list] | None:
    """SQL and parameters selecting the timestamps of one page; None when nothing can match."""
    timestamp_equals = {c.value for c in criteria.timestamps if c.operator == "eq"}
    if len(timestamp_equals) > 1 or len(set(criteria.directions)) > 1:
        # Two different instants, or credit and debit at once: nothing matches both.
        return None
    order = "desc" if criteria.order == "desc" else "asc"
    direction = criteria.directions[0] if criteria.directions else None
    branches, params = [], []

    if not criteria.accounts and direction is None:
        where = _Where()
        where.compare("t.consensus_timestamp", criteria.timestamps)
        _transaction_conditions(where, "t", criteria)
        sql = (
            f"select t.consensus_timestamp from transaction t where {where.sql}"
            f" order by t.consensus_timestamp {order} limit %s"
        )
        return sql, [*where.params, criteria.limit]

    for accounts in _split_accounts(criteria.accounts):
        sources = [("crypto_transfer", "entity_id"), ("token_transfer", "account_id")]
        if direction is None:
            sources = [("transaction", "payer_account_id"), *sources, ("entity_transaction", "entity_id")]
        for table, account_column in sources:
            where = _Where()
            where.compare(f"x.{account_column}", accounts)
            where.compare("x.consensus_timestamp", criteria.timestamps)
            join = ""
            if table == "transaction":
                # The payer's own synthetic child records (a nonce without a parent) show up
                # through their transfers only, except for account creations and updates.
                where.add(
                    "(x.nonce = 0 or x.parent_consensus_timestamp is not null or x.type = any(%s))",
                    [TYPE_CRYPTO_CREATE_ACCOUNT, TYPE_CRYPTO_UPDATE_ACCOUNT],
                )
                _transaction_conditions(where, "x", criteria)
            elif table == "entity_transaction":
                _transaction_conditions(where, "x", criteria)
            else:
                if table == "crypto_transfer":
                    where.add("x.errata is distinct from 'DELETE'")
                if direction is not None:
                    where.add("x.amount > 0" if direction == CREDIT else "x.amount < 0")
                if criteria.types or criteria.result:
                    join = " join transaction t on t.consensus_timestamp = x.consensus_timestamp"
                    _transaction_conditions(where, "t", criteria)
            # distinct: a transaction has several transfers, which must not use up the limit.
            branches.append(
                f"(select distinct x.consensus_timestamp from {table} x{join} where {where.sql}"
                f" order by x.consensus_timestamp {order} limit %s)"
            )
            params.extend([*where.params, criteria.limit])

    sql = (
        f"select consensus_timestamp from ({' union '.join(branches)}) page"
        f" order by consensus_timestamp {order} limit %s"
    )
    return sql, [*params, criteria.limit]


def _split_accounts(comparisons: Sequence[Comparison]) -> list[list[Comparison]]:
    """One comparison list per eq value (each then reads one index range), or one for all."""
    equals = list(dict.fromkeys(c.value for c in comparisons if c.operator == "eq"))
    if not 1 < len(equals) <= _MAX_SPLIT_ACCOUNTS:
        return [list(comparisons)]
    others = [c for c in comparisons if c.operator != "eq"]
    return [[Comparison("eq", value), *others] for value in equals]


def _transaction_conditions(where: _Where, alias: str, criteria: TransactionListFilter) -> None:
    """Conditions on a transaction's (or entity_transaction's) type and result."""
    types = list(dict.fromkeys(criteria.types))
    if len(types) == 1:
        where.add(f"{alias}.type = %s", types[0])
    elif types:
        where.add(f"{alias}.type = any(%s)", types)
    if criteria.result == RESULT_SUCCESS:
        where.add(f"{alias}.result = any(%s)", list(SUCCESS_RESULTS))
    elif criteria.result == RESULT_FAIL:
        where.add(f"{alias}.result <> all(%s)", list(SUCCESS_RESULTS))


# --- Rows with their transfers ----------------------------------------------------------------


# A transaction's crypto and token transfers and (`_FEE_LIST`) assessed custom fees, each as
# one JSON array; `{ts}` is the transaction's timestamp. Ordered as the API lists them.
_TRANSFER_LISTS = (
    "(select json_agg(json_build_array(c.entity_id, c.amount, c.is_approval) order by c.entity_id, c.amount)"
    "  from crypto_transfer c where c.consensus_timestamp = {ts} and c.errata is distinct from 'DELETE'),"
    " (select json_agg(json_build_array(k.token_id, k.account_id, k.amount, k.is_approval)"
    "  order by k.token_id, k.account_id) from token_transfer k where k.consensus_timestamp = {ts})"
)
_FEE_LIST = (
    ", (select json_agg(json_build_array(f.amount, f.collector_account_id, f.effective_payer_account_ids, f.token_id)"
    "  order by f.collector_account_id, f.amount) from assessed_custom_fee f where f.consensus_timestamp = {ts})"
)


def _lists_sql(ts: str, detail: bool) -> str:
    return _TRANSFER_LISTS.format(ts=ts) + (_FEE_LIST.format(ts=ts) if detail else "")


# The rows at a page's timestamps (`{timestamps}`: an array) with their lists.
_ROWS_WITH_TRANSFERS_SQL = {
    detail: (
        f"select {', '.join('t.' + column for column in TRANSACTION_COLUMNS)}, {_lists_sql('t.consensus_timestamp', detail)}"
        " from transaction t where t.consensus_timestamp = any({timestamps})"
    )
    for detail in (False, True)
}
_TRANSFERS_SQL = {
    detail: f"select p.ts, {_lists_sql('p.ts', detail)} from unnest(%s::bigint[]) p(ts)" for detail in (False, True)
}


def transactions_at(*, timestamps: Sequence[int], order: str = "asc", detail: bool = False) -> list[dict]:
    """The transactions at `timestamps`, ordered by consensus timestamp, each with
    `crypto_transfers`, `token_transfers`, `staking_reward_transfers` and (when
    `detail`) `assessed_custom_fees`. One query reads the rows with their lists;
    staking rewards take one more when a transaction pays any."""
    if not timestamps:
        return []
    return _rows_with_transfers("%s", [list(timestamps)], order=order, detail=detail)


def _rows_with_transfers(timestamps_sql: str, params: list, *, order: str, detail: bool = False) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(_ROWS_WITH_TRANSFERS_SQL[detail].format(timestamps=timestamps_sql), params)
        found = cursor.fetchall()
    rows = []
    for found_row in found:
        row = dict(zip(TRANSACTION_COLUMNS, found_row))
        if isinstance(row["nft_transfer"], str):
            # jsonb arrives as text (Django's loader); the ORM would have parsed it.
            row["nft_transfer"] = json.loads(row["nft_transfer"])
        _set_lists(row, *found_row[len(TRANSACTION_COLUMNS) :])
        rows.append(row)
    rows.sort(key=lambda row: row["consensus_timestamp"], reverse=order == "desc")
    _attach_staking_rewards(rows)
    return rows


def attach_transfers(rows: list[dict], *, detail: bool = False) -> None:
    """Adds the transfer lists to transaction rows read elsewhere (same keys as `transactions_at`)."""
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.execute(_TRANSFERS_SQL[detail], [[row["consensus_timestamp"] for row in rows]])
        lists = {timestamp: found_lists for timestamp, *found_lists in cursor.fetchall()}
    for row in rows:
        _set_lists(row, *lists[row["consensus_timestamp"]])
    _attach_staking_rewards(rows)


def _set_lists(row: dict, crypto: list | None, token: list | None, *fees: list | None) -> None:
    """The lists as the rows keep them; `fees` (one list or none) only for a detail."""
    timestamp = row["consensus_timestamp"]
    row["crypto_transfers"] = [
        {"consensus_timestamp": timestamp, "entity_id": entity_id, "amount": amount, "is_approval": is_approval}
        for entity_id, amount, is_approval in crypto or ()
    ]
    row["token_transfers"] = [
        {
            "consensus_timestamp": timestamp,
            "token_id": token_id,
            "account_id": account_id,
            "amount": amount,
            "is_approval": is_approval,
        }
        for token_id, account_id, amount, is_approval in token or ()
    ]
    if fees:
        row["assessed_custom_fees"] = [
            {
                "consensus_timestamp": timestamp,
                "amount": amount,
                "collector_account_id": collector,
                "effective_payer_account_ids": payers,
                "token_id": token_id,
            }
            for amount, collector, payers, token_id in fees[0] or ()
        ]


def _attach_staking_rewards(rows: list[dict]) -> None:
    # Staking rewards are paid from 0.0.800: only transactions that debit it have any.
    reward_account = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], STAKING_REWARD_ACCOUNT_NUM)
    rewarding = [
        row["consensus_timestamp"]
        for row in rows
        if any(transfer["entity_id"] == reward_account for transfer in row["crypto_transfers"])
    ]
    rewards = _grouped(_STAKING_REWARDS.rows(*rewarding)) if rewarding else {}
    for row in rows:
        row["staking_reward_transfers"] = rewards.get(row["consensus_timestamp"], [])


_STAKING_REWARDS = CompiledQuery(
    lambda *timestamps: StakingRewardTransfer.objects.filter(consensus_timestamp__in=timestamps)
    .order_by("consensus_timestamp", "account_id")
    .values("consensus_timestamp", "account_id", "amount")
)


def _grouped(rows: Iterable[dict]) -> dict[int, list[dict]]:
    grouped = defaultdict(list)
    for row in rows:
        grouped[row["consensus_timestamp"]].append(row)
    return grouped


# --- One transaction by id or hash ------------------------------------------------------------


@dataclass(frozen=True)
class TransactionLookup:
    rows: list[dict]
    # True while a schedule created by the transaction may still execute: the answer may change.
    pending_schedule: bool = False


def transactions_by_id(
    *, payer: int, valid_start: int, nonce: int | None = None, scheduled: bool | None = None, now: int
) -> TransactionLookup:
    """The transactions of one transaction id (payer, valid start), oldest first.

    Read within the window a transaction can reach consensus in after its valid
    start; a scheduled execution can come much later, so the window widens when
    the caller asks for it (`scheduled=true`) and none was found, or when a
    successful schedule create is found without its execution. The inner
    transactions of an atomic batch follow the batch.
    """
    lower = valid_start - VALID_START_DRIFT_NS
    conditions = _detail_conditions(nonce, scheduled)
    rows = _rows_by_id(payer, valid_start, lower, valid_start + TRANSACTION_CONSENSUS_RANGE_NS, conditions)
    creates = [row for row in rows if _is_successful_schedule_create(row)]
    executed = any(row["scheduled"] for row in rows)
    if (scheduled is True and not rows) or (scheduled is None and creates and not executed):
        rows = _rows_by_id(payer, valid_start, lower, lower + SCHEDULED_CONSENSUS_RANGE_NS, conditions)
        executed = any(row["scheduled"] for row in rows)

    inner = [pair for row in rows for pair in _inner_transaction_ids(row)]
    if inner:
        known = {row["consensus_timestamp"] for row in rows}
        window = Q()
        for inner_payer, inner_start in inner:
            window |= Q(
                payer_account_id=inner_payer,
                valid_start_ns=inner_start,
                consensus_timestamp__gte=inner_start - VALID_START_DRIFT_NS,
                consensus_timestamp__lte=inner_start + TRANSACTION_CONSENSUS_RANGE_NS,
            )
        more = Transaction.objects.filter(window, **conditions).values(*TRANSACTION_COLUMNS)
        rows.extend(row for row in more if row["consensus_timestamp"] not in known)
        rows.sort(key=lambda row: row["consensus_timestamp"])

    pending = (
        scheduled is None
        and not executed
        and any(row["consensus_timestamp"] + SCHEDULED_CONSENSUS_RANGE_NS > now for row in creates)
    )
    attach_transfers(rows, detail=True)
    return TransactionLookup(rows, pending)


def transactions_by_hash(
    *, transaction_hash: bytes, nonce: int | None = None, scheduled: bool | None = None
) -> TransactionLookup:
    """The transactions whose 48-byte hash is `transaction_hash`, oldest first.

    The transaction_hash table keeps the first 32 bytes in `hash` (the hash
    index is on them) and the other 16 in `hash_suffix`.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "select consensus_timestamp, payer_account_id from transaction_hash"
            " where substring(hash from 1 for 32) = %s and hash || coalesce(hash_suffix, ''::bytea) = %s",
            [transaction_hash[:32], transaction_hash],
        )
        found = cursor.fetchall()
    if not found:
        return TransactionLookup([])
    rows = list(
        Transaction.objects.filter(
            consensus_timestamp__in=[timestamp for timestamp, _ in found], **_detail_conditions(nonce, scheduled)
        )
        .order_by("consensus_timestamp")
        .values(*TRANSACTION_COLUMNS)
    )
    payers = {timestamp: payer for timestamp, payer in found}
    rows = [row for row in rows if payers[row["consensus_timestamp"]] in (None, row["payer_account_id"])]
    attach_transfers(rows, detail=True)
    return TransactionLookup(rows)


def _detail_conditions(nonce: int | None, scheduled: bool | None) -> dict:
    conditions = {}
    if nonce is not None:
        conditions["nonce"] = nonce
    if scheduled is not None:
        conditions["scheduled"] = scheduled
    return conditions


def _rows_by_id(payer: int, valid_start: int, lower: int, upper: int, conditions: dict) -> list[dict]:
    # Index transaction__transaction_id (valid_start_ns, payer_account_id).
    nonce, scheduled = conditions.get("nonce"), conditions.get("scheduled")
    values = (payer, valid_start, lower, upper) + (() if nonce is None else (nonce,))
    return _ROWS_BY_ID.rows(*values, shape=(nonce is not None, scheduled))


def _build_rows_by_id(payer, valid_start, lower, upper, *nonce, shape):
    _, scheduled = shape
    rows = Transaction.objects.filter(
        valid_start_ns=valid_start,
        payer_account_id=payer,
        consensus_timestamp__gte=lower,
        consensus_timestamp__lte=upper,
    )
    if nonce:
        rows = rows.filter(nonce=nonce[0])
    if scheduled is not None:
        rows = rows.filter(scheduled=scheduled)
    return rows.order_by("consensus_timestamp").values(*TRANSACTION_COLUMNS)


_ROWS_BY_ID = CompiledQuery(_build_rows_by_id)


def _is_successful_schedule_create(row: dict) -> bool:
    return row["type"] == TYPE_SCHEDULE_CREATE and row["result"] in SUCCESS_RESULTS


def _inner_transaction_ids(row: dict) -> list[tuple[int, int]]:
    """`inner_transactions` lists (payer, valid start) pairs flat."""
    flat = row.get("inner_transactions") or []
    return list(zip(flat[0::2], flat[1::2]))


# --- Enumerations -----------------------------------------------------------------------------


def transaction_type_name(type_id: int | None) -> str:
    return TRANSACTION_TYPES.get(type_id, "UNKNOWN")


def transaction_type_id(name: str) -> int:
    """The type id of a transaction type name (any case); ValueError for an unknown name."""
    try:
        return _TRANSACTION_TYPE_IDS[name.upper()]
    except KeyError:
        raise ValueError(f"Unknown transaction type {name!r}") from None


def result_name(result: int | None) -> str:
    return RESULT_NAMES.get(result, "UNKNOWN")


# The mirror node's transaction types: the field number of each body in the HAPI TransactionBody.
TRANSACTION_TYPES = {
    7: "CONTRACTCALL",
    8: "CONTRACTCREATEINSTANCE",
    9: "CONTRACTUPDATEINSTANCE",
    10: "CRYPTOADDLIVEHASH",
    11: "CRYPTOCREATEACCOUNT",
    12: "CRYPTODELETE",
    13: "CRYPTODELETELIVEHASH",
    14: "CRYPTOTRANSFER",
    15: "CRYPTOUPDATEACCOUNT",
    16: "FILEAPPEND",
    17: "FILECREATE",
    18: "FILEDELETE",
    19: "FILEUPDATE",
    20: "SYSTEMDELETE",
    21: "SYSTEMUNDELETE",
    22: "CONTRACTDELETEINSTANCE",
    23: "FREEZE",
    24: "CONSENSUSCREATETOPIC",
    25: "CONSENSUSUPDATETOPIC",
    26: "CONSENSUSDELETETOPIC",
    27: "CONSENSUSSUBMITMESSAGE",
    28: "UNCHECKEDSUBMIT",
    29: "TOKENCREATION",
    31: "TOKENFREEZE",
    32: "TOKENUNFREEZE",
    33: "TOKENGRANTKYC",
    34: "TOKENREVOKEKYC",
    35: "TOKENDELETION",
    36: "TOKENUPDATE",
    37: "TOKENMINT",
    38: "TOKENBURN",
    39: "TOKENWIPE",
    40: "TOKENASSOCIATE",
    41: "TOKENDISSOCIATE",
    42: "SCHEDULECREATE",
    43: "SCHEDULEDELETE",
    44: "SCHEDULESIGN",
    45: "TOKENFEESCHEDULEUPDATE",
    46: "TOKENPAUSE",
    47: "TOKENUNPAUSE",
    48: "CRYPTOAPPROVEALLOWANCE",
    49: "CRYPTODELETEALLOWANCE",
    50: "ETHEREUMTRANSACTION",
    51: "NODESTAKEUPDATE",
    52: "UTILPRNG",
    53: "TOKENUPDATENFTS",
    54: "NODECREATE",
    55: "NODEUPDATE",
    56: "NODEDELETE",
    57: "TOKENREJECT",
    58: "TOKENAIRDROP",
    59: "TOKENCANCELAIRDROP",
    60: "TOKENCLAIMAIRDROP",
    65: "STATESIGNATURETRANSACTION",
    66: "HINTSPREPROCESSINGVOTE",
    67: "HINTSKEYPUBLICATION",
    68: "HINTSPARTIALSIGNATURE",
    69: "HISTORYPROOFSIGNATURE",
    70: "HISTORYPROOFKEYPUBLICATION",
    71: "HISTORYPROOFVOTE",
    72: "CRSPUBLICATION",
    74: "ATOMICBATCH",
    75: "HOOKSTORE",
    77: "LEDGERIDPUBLICATION",
    78: "REGISTEREDNODECREATE",
    79: "REGISTEREDNODEUPDATE",
    80: "REGISTEREDNODEDELETE",
    81: "MIGRATIONROOTHASHVOTE",
}
_TRANSACTION_TYPE_IDS = {name: type_id for type_id, name in TRANSACTION_TYPES.items()}

# HAPI ResponseCodeEnum: "number NAME" pairs.
_RESULT_CODES = """
    0 OK 1 INVALID_TRANSACTION 2 PAYER_ACCOUNT_NOT_FOUND 3 INVALID_NODE_ACCOUNT 4 TRANSACTION_EXPIRED
    5 INVALID_TRANSACTION_START 6 INVALID_TRANSACTION_DURATION 7 INVALID_SIGNATURE 8 MEMO_TOO_LONG
    9 INSUFFICIENT_TX_FEE 10 INSUFFICIENT_PAYER_BALANCE 11 DUPLICATE_TRANSACTION 12 BUSY 13 NOT_SUPPORTED
    14 INVALID_FILE_ID 15 INVALID_ACCOUNT_ID 16 INVALID_CONTRACT_ID 17 INVALID_TRANSACTION_ID
    18 RECEIPT_NOT_FOUND 19 RECORD_NOT_FOUND 20 INVALID_SOLIDITY_ID 21 UNKNOWN 22 SUCCESS 23 FAIL_INVALID
    24 FAIL_FEE 25 FAIL_BALANCE 26 KEY_REQUIRED 27 BAD_ENCODING 28 INSUFFICIENT_ACCOUNT_BALANCE
    29 INVALID_SOLIDITY_ADDRESS 30 INSUFFICIENT_GAS 31 CONTRACT_SIZE_LIMIT_EXCEEDED
    32 LOCAL_CALL_MODIFICATION_EXCEPTION 33 CONTRACT_REVERT_EXECUTED 34 CONTRACT_EXECUTION_EXCEPTION
    35 INVALID_RECEIVING_NODE_ACCOUNT 36 MISSING_QUERY_HEADER 37 ACCOUNT_UPDATE_FAILED
    38 INVALID_KEY_ENCODING 39 NULL_SOLIDITY_ADDRESS 40 CONTRACT_UPDATE_FAILED 41 INVALID_QUERY_HEADER
    42 INVALID_FEE_SUBMITTED 43 INVALID_PAYER_SIGNATURE 44 KEY_NOT_PROVIDED 45 INVALID_EXPIRATION_TIME
    46 NO_WACL_KEY 47 FILE_CONTENT_EMPTY 48 INVALID_ACCOUNT_AMOUNTS 49 EMPTY_TRANSACTION_BODY
    50 INVALID_TRANSACTION_BODY 51 INVALID_SIGNATURE_TYPE_MISMATCHING_KEY
    52 INVALID_SIGNATURE_COUNT_MISMATCHING_KEY 53 EMPTY_LIVE_HASH_BODY 54 EMPTY_LIVE_HASH
    55 EMPTY_LIVE_HASH_KEYS 56 INVALID_LIVE_HASH_SIZE 57 EMPTY_QUERY_BODY 58 EMPTY_LIVE_HASH_QUERY
    59 LIVE_HASH_NOT_FOUND 60 ACCOUNT_ID_DOES_NOT_EXIST 61 LIVE_HASH_ALREADY_EXISTS 62 INVALID_FILE_WACL
    63 SERIALIZATION_FAILED 64 TRANSACTION_OVERSIZE 65 TRANSACTION_TOO_MANY_LAYERS 66 CONTRACT_DELETED
    67 PLATFORM_NOT_ACTIVE 68 KEY_PREFIX_MISMATCH 69 PLATFORM_TRANSACTION_NOT_CREATED
    70 INVALID_RENEWAL_PERIOD 71 INVALID_PAYER_ACCOUNT_ID 72 ACCOUNT_DELETED 73 FILE_DELETED
    74 ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS 75 SETTING_NEGATIVE_ACCOUNT_BALANCE 76 OBTAINER_REQUIRED
    77 OBTAINER_SAME_CONTRACT_ID 78 OBTAINER_DOES_NOT_EXIST 79 MODIFYING_IMMUTABLE_CONTRACT
    80 FILE_SYSTEM_EXCEPTION 81 AUTORENEW_DURATION_NOT_IN_RANGE 82 ERROR_DECODING_BYTESTRING
    83 CONTRACT_FILE_EMPTY 84 CONTRACT_BYTECODE_EMPTY 85 INVALID_INITIAL_BALANCE
    86 INVALID_RECEIVE_RECORD_THRESHOLD 87 INVALID_SEND_RECORD_THRESHOLD 88 ACCOUNT_IS_NOT_GENESIS_ACCOUNT
    89 PAYER_ACCOUNT_UNAUTHORIZED 90 INVALID_FREEZE_TRANSACTION_BODY 91 FREEZE_TRANSACTION_BODY_NOT_FOUND
    92 TRANSFER_LIST_SIZE_LIMIT_EXCEEDED 93 RESULT_SIZE_LIMIT_EXCEEDED 94 NOT_SPECIAL_ACCOUNT
    95 CONTRACT_NEGATIVE_GAS 96 CONTRACT_NEGATIVE_VALUE 97 INVALID_FEE_FILE 98 INVALID_EXCHANGE_RATE_FILE
    99 INSUFFICIENT_LOCAL_CALL_GAS 100 ENTITY_NOT_ALLOWED_TO_DELETE 101 AUTHORIZATION_FAILED
    102 FILE_UPLOADED_PROTO_INVALID 103 FILE_UPLOADED_PROTO_NOT_SAVED_TO_DISK
    104 FEE_SCHEDULE_FILE_PART_UPLOADED 105 EXCHANGE_RATE_CHANGE_LIMIT_EXCEEDED
    106 MAX_CONTRACT_STORAGE_EXCEEDED 107 TRANSFER_ACCOUNT_SAME_AS_DELETE_ACCOUNT
    108 TOTAL_LEDGER_BALANCE_INVALID 110 EXPIRATION_REDUCTION_NOT_ALLOWED 111 MAX_GAS_LIMIT_EXCEEDED
    112 MAX_FILE_SIZE_EXCEEDED 113 RECEIVER_SIG_REQUIRED 150 INVALID_TOPIC_ID 155 INVALID_ADMIN_KEY
    156 INVALID_SUBMIT_KEY 157 UNAUTHORIZED 158 INVALID_TOPIC_MESSAGE 159 INVALID_AUTORENEW_ACCOUNT
    160 AUTORENEW_ACCOUNT_NOT_ALLOWED 162 TOPIC_EXPIRED 163 INVALID_CHUNK_NUMBER
    164 INVALID_CHUNK_TRANSACTION_ID 165 ACCOUNT_FROZEN_FOR_TOKEN 166 TOKENS_PER_ACCOUNT_LIMIT_EXCEEDED
    167 INVALID_TOKEN_ID 168 INVALID_TOKEN_DECIMALS 169 INVALID_TOKEN_INITIAL_SUPPLY
    170 INVALID_TREASURY_ACCOUNT_FOR_TOKEN 171 INVALID_TOKEN_SYMBOL 172 TOKEN_HAS_NO_FREEZE_KEY
    173 TRANSFERS_NOT_ZERO_SUM_FOR_TOKEN 174 MISSING_TOKEN_SYMBOL 175 TOKEN_SYMBOL_TOO_LONG
    176 ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN 177 TOKEN_HAS_NO_KYC_KEY 178 INSUFFICIENT_TOKEN_BALANCE
    179 TOKEN_WAS_DELETED 180 TOKEN_HAS_NO_SUPPLY_KEY 181 TOKEN_HAS_NO_WIPE_KEY 182 INVALID_TOKEN_MINT_AMOUNT
    183 INVALID_TOKEN_BURN_AMOUNT 184 TOKEN_NOT_ASSOCIATED_TO_ACCOUNT 185 CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT
    186 INVALID_KYC_KEY 187 INVALID_WIPE_KEY 188 INVALID_FREEZE_KEY 189 INVALID_SUPPLY_KEY
    190 MISSING_TOKEN_NAME 191 TOKEN_NAME_TOO_LONG 192 INVALID_WIPING_AMOUNT 193 TOKEN_IS_IMMUTABLE
    194 TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT 195 TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES
    196 ACCOUNT_IS_TREASURY 197 TOKEN_ID_REPEATED_IN_TOKEN_LIST 198 TOKEN_TRANSFER_LIST_SIZE_LIMIT_EXCEEDED
    199 EMPTY_TOKEN_TRANSFER_BODY 200 EMPTY_TOKEN_TRANSFER_ACCOUNT_AMOUNTS 201 INVALID_SCHEDULE_ID
    202 SCHEDULE_IS_IMMUTABLE 203 INVALID_SCHEDULE_PAYER_ID 204 INVALID_SCHEDULE_ACCOUNT_ID
    205 NO_NEW_VALID_SIGNATURES 206 UNRESOLVABLE_REQUIRED_SIGNERS 207 SCHEDULED_TRANSACTION_NOT_IN_WHITELIST
    208 SOME_SIGNATURES_WERE_INVALID 209 TRANSACTION_ID_FIELD_NOT_ALLOWED
    210 IDENTICAL_SCHEDULE_ALREADY_CREATED 211 INVALID_ZERO_BYTE_IN_STRING 212 SCHEDULE_ALREADY_DELETED
    213 SCHEDULE_ALREADY_EXECUTED 214 MESSAGE_SIZE_TOO_LARGE 215 OPERATION_REPEATED_IN_BUCKET_GROUPS
    216 BUCKET_CAPACITY_OVERFLOW 217 NODE_CAPACITY_NOT_SUFFICIENT_FOR_OPERATION
    218 BUCKET_HAS_NO_THROTTLE_GROUPS 219 THROTTLE_GROUP_HAS_ZERO_OPS_PER_SEC
    220 SUCCESS_BUT_MISSING_EXPECTED_OPERATION 221 UNPARSEABLE_THROTTLE_DEFINITIONS
    222 INVALID_THROTTLE_DEFINITIONS 223 ACCOUNT_EXPIRED_AND_PENDING_REMOVAL 224 INVALID_TOKEN_MAX_SUPPLY
    225 INVALID_TOKEN_NFT_SERIAL_NUMBER 226 INVALID_NFT_ID 227 METADATA_TOO_LONG
    228 BATCH_SIZE_LIMIT_EXCEEDED 229 INVALID_QUERY_RANGE 230 FRACTION_DIVIDES_BY_ZERO
    231 INSUFFICIENT_PAYER_BALANCE_FOR_CUSTOM_FEE 232 CUSTOM_FEES_LIST_TOO_LONG
    233 INVALID_CUSTOM_FEE_COLLECTOR 234 INVALID_TOKEN_ID_IN_CUSTOM_FEES
    235 TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR 236 TOKEN_MAX_SUPPLY_REACHED
    237 SENDER_DOES_NOT_OWN_NFT_SERIAL_NO 238 CUSTOM_FEE_NOT_FULLY_SPECIFIED 239 CUSTOM_FEE_MUST_BE_POSITIVE
    240 TOKEN_HAS_NO_FEE_SCHEDULE_KEY 241 CUSTOM_FEE_OUTSIDE_NUMERIC_RANGE
    242 ROYALTY_FRACTION_CANNOT_EXCEED_ONE 243 FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT
    244 CUSTOM_SCHEDULE_ALREADY_HAS_NO_FEES 245 CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON
    246 CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON 247 INVALID_CUSTOM_FEE_SCHEDULE_KEY
    248 INVALID_TOKEN_MINT_METADATA 249 INVALID_TOKEN_BURN_METADATA 250 CURRENT_TREASURY_STILL_OWNS_NFTS
    251 ACCOUNT_STILL_OWNS_NFTS 252 TREASURY_MUST_OWN_BURNED_NFT 253 ACCOUNT_DOES_NOT_OWN_WIPED_NFT
    254 ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON
    255 MAX_NFTS_IN_PRICE_REGIME_HAVE_BEEN_MINTED 256 PAYER_ACCOUNT_DELETED
    257 CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH 258 CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS
    259 INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE 260 SERIAL_NUMBER_LIMIT_REACHED
    261 CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE 262 NO_REMAINING_AUTOMATIC_ASSOCIATIONS
    263 EXISTING_AUTOMATIC_ASSOCIATIONS_EXCEED_GIVEN_LIMIT
    264 REQUESTED_NUM_AUTOMATIC_ASSOCIATIONS_EXCEEDS_ASSOCIATION_LIMIT 265 TOKEN_IS_PAUSED
    266 TOKEN_HAS_NO_PAUSE_KEY 267 INVALID_PAUSE_KEY 268 FREEZE_UPDATE_FILE_DOES_NOT_EXIST
    269 FREEZE_UPDATE_FILE_HASH_DOES_NOT_MATCH 270 NO_UPGRADE_HAS_BEEN_PREPARED 271 NO_FREEZE_IS_SCHEDULED
    272 UPDATE_FILE_HASH_CHANGED_SINCE_PREPARE_UPGRADE 273 FREEZE_START_TIME_MUST_BE_FUTURE
    274 PREPARED_UPDATE_FILE_IS_IMMUTABLE 275 FREEZE_ALREADY_SCHEDULED 276 FREEZE_UPGRADE_IN_PROGRESS
    277 UPDATE_FILE_ID_DOES_NOT_MATCH_PREPARED 278 UPDATE_FILE_HASH_DOES_NOT_MATCH_PREPARED
    279 CONSENSUS_GAS_EXHAUSTED 280 REVERTED_SUCCESS 281 MAX_STORAGE_IN_PRICE_REGIME_HAS_BEEN_USED
    282 INVALID_ALIAS_KEY 283 UNEXPECTED_TOKEN_DECIMALS 284 INVALID_PROXY_ACCOUNT_ID
    285 INVALID_TRANSFER_ACCOUNT_ID 286 INVALID_FEE_COLLECTOR_ACCOUNT_ID 287 ALIAS_IS_IMMUTABLE
    288 SPENDER_ACCOUNT_SAME_AS_OWNER 289 AMOUNT_EXCEEDS_TOKEN_MAX_SUPPLY 290 NEGATIVE_ALLOWANCE_AMOUNT
    291 CANNOT_APPROVE_FOR_ALL_FUNGIBLE_COMMON 292 SPENDER_DOES_NOT_HAVE_ALLOWANCE
    293 AMOUNT_EXCEEDS_ALLOWANCE 294 MAX_ALLOWANCES_EXCEEDED 295 EMPTY_ALLOWANCES
    296 SPENDER_ACCOUNT_REPEATED_IN_ALLOWANCES 297 REPEATED_SERIAL_NUMS_IN_NFT_ALLOWANCES
    298 FUNGIBLE_TOKEN_IN_NFT_ALLOWANCES 299 NFT_IN_FUNGIBLE_TOKEN_ALLOWANCES 300 INVALID_ALLOWANCE_OWNER_ID
    301 INVALID_ALLOWANCE_SPENDER_ID 302 REPEATED_ALLOWANCES_TO_DELETE 303 INVALID_DELEGATING_SPENDER
    304 DELEGATING_SPENDER_CANNOT_GRANT_APPROVE_FOR_ALL 305 DELEGATING_SPENDER_DOES_NOT_HAVE_APPROVE_FOR_ALL
    306 SCHEDULE_EXPIRATION_TIME_TOO_FAR_IN_FUTURE
    307 SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME 308 SCHEDULE_FUTURE_THROTTLE_EXCEEDED
    309 SCHEDULE_FUTURE_GAS_LIMIT_EXCEEDED 310 INVALID_ETHEREUM_TRANSACTION 311 WRONG_CHAIN_ID
    312 WRONG_NONCE 313 ACCESS_LIST_UNSUPPORTED 314 SCHEDULE_PENDING_EXPIRATION
    315 CONTRACT_IS_TOKEN_TREASURY 316 CONTRACT_HAS_NON_ZERO_TOKEN_BALANCES
    317 CONTRACT_EXPIRED_AND_PENDING_REMOVAL 318 CONTRACT_HAS_NO_AUTO_RENEW_ACCOUNT
    319 PERMANENT_REMOVAL_REQUIRES_SYSTEM_INITIATION 320 PROXY_ACCOUNT_ID_FIELD_IS_DEPRECATED
    321 SELF_STAKING_IS_NOT_ALLOWED 322 INVALID_STAKING_ID 323 STAKING_NOT_ENABLED 324 INVALID_PRNG_RANGE
    325 MAX_ENTITIES_IN_PRICE_REGIME_HAVE_BEEN_CREATED 326 INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE
    327 INSUFFICIENT_BALANCES_FOR_STORAGE_RENT 328 MAX_CHILD_RECORDS_EXCEEDED
    329 INSUFFICIENT_BALANCES_FOR_RENEWAL_FEES 330 TRANSACTION_HAS_UNKNOWN_FIELDS 331 ACCOUNT_IS_IMMUTABLE
    332 ALIAS_ALREADY_ASSIGNED 333 INVALID_METADATA_KEY 334 TOKEN_HAS_NO_METADATA_KEY
    335 MISSING_TOKEN_METADATA 336 MISSING_SERIAL_NUMBERS 337 TOKEN_HAS_NO_ADMIN_KEY 338 NODE_DELETED
    339 INVALID_NODE_ID 340 INVALID_GOSSIP_ENDPOINT 341 INVALID_NODE_ACCOUNT_ID 342 INVALID_NODE_DESCRIPTION
    343 INVALID_SERVICE_ENDPOINT 344 INVALID_GOSSIP_CA_CERTIFICATE 345 INVALID_GRPC_CERTIFICATE
    346 INVALID_MAX_AUTO_ASSOCIATIONS 347 MAX_NODES_CREATED 348 IP_FQDN_CANNOT_BE_SET_FOR_SAME_ENDPOINT
    349 GOSSIP_ENDPOINT_CANNOT_HAVE_FQDN 350 FQDN_SIZE_TOO_LARGE 351 INVALID_ENDPOINT
    352 GOSSIP_ENDPOINTS_EXCEEDED_LIMIT 353 TOKEN_REFERENCE_REPEATED 354 INVALID_OWNER_ID
    355 TOKEN_REFERENCE_LIST_SIZE_LIMIT_EXCEEDED 356 SERVICE_ENDPOINTS_EXCEEDED_LIMIT
    357 INVALID_IPV4_ADDRESS 358 EMPTY_TOKEN_REFERENCE_LIST 359 UPDATE_NODE_ACCOUNT_NOT_ALLOWED
    360 TOKEN_HAS_NO_METADATA_OR_SUPPLY_KEY 361 EMPTY_PENDING_AIRDROP_ID_LIST 362 PENDING_AIRDROP_ID_REPEATED
    363 PENDING_AIRDROP_ID_LIST_TOO_LONG 364 PENDING_NFT_AIRDROP_ALREADY_EXISTS
    365 ACCOUNT_HAS_PENDING_AIRDROPS 366 THROTTLED_AT_CONSENSUS 367 INVALID_PENDING_AIRDROP_ID
    368 TOKEN_AIRDROP_WITH_FALLBACK_ROYALTY 369 INVALID_TOKEN_IN_PENDING_AIRDROP 370 SCHEDULE_EXPIRY_IS_BUSY
    371 INVALID_GRPC_CERTIFICATE_HASH 372 MISSING_EXPIRY_TIME
    373 NO_SCHEDULING_ALLOWED_AFTER_SCHEDULED_RECURSION 374 RECURSIVE_SCHEDULING_LIMIT_REACHED
    375 WAITING_FOR_LEDGER_ID 376 MAX_ENTRIES_FOR_FEE_EXEMPT_KEY_LIST_EXCEEDED
    377 FEE_EXEMPT_KEY_LIST_CONTAINS_DUPLICATED_KEYS 378 INVALID_KEY_IN_FEE_EXEMPT_KEY_LIST
    379 INVALID_FEE_SCHEDULE_KEY 380 FEE_SCHEDULE_KEY_CANNOT_BE_UPDATED 381 FEE_SCHEDULE_KEY_NOT_SET
    382 MAX_CUSTOM_FEE_LIMIT_EXCEEDED 383 NO_VALID_MAX_CUSTOM_FEE 384 INVALID_MAX_CUSTOM_FEES
    385 DUPLICATE_DENOMINATION_IN_MAX_CUSTOM_FEE_LIST 386 DUPLICATE_ACCOUNT_ID_IN_MAX_CUSTOM_FEE_LIST
    387 MAX_CUSTOM_FEES_IS_NOT_SUPPORTED 388 BATCH_LIST_EMPTY 389 BATCH_LIST_CONTAINS_DUPLICATES
    390 BATCH_TRANSACTION_IN_BLACKLIST 391 INNER_TRANSACTION_FAILED 392 MISSING_BATCH_KEY
    393 BATCH_KEY_SET_ON_NON_INNER_TRANSACTION 394 INVALID_BATCH_KEY 395 SCHEDULE_EXPIRY_NOT_CONFIGURABLE
    396 CREATING_SYSTEM_ENTITIES 397 THROTTLE_GROUP_LCM_OVERFLOW
    398 AIRDROP_CONTAINS_MULTIPLE_SENDERS_FOR_A_TOKEN 399 GRPC_WEB_PROXY_NOT_SUPPORTED
    400 NFT_TRANSFERS_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE 401 INVALID_SERIALIZED_TX_MESSAGE_HASH_ALGORITHM
    499 WRONG_HOOK_ENTITY_TYPE 500 EVM_HOOK_GAS_THROTTLED 501 HOOK_ID_IN_USE 502 BAD_HOOK_REQUEST
    503 REJECTED_BY_ACCOUNT_ALLOWANCE_HOOK 504 HOOK_NOT_FOUND 505 EVM_HOOK_STORAGE_UPDATE_BYTES_TOO_LONG
    506 EVM_HOOK_STORAGE_UPDATE_BYTES_MUST_USE_MINIMAL_REPRESENTATION 507 INVALID_HOOK_ID
    508 EMPTY_EVM_HOOK_STORAGE_UPDATE 509 HOOK_ID_REPEATED_IN_CREATION_DETAILS 510 HOOKS_NOT_ENABLED
    511 HOOK_IS_NOT_AN_EVM_HOOK 512 HOOK_DELETED 513 TOO_MANY_EVM_HOOK_STORAGE_UPDATES
    514 HOOK_CREATION_BYTES_MUST_USE_MINIMAL_REPRESENTATION 515 HOOK_CREATION_BYTES_TOO_LONG
    516 INVALID_HOOK_CREATION_SPEC 517 HOOK_EXTENSION_EMPTY 518 INVALID_HOOK_ADMIN_KEY
    519 HOOK_DELETION_REQUIRES_ZERO_STORAGE_SLOTS 520 CANNOT_SET_HOOKS_AND_APPROVAL
    521 TRANSACTION_REQUIRES_ZERO_HOOKS 522 INVALID_HOOK_CALL 523 HOOKS_ARE_NOT_SUPPORTED_IN_AIRDROPS
    524 ACCOUNT_IS_LINKED_TO_A_NODE 525 HOOKS_EXECUTIONS_REQUIRE_TOP_LEVEL_CRYPTO_TRANSFER
    526 NODE_ACCOUNT_HAS_ZERO_BALANCE 527 TRANSFER_TO_FEE_COLLECTION_ACCOUNT_NOT_ALLOWED
    528 TOO_MANY_HOOK_INVOCATIONS 529 INVALID_REGISTERED_NODE_ID 530 INVALID_REGISTERED_ENDPOINT
    531 REGISTERED_ENDPOINTS_EXCEEDED_LIMIT 532 INVALID_REGISTERED_ENDPOINT_ADDRESS
    533 INVALID_REGISTERED_ENDPOINT_TYPE 534 REGISTERED_NODE_STILL_ASSOCIATED
    535 MAX_REGISTERED_NODES_EXCEEDED
"""
RESULT_NAMES: dict[int, str] = {
    int(number): name for number, name in zip(*[iter(_RESULT_CODES.split())] * 2)
}
# The results `result=success` selects; every other result is a failure.
SUCCESS_RESULTS = (22, 104, 220)
