"""The SQL of the transaction reads (`selectors`): the statements, and the builders of those
whose text follows the request's shape. Every value is a bound parameter.

A page of `/transactions` is one statement of two steps, each bounded by the page size:
1. the consensus timestamps of the page (`page_timestamps`). Without an account or
   transfer direction that is one range scan of the transaction primary key (or of
   `(type, consensus_timestamp)`). With an account, it is a UNION of one index range scan
   per place an account shows up in a transaction, each ordered and limited by itself: the
   payer (`transaction__payer_account_id_consensus_ns`), its crypto transfers
   (`crypto_transfer__entity_id_consensus_timestamp`), its token transfers
   (`token_transfer__account_timestamp`) and any other involvement recorded in
   `entity_transaction` (its primary key). A credit/debit filter reads the two transfer
   tables only.
2. the transaction rows at those timestamps with their crypto and token transfers and
   staking reward transfers, each list aggregated as a JSON array (and so are the assessed
   custom fees of a transaction looked up by id or hash: `detail`). Each table is read once
   for the whole page: its rows at the page's timestamps (`= any(page)`), bounded by the
   page's least and greatest timestamp, so the work follows the page size, not the table's.
`page_with_transfers` nests step 1 in step 2 (`array(...)`): one round trip. Each statement
of step 2 selects `TRANSACTION_COLUMNS`, then the lists.
"""

from collections.abc import Sequence

from apps.common.ledger.hapi import SUCCESS_RESULTS
from apps.common.query.comparisons import Comparison, Where, combine

__all__ = (
    "TRANSACTION_COLUMNS",
    "TRANSACTIONS_AT",
    "by_hash",
    "by_ids",
    "page_timestamps",
    "page_with_transfers",
)

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

TYPE_CRYPTO_CREATE_ACCOUNT = 11
TYPE_CRYPTO_UPDATE_ACCOUNT = 15
# crypto_transfer__entity_id_consensus_timestamp leaves out the fee collector's transfers
# (`where entity_id <> 98`, as the importer creates it).
FEE_COLLECTOR_ENTITY_ID = 98
# transaction_hash is list-partitioned by mod(get_byte(hash, 0), 32), as the importer creates it.
TRANSACTION_HASH_PARTITIONS = 32
# Only eq values up to this many get an index range scan of their own.
_MAX_SPLIT_ACCOUNTS = 10
_SUCCESSES = ", ".join(str(int(result)) for result in SUCCESS_RESULTS)


# --- A page's timestamps ----------------------------------------------------------------------


def page_timestamps(
    *,
    accounts: Sequence[Comparison],
    timestamps: Sequence[Comparison],
    types: Sequence[int],
    successful: bool | None,
    credit: bool | None,
    order: str,
    limit: int,
) -> tuple[str, list]:
    """The statement selecting the consensus timestamps of one page, in page order, and its
    parameters: transactions of `accounts` and `timestamps` (each parameter's comparisons
    combined as `comparisons.combine` combines them), of one of `types` (any when empty),
    successful or failed (any when None), crediting or debiting the account (any when None)."""
    order = "desc" if order == "desc" else "asc"
    # The limit and the constants below are written into the statement, not passed as
    # parameters: then PostgreSQL can keep one generic plan of the prepared statement
    # rather than plan it again for every page (a generic plan cannot know a limit
    # parameter, and assumes a tenth of the table).
    limit_clause = f"limit {int(limit)}"  # the one request value in the text: an integer, through int()

    if not accounts and credit is None:
        where = Where()
        where.compare("t.consensus_timestamp", timestamps)
        _transaction_conditions(where, "t", types, successful)
        sql = (
            f"select t.consensus_timestamp from transaction t where {where.sql}"
            f" order by t.consensus_timestamp {order} {limit_clause}"
        )
        return sql, where.params

    branches, params = [], []
    for account_comparisons in _split_accounts(accounts):
        sources = [("crypto_transfer", "entity_id"), ("token_transfer", "account_id")]
        if credit is None:
            sources = [("transaction", "payer_account_id"), *sources, ("entity_transaction", "entity_id")]
        for table, account_column in sources:
            where = Where()
            where.compare(f"x.{account_column}", account_comparisons)
            where.compare("x.consensus_timestamp", timestamps)
            join = ""
            if table == "transaction":
                # The payer's own synthetic child records (a nonce without a parent) show up
                # through their transfers only, except for account creations and updates.
                where.add(
                    "(x.nonce = 0 or x.parent_consensus_timestamp is not null"
                    f" or x.type in ({TYPE_CRYPTO_CREATE_ACCOUNT}, {TYPE_CRYPTO_UPDATE_ACCOUNT}))"
                )
                _transaction_conditions(where, "x", types, successful)
            elif table == "entity_transaction":
                _transaction_conditions(where, "x", types, successful)
            else:
                if table == "crypto_transfer":
                    where.add("x.errata is distinct from 'DELETE'")
                    if _only_other_than_fee_collector(account_comparisons):
                        # Implies the partial index's predicate, which a generic plan of
                        # `entity_id = $1` cannot otherwise prove.
                        where.add(f"x.entity_id <> {FEE_COLLECTOR_ENTITY_ID}")
                if credit is not None:
                    where.add("x.amount > 0" if credit else "x.amount < 0")
                if types or successful is not None:
                    join = " join transaction t on t.consensus_timestamp = x.consensus_timestamp"
                    _transaction_conditions(where, "t", types, successful)
            # distinct: a transaction has several transfers, which must not use up the limit.
            branches.append(
                f"(select distinct x.consensus_timestamp from {table} x{join} where {where.sql}"
                f" order by x.consensus_timestamp {order} {limit_clause})"
            )
            params.extend(where.params)

    sql = (
        f"select consensus_timestamp from ({' union '.join(branches)}) page"
        f" order by consensus_timestamp {order} {limit_clause}"
    )
    return sql, params


def _split_accounts(comparisons: Sequence[Comparison]) -> list[Sequence[Comparison]]:
    """One comparison list per eq value (each then reads one index range), or one for all."""
    combined = combine(comparisons)
    if combined.matches_nothing or not 1 < len(combined.equals) <= _MAX_SPLIT_ACCOUNTS:
        return [comparisons]
    return [[Comparison("eq", value), *combined.others] for value in combined.equals]


def _only_other_than_fee_collector(comparisons: Sequence[Comparison]) -> bool:
    """Whether the comparisons (combined) name accounts by `eq`, the fee collector not among them."""
    equals = combine(comparisons).equals
    return bool(equals) and FEE_COLLECTOR_ENTITY_ID not in equals


def _transaction_conditions(where: Where, alias: str, types: Sequence[int], successful: bool | None) -> None:
    """Conditions on a transaction's (or entity_transaction's) type and result."""
    where.compare(f"{alias}.type", [Comparison("eq", type_id) for type_id in types])
    if successful is True:
        where.add(f"{alias}.result in ({_SUCCESSES})")
    elif successful is False:
        where.add(f"{alias}.result not in ({_SUCCESSES})")


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


def _rows_with_lists(rows: str, detail: bool) -> str:
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


# The transactions at a page's timestamps with their lists; `{timestamps}` is filled with
# the SQL of the page's timestamps.
_ROWS_WITH_TRANSFERS = {
    detail: _rows_with_lists(
        f"select {', '.join('t.' + column for column in TRANSACTION_COLUMNS)}"
        " from page p join transaction t on t.consensus_timestamp = any(p.ts)"
        " and t.consensus_timestamp between p.lo and p.hi",
        detail,
    )
    for detail in (False, True)
}


def _with_transfers(timestamps: str, *, detail: bool) -> str:
    """The transactions at the timestamps the SQL `timestamps` gives (a bigint[]), with their lists."""
    return _ROWS_WITH_TRANSFERS[detail].format(timestamps=timestamps)


# detail -> the transactions at the timestamps of its one parameter (an array), with their lists.
TRANSACTIONS_AT = {detail: _with_transfers("%s", detail=detail) for detail in (False, True)}


def page_with_transfers(**page) -> tuple[str, list]:
    """The statement reading the transactions of one page (`page_timestamps`'s arguments)
    with their lists, and its parameters."""
    timestamps, params = page_timestamps(**page)
    return _with_transfers(f"array({timestamps})", detail=False), params


# --- One transaction by id or hash ------------------------------------------------------------


def by_ids(
    windows: Sequence[tuple[int, int, int, int]], *, nonce: int | None, scheduled: bool | None
) -> tuple[str, list]:
    """The statement reading the transactions, with their detail lists, of each transaction
    id (payer, valid start) reaching consensus within its window (lower, upper), and its
    parameters (index transaction__transaction_id (valid_start_ns, payer_account_id))."""
    ids = " or ".join(
        ["(valid_start_ns = %s and payer_account_id = %s and consensus_timestamp between %s and %s)"] * len(windows)
    )
    detail, params = _detail_conditions("transaction", nonce, scheduled)
    timestamps = f"array(select consensus_timestamp from transaction where ({ids}){detail})"
    values = [value for payer, valid_start, lower, upper in windows for value in (valid_start, payer, lower, upper)]
    return _with_transfers(timestamps, detail=True), [*values, *params]


# The condition naming each partition of transaction_hash, written into the statement's text.
_HASH_PARTITIONS = tuple(
    f"mod(get_byte(h.hash, 0), {TRANSACTION_HASH_PARTITIONS}) = {partition}"
    for partition in range(TRANSACTION_HASH_PARTITIONS)
)


def by_hash(transaction_hash: bytes, *, nonce: int | None, scheduled: bool | None) -> tuple[str, list]:
    """The statement reading the transactions whose 48-byte hash is `transaction_hash`, with
    their detail lists, and its parameters.

    The transaction_hash table keeps the first 32 bytes in `hash` (the hash index is on
    them) and the other 16 in `hash_suffix`; a payer it records must be the transaction's.
    It is partitioned by `mod(get_byte(hash, 0), 32)`: naming the partition spares probing
    the other 31. The statement names it in its text (one statement per partition, chosen
    among `_HASH_PARTITIONS`), where the generic plan prunes the others; as a parameter,
    PostgreSQL planned every request anew.
    """
    partition = _HASH_PARTITIONS[transaction_hash[0] % TRANSACTION_HASH_PARTITIONS]
    detail, params = _detail_conditions("t", nonce, scheduled)
    timestamps = (
        "array(select h.consensus_timestamp from transaction_hash h"
        " join transaction t on t.consensus_timestamp = h.consensus_timestamp"
        f" where {partition} and substring(h.hash from 1 for 32) = %s"
        " and h.hash || coalesce(h.hash_suffix, ''::bytea) = %s"
        f" and (h.payer_account_id is null or h.payer_account_id = t.payer_account_id){detail})"
    )
    return _with_transfers(timestamps, detail=True), [transaction_hash[:32], transaction_hash, *params]


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
