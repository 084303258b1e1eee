"""The SQL of the token reads (`selectors`) that are not one queryset: the builders of
their statements, each returning (statement, parameters). Every value is a bound parameter.

- One token (`token_info`) is its `token`, `entity` and `custom_fee` rows cross joined,
  so a missing row leaves no row; as of a timestamp, each is the newest version (current
  or history table) that started by then, read through the `(id, lower(timestamp_range))`
  history indexes.
- Token balances read `token_account` by `(token_id, account_id)` (`current_token_balances`),
  or, at a snapshot, its `token_balance` rows by `(token_id, account_id, consensus_timestamp)`
  (`snapshot_token_balances`).
- An NFT's transactions (`nft_transactions`) are the starts of its versions (`nft`,
  `nft_history`) and the token's deletion, joined to their `transaction` rows; the NFT's
  transfer is picked out of the transaction's `nft_transfer` list.
"""

from collections.abc import Sequence

from apps.accounts.models import EntityType
from apps.common.query.comparisons import OPERATORS, Comparison, Where

__all__ = (
    "TOKEN_INFO_PARTS",
    "current_token_balances",
    "nft_transactions",
    "snapshot_token_balances",
    "token_info",
)

# Each part of one token: name -> (table, id column, columns); `valid_from` starts its version.
TOKEN_INFO_PARTS = {
    "token": (
        "token",
        "token_id",
        (
            "created_timestamp, decimals, fee_schedule_key, freeze_default, freeze_key, initial_supply, kyc_key,"
            " max_supply, metadata, metadata_key, name, pause_key, pause_status, supply_key, supply_type, symbol,"
            " token_id, total_supply, treasury_account_id, type, wipe_key, lower(timestamp_range) as valid_from"
        ),
    ),
    "entity": (
        "entity",
        "id",
        (
            "auto_renew_account_id, auto_renew_period, deleted, expiration_timestamp, key, memo,"
            " lower(timestamp_range) as valid_from"
        ),
    ),
    "custom_fee": (
        "custom_fee",
        "entity_id",
        "fixed_fees, fractional_fees, royalty_fees, lower(timestamp_range) as valid_from",
    ),
}


def token_info(token_id: int, as_of: tuple[str, int] | None) -> tuple[str, list]:
    """One row of the `TOKEN_INFO_PARTS` columns, in their order; `as_of` is (`lt` or `lte`,
    nanoseconds), or None for the current rows."""
    sources, params = [], []
    for name, (table, id_column, columns) in TOKEN_INFO_PARTS.items():
        source, source_params = _version(table, id_column, columns, token_id, as_of)
        sources.append(f"({source}) {name}")
        params += source_params
    return f"select * from {', '.join(sources)}", params


def _version(
    table: str, id_column: str, columns: str, entity_id: int, as_of: tuple[str, int] | None
) -> tuple[str, list]:
    """The statement reading a row's current version, or its newest as of `as_of`."""
    if as_of is None:
        return f"select {columns} from {table} where {id_column} = %s", [entity_id]
    operator, timestamp = as_of
    condition = f"{id_column} = %s and lower(timestamp_range) {OPERATORS[operator].sql} %s"
    return (
        f"(select {columns} from {table} where {condition})"
        f" union all (select {columns} from {table}_history where {condition}"
        "  order by lower(timestamp_range) desc limit 1)"
        " order by valid_from desc limit 1",
        [entity_id, timestamp, entity_id, timestamp],
    )


# Each balance row carries its token's decimals (null without a token row).
_DECIMALS = "(select decimals from token where token_id = %s) as decimals"


def current_token_balances(
    token_id: int,
    *,
    accounts: Sequence[Comparison],
    balances: Sequence[Comparison],
    public_key: str | None,
    order: str,
    limit: int,
) -> tuple[str, list]:
    """A page of the token's associated accounts' balances `{"account_id", "balance",
    "consensus_timestamp", "decimals"}`, in account order; every comparison is ANDed."""
    direction = _direction(order)
    where = Where()
    where.add("b.token_id = %s and b.associated is true", token_id)
    where.compare("b.account_id", accounts, merge_equals=False)
    _narrow_balances(where, balances, public_key)
    return (
        f"select b.account_id, b.balance, b.balance_timestamp as consensus_timestamp, {_DECIMALS}"
        f" from token_account b where {where.sql} order by b.account_id {direction}{_limit(limit)}",
        [token_id, *where.params],
    )


def snapshot_token_balances(
    token_id: int,
    lower: int,
    snapshot: int,
    *,
    accounts: Sequence[Comparison],
    balances: Sequence[Comparison],
    public_key: str | None,
    order: str,
    limit: int,
) -> tuple[str, list]:
    """Each account's latest balance of the token in [lower, snapshot], in account order, as
    `current_token_balances` with `snapshot` as every row's `consensus_timestamp`.

    A `distinct on (account_id)` would read (and sort) every balance of the token in the
    window before the first row. Instead the holders are found one at a time, each the
    next account id of the `(token_id, account_id, consensus_timestamp)` index after the
    previous one, and each one's balance is one more probe of it: the rows read grow with
    the page, not the token. The holders come out in account order already: no sort.
    """
    direction = _direction(order)
    after = "<" if direction == "desc" else ">"
    in_window = "tb.token_id = %s and tb.consensus_timestamp >= %s and tb.consensus_timestamp <= %s"
    window = [token_id, lower, snapshot]
    holders = Where()
    holders.add(in_window, *window)
    holders.compare("tb.account_id", accounts, merge_equals=False)
    balance = Where()
    _narrow_balances(balance, balances, public_key)
    statement = (
        "with recursive holder as ("
        f" (select tb.account_id from token_balance tb where {holders.sql}"
        f"  order by tb.account_id {direction} limit 1)"
        " union all"
        f" select (select tb.account_id from token_balance tb where {holders.sql}"
        f"  and tb.account_id {after} holder.account_id"
        f"  order by tb.account_id {direction} limit 1)"
        " from holder where holder.account_id is not null)"
        f" select b.account_id, b.balance, %s::bigint as consensus_timestamp, {_DECIMALS} from holder"
        " cross join lateral (select tb.account_id, tb.balance from token_balance tb"
        f"  where {in_window} and tb.account_id = holder.account_id order by tb.consensus_timestamp desc limit 1) b"
        f" where {balance.sql}{_limit(limit)}"
    )
    return statement, [*holders.params, *holders.params, snapshot, token_id, *window, *balance.params]


def _narrow_balances(where: Where, balances: Sequence[Comparison], public_key: str | None) -> None:
    """The conditions on a balance row `b`: its amount, and its account's public key."""
    where.compare("b.balance", balances, merge_equals=False)
    if public_key is not None:
        where.add(
            "exists (select 1 from entity e where e.id = b.account_id and e.type = %s and e.public_key = %s)",
            EntityType.ACCOUNT,
            public_key,
        )


def _limit(limit: int) -> str:
    # The page size is the one value written into the text, through `int()`: as a parameter,
    # the prepared statement's generic plan would not know how few rows it reads.
    return f" limit {int(limit)}"


def nft_transactions(
    token_id: int, serial_number: int, *, timestamps: Sequence[Comparison], order: str, limit: int
) -> tuple[str, list]:
    """A page of the NFT's transactions: `{"consensus_timestamp", "nonce", "payer_account_id",
    "valid_start_ns", "type", "transfer", "nft_created_timestamp"}`, `transfer` being the NFT's
    entry of `nft_transfer` (JSON text, or null), `nft_created_timestamp` the NFT's
    `created_timestamp` (null without an NFT row). Every timestamp comparison is ANDed."""
    direction = _direction(order)
    versions = "token_id = %s and serial_number = %s"
    branches = []
    for table, condition, keys in (
        ("nft", versions, (token_id, serial_number)),
        ("nft_history", versions, (token_id, serial_number)),
        ("entity", "id = %s and deleted is true", (token_id,)),
    ):
        where = Where()
        where.add(condition, *keys)
        where.compare("lower(timestamp_range)", timestamps, merge_equals=False)
        branches.append((table, where))
    events = " union ".join(
        f"(select lower(timestamp_range) as consensus_timestamp from {table} where {where.sql}"
        f" order by lower(timestamp_range) {direction} limit %s)"
        for table, where in branches
    )
    statement = (
        "select t.consensus_timestamp, t.nonce, t.payer_account_id, t.valid_start_ns, t.type,"
        " (select transfer from jsonb_array_elements(t.nft_transfer) transfer"
        "   where (transfer->>'token_id')::bigint = %s and (transfer->>'serial_number')::bigint = %s"
        "   limit 1) as transfer,"
        " (select created_timestamp from nft where token_id = %s and serial_number = %s) as nft_created_timestamp"
        f" from ({events}) event join transaction t on t.consensus_timestamp = event.consensus_timestamp"
        f" order by t.consensus_timestamp {direction} limit %s"
    )
    params = [token_id, serial_number, token_id, serial_number]
    for _, where in branches:
        params += [*where.params, limit]
    return statement, [*params, limit]


def _direction(order: str) -> str:
    return "desc" if order == "desc" else "asc"
