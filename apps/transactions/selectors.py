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
   and token transfers and staking reward transfers (listed only for transactions
   debiting 0.0.800), in one query (each list aggregated as a JSON array, and so
   are the assessed custom fees of a transaction looked up by id or hash). Each
   table is read once for the whole page: its rows at the
   page's timestamps (`= any(page)`), bounded by the page's least and greatest
   timestamp, so the work follows the page size, not the table's.
`transaction_list` nests step 1 in step 2 (`array(...)`): one round trip.

Rows are dicts (`.values()`), which `api.serializers.TransactionSerializer`
renders; other routes that embed transactions call `transactions_at` with their
own page of timestamps.
"""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings

from apps.common.codecs import encode_entity_id
from apps.common.database import statement_cursor
from apps.common.filters import Comparison
from apps.common.hapi import (
    RESULT_NAMES,
    SUCCESS_RESULTS,
    TRANSACTION_TYPES,
    result_name,
    transaction_type_id,
    transaction_type_name,
)

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
# transaction_hash is list-partitioned by mod(get_byte(hash, 0), 32), as the importer creates it.
TRANSACTION_HASH_PARTITIONS = 32
# A scheduled transaction may execute this long after its schedule was created.
SCHEDULED_CONSENSUS_RANGE_NS = 89_285 * NANOS_PER_MINUTE

TYPE_CRYPTO_CREATE_ACCOUNT = 11
TYPE_CRYPTO_UPDATE_ACCOUNT = 15
TYPE_SCHEDULE_CREATE = 42
STAKING_REWARD_ACCOUNT_NUM = 800
# crypto_transfer__entity_id_consensus_timestamp leaves out the fee collector's transfers
# (`where entity_id <> 98`, as the importer creates it).
FEE_COLLECTOR_ENTITY_ID = 98

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
    with statement_cursor() as cursor:
        cursor.execute(*page)
        return [row[0] for row in cursor.fetchall()]


def _page_timestamps_query(criteria: TransactionListFilter) -> tuple[str, list] | None:
    """SQL and parameters selecting the timestamps of one page; None when nothing can match."""
    timestamp_equals = {c.value for c in criteria.timestamps if c.operator == "eq"}
    if len(timestamp_equals) > 1 or len(set(criteria.directions)) > 1:
        # Two different instants, or credit and debit at once: nothing matches both.
        return None
    order = "desc" if criteria.order == "desc" else "asc"
    # The limit and the constants below are written into the statement, not passed as
    # parameters: then PostgreSQL can keep one generic plan of the prepared statement
    # rather than plan it again for every page (a generic plan cannot know a limit
    # parameter, and assumes a tenth of the table).
    limit = f"limit {int(criteria.limit)}"
    direction = criteria.directions[0] if criteria.directions else None
    branches, params = [], []

    if not criteria.accounts and direction is None:
        where = _Where()
        where.compare("t.consensus_timestamp", criteria.timestamps)
        _transaction_conditions(where, "t", criteria)
        sql = (
            f"select t.consensus_timestamp from transaction t where {where.sql}"
            f" order by t.consensus_timestamp {order} {limit}"
        )
        return sql, where.params

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
                    "(x.nonce = 0 or x.parent_consensus_timestamp is not null"
                    f" or x.type in ({TYPE_CRYPTO_CREATE_ACCOUNT}, {TYPE_CRYPTO_UPDATE_ACCOUNT}))"
                )
                _transaction_conditions(where, "x", criteria)
            elif table == "entity_transaction":
                _transaction_conditions(where, "x", criteria)
            else:
                if table == "crypto_transfer":
                    where.add("x.errata is distinct from 'DELETE'")
                    if _only_other_than_fee_collector(accounts):
                        # Implies the partial index's predicate, which a generic plan of
                        # `entity_id = $1` cannot otherwise prove.
                        where.add(f"x.entity_id <> {FEE_COLLECTOR_ENTITY_ID}")
                if direction is not None:
                    where.add("x.amount > 0" if direction == CREDIT else "x.amount < 0")
                if criteria.types or criteria.result:
                    join = " join transaction t on t.consensus_timestamp = x.consensus_timestamp"
                    _transaction_conditions(where, "t", criteria)
            # distinct: a transaction has several transfers, which must not use up the limit.
            branches.append(
                f"(select distinct x.consensus_timestamp from {table} x{join} where {where.sql}"
                f" order by x.consensus_timestamp {order} {limit})"
            )
            params.extend(where.params)

    sql = (
        f"select consensus_timestamp from ({' union '.join(branches)}) page"
        f" order by consensus_timestamp {order} {limit}"
    )
    return sql, params


def _split_accounts(comparisons: Sequence[Comparison]) -> list[list[Comparison]]:
    """One comparison list per eq value (each then reads one index range), or one for all."""
    equals = list(dict.fromkeys(c.value for c in comparisons if c.operator == "eq"))
    if not 1 < len(equals) <= _MAX_SPLIT_ACCOUNTS:
        return [list(comparisons)]
    others = [c for c in comparisons if c.operator != "eq"]
    return [[Comparison("eq", value), *others] for value in equals]


def _only_other_than_fee_collector(comparisons: Sequence[Comparison]) -> bool:
    """Whether the comparisons (eq values ORed, the rest ANDed) leave out the fee collector."""
    equals = [c.value for c in comparisons if c.operator == "eq"]
    return bool(equals) and FEE_COLLECTOR_ENTITY_ID not in equals


def _transaction_conditions(where: _Where, alias: str, criteria: TransactionListFilter) -> None:
    """Conditions on a transaction's (or entity_transaction's) type and result."""
    types = list(dict.fromkeys(criteria.types))
    if len(types) == 1:
        where.add(f"{alias}.type = %s", types[0])
    elif types:
        where.add(f"{alias}.type = any(%s)", types)
    successes = ", ".join(str(int(result)) for result in SUCCESS_RESULTS)
    if criteria.result == RESULT_SUCCESS:
        where.add(f"{alias}.result in ({successes})")
    elif criteria.result == RESULT_FAIL:
        where.add(f"{alias}.result not in ({successes})")


# --- Rows with their transfers ----------------------------------------------------------------


# The page's timestamps (`{timestamps}`: an array, read once) with their least and greatest.
# Each list below reads its table once for the whole page: an index scan of the page's keys
# (`= any`, one descent per leaf page they share) bounded by that range, so its work follows
# the page, not the table.
_PAGE_CTE = (
    "with given as materialized (select {timestamps}::bigint[] as ts),"
    " page as materialized (select ts, (select min(v) from unnest(ts) v) as lo,"
    " (select max(v) from unnest(ts) v) as hi from given)"
)
# name -> the page's lists of that kind, one JSON array per consensus timestamp, ordered as
# the API lists them.
_LISTS = {
    "crypto": (
        "select c.consensus_timestamp,"
        " json_agg(json_build_array(c.entity_id, c.amount, c.is_approval) order by c.entity_id, c.amount) as list"
        " from page p join crypto_transfer c on c.consensus_timestamp = any(p.ts)"
        " and c.consensus_timestamp between p.lo and p.hi"
        " where c.errata is distinct from 'DELETE' group by c.consensus_timestamp"
    ),
    "token": (
        "select k.consensus_timestamp, json_agg(json_build_array(k.token_id, k.account_id, k.amount, k.is_approval)"
        " order by k.token_id, k.account_id) as list"
        " from page p join token_transfer k on k.consensus_timestamp = any(p.ts)"
        " and k.consensus_timestamp between p.lo and p.hi group by k.consensus_timestamp"
    ),
    "reward": (
        "select s.consensus_timestamp, json_agg(json_build_array(s.account_id, s.amount) order by s.account_id) as list"
        " from page p join staking_reward_transfer s on s.consensus_timestamp = any(p.ts)"
        " and s.consensus_timestamp between p.lo and p.hi group by s.consensus_timestamp"
    ),
    "fee": (
        "select f.consensus_timestamp, json_agg(json_build_array(f.amount, f.collector_account_id,"
        " f.effective_payer_account_ids, f.token_id) order by f.collector_account_id, f.amount) as list"
        " from page p join assessed_custom_fee f on f.consensus_timestamp = any(p.ts)"
        " and f.consensus_timestamp between p.lo and p.hi group by f.consensus_timestamp"
    ),
}


def _rows_with_lists_sql(rows: str, detail: bool) -> str:
    """`rows` (a select of `consensus_timestamp` and more from `page p`) with the lists as
    trailing columns (fees only for a detail).

    Full joins, which PostgreSQL runs as hash or merge joins only: with a left join the
    planner, which cannot know the page's size, may pick a nested loop that aggregates a
    list again for each row. A list without a row of `rows` comes out as a row of nulls
    (skipped by the reader)."""
    names = ("crypto", "token", "reward", "fee") if detail else ("crypto", "token", "reward")
    columns = ", ".join(f"{name}.list" for name in names)
    joins = " ".join(
        f"full join ({_LISTS[name]}) {name} on {name}.consensus_timestamp = r.consensus_timestamp" for name in names
    )
    return f"{_PAGE_CTE} select r.*, {columns} from ({rows}) r {joins}"


# The transactions at a page's timestamps with their lists.
_ROWS_WITH_TRANSFERS_SQL = {
    detail: _rows_with_lists_sql(
        f"select {', '.join('t.' + column for column in TRANSACTION_COLUMNS)}"
        " from page p join transaction t on t.consensus_timestamp = any(p.ts)"
        " and t.consensus_timestamp between p.lo and p.hi",
        detail,
    )
    for detail in (False, True)
}


def transactions_at(*, timestamps: Sequence[int], order: str = "asc", detail: bool = False) -> list[dict]:
    """The transactions at `timestamps`, ordered by consensus timestamp, each with
    `crypto_transfers`, `token_transfers`, `staking_reward_transfers` and (when
    `detail`) `assessed_custom_fees`, in one query."""
    if not timestamps:
        return []
    return _rows_with_transfers("%s", [list(timestamps)], order=order, detail=detail)


def _rows_with_transfers(timestamps_sql: str, params: list, *, order: str, detail: bool = False) -> list[dict]:
    with statement_cursor() as cursor:
        cursor.execute(_ROWS_WITH_TRANSFERS_SQL[detail].format(timestamps=timestamps_sql), params)
        found = cursor.fetchall()
    rows = []
    for found_row in found:
        row = dict(zip(TRANSACTION_COLUMNS, found_row))
        if row["consensus_timestamp"] is None:
            continue  # lists of a timestamp without a transaction
        if isinstance(row["nft_transfer"], str):
            # jsonb arrives as text (Django's loader); the ORM would have parsed it.
            row["nft_transfer"] = json.loads(row["nft_transfer"])
        _set_lists(row, *found_row[len(TRANSACTION_COLUMNS) :])
        rows.append(row)
    rows.sort(key=lambda row: row["consensus_timestamp"], reverse=order == "desc")
    return rows


def _set_lists(
    row: dict, crypto: list | None, token: list | None, rewards: list | None, *fees: list | None
) -> None:
    """The lists as the rows keep them; `fees` (one list or none) only for a detail."""
    timestamp = row["consensus_timestamp"]
    row["crypto_transfers"] = [
        {"consensus_timestamp": timestamp, "entity_id": entity_id, "amount": amount, "is_approval": is_approval}
        for entity_id, amount, is_approval in crypto or ()
    ]
    # Staking rewards are paid from 0.0.800: only a transaction with a transfer of it lists any.
    pays_rewards = rewards and _staking_reward_account() in (transfer[0] for transfer in crypto or ())
    row["staking_reward_transfers"] = [
        {"consensus_timestamp": timestamp, "account_id": account_id, "amount": amount}
        for account_id, amount in (rewards if pays_rewards else ())
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


def _staking_reward_account() -> int:
    return encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], STAKING_REWARD_ACCOUNT_NUM)


# --- One transaction by id or hash ------------------------------------------------------------


@dataclass(frozen=True)
class TransactionLookup:
    rows: list[dict]
    # True while a schedule created by the transaction may still execute: the answer may change.
    pending_schedule: bool = False


def transactions_by_id(
    *, payer: int, valid_start: int, nonce: int | None = None, scheduled: bool | None = None, now: int
) -> TransactionLookup:
    """The transactions of one transaction id (payer, valid start), oldest first, with their
    lists (one statement, plus one for an atomic batch's inner transactions).

    Read within the window a transaction can reach consensus in after its valid
    start; a scheduled execution can come much later, so the window widens when
    the caller asks for it (`scheduled=true`) and none was found, or when a
    successful schedule create is found without its execution. The inner
    transactions of an atomic batch follow the batch.
    """
    lower = valid_start - VALID_START_DRIFT_NS
    rows = _rows_of_ids([(payer, valid_start, lower, valid_start + TRANSACTION_CONSENSUS_RANGE_NS)], nonce, scheduled)
    creates = [row for row in rows if _is_successful_schedule_create(row)]
    executed = any(row["scheduled"] for row in rows)
    if (scheduled is True and not rows) or (scheduled is None and creates and not executed):
        rows = _rows_of_ids([(payer, valid_start, lower, lower + SCHEDULED_CONSENSUS_RANGE_NS)], nonce, scheduled)
        executed = any(row["scheduled"] for row in rows)

    inner = [
        (inner_payer, inner_start, inner_start - VALID_START_DRIFT_NS, inner_start + TRANSACTION_CONSENSUS_RANGE_NS)
        for row in rows
        for inner_payer, inner_start in _inner_transaction_ids(row)
    ]
    if inner:
        known = {row["consensus_timestamp"] for row in rows}
        rows.extend(row for row in _rows_of_ids(inner, nonce, scheduled) if row["consensus_timestamp"] not in known)
        rows.sort(key=lambda row: row["consensus_timestamp"])

    pending = (
        scheduled is None
        and not executed
        and any(row["consensus_timestamp"] + SCHEDULED_CONSENSUS_RANGE_NS > now for row in creates)
    )
    return TransactionLookup(rows, pending)


def transactions_by_hash(
    *, transaction_hash: bytes, nonce: int | None = None, scheduled: bool | None = None
) -> TransactionLookup:
    """The transactions whose 48-byte hash is `transaction_hash`, oldest first, with their
    lists, in one statement.

    The transaction_hash table keeps the first 32 bytes in `hash` (the hash
    index is on them) and the other 16 in `hash_suffix`; a payer it records must be the
    transaction's. It is partitioned by `mod(get_byte(hash, 0), 32)`: naming the partition
    spares probing the other 31. It is named in the statement's text (one prepared
    statement per partition), where the generic plan prunes the others; as a parameter,
    PostgreSQL planned every request anew.
    """
    partition = transaction_hash[0] % TRANSACTION_HASH_PARTITIONS
    detail, params = _detail_conditions("t", nonce, scheduled)
    timestamps = (
        "array(select h.consensus_timestamp from transaction_hash h"
        " join transaction t on t.consensus_timestamp = h.consensus_timestamp"
        f" where mod(get_byte(h.hash, 0), 32) = {partition} and substring(h.hash from 1 for 32) = %s"
        " and h.hash || coalesce(h.hash_suffix, ''::bytea) = %s"
        f" and (h.payer_account_id is null or h.payer_account_id = t.payer_account_id){detail})"
    )
    return TransactionLookup(
        _rows_with_transfers(timestamps, [transaction_hash[:32], transaction_hash, *params], order="asc", detail=True)
    )


def _rows_of_ids(windows: Sequence[tuple[int, int, int, int]], nonce: int | None, scheduled: bool | None) -> list[dict]:
    """The transactions, oldest first with their detail lists, of each transaction id
    (payer, valid start) reaching consensus within its window (lower, upper), in one statement
    (index transaction__transaction_id (valid_start_ns, payer_account_id))."""
    ids = " or ".join(
        ["(valid_start_ns = %s and payer_account_id = %s and consensus_timestamp between %s and %s)"] * len(windows)
    )
    detail, params = _detail_conditions("transaction", nonce, scheduled)
    timestamps = f"array(select consensus_timestamp from transaction where ({ids}){detail})"
    values = [value for payer, valid_start, lower, upper in windows for value in (valid_start, payer, lower, upper)]
    return _rows_with_transfers(timestamps, [*values, *params], order="asc", detail=True)


def _detail_conditions(alias: str, nonce: int | None, scheduled: bool | None) -> tuple[str, list]:
    """The SQL (`and ...`) and parameters of the lookups' `nonce` and `scheduled` filters."""
    sql, params = "", []
    if nonce is not None:
        sql += f" and {alias}.nonce = %s"
        params.append(nonce)
    if scheduled is not None:
        sql += f" and {alias}.scheduled = %s"
        params.append(scheduled)
    return sql, params


def _is_successful_schedule_create(row: dict) -> bool:
    return row["type"] == TYPE_SCHEDULE_CREATE and row["result"] in SUCCESS_RESULTS


def _inner_transaction_ids(row: dict) -> list[tuple[int, int]]:
    """`inner_transactions` lists (payer, valid start) pairs flat."""
    flat = row.get("inner_transactions") or []
    return list(zip(flat[0::2], flat[1::2]))
