"""Reads of tokens and NFTs (`/tokens...`).

- Token lists read the `token` primary key in order, each row checked against
  its `entity` row (a token without one is not listed) by primary key.
- One token is its `token`, `entity` and `custom_fee` rows; as of a timestamp,
  each is the newest version (current or history table) that started by then,
  read through the `(id, lower(timestamp_range))` history indexes.
- Token balances read `token_account` by `(token_id, account_id)`, or, at a
  timestamp, the snapshot's `token_balance` rows by `(token_id, account_id,
  consensus_timestamp)`; the snapshot comes from the accounts app.
- NFTs of a token read the `nft` primary key `(token_id, serial_number)`.
- An NFT's transactions are the starts of its versions (`nft`, `nft_history`)
  and the token's deletion, newest first, joined to their `transaction` rows;
  the NFT's transfer is picked out of the transaction's `nft_transfer` list.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from apps.accounts.models import Entity, EntityType
from apps.accounts.selectors import balance_snapshot_range, nft_deleted_or_burned
from apps.common.compiled import CompiledQuery
from apps.common.database import column_names, statement_cursor
from apps.common.filters import Comparison
from apps.common.lookups import RangeLower
from apps.tokens.models import Nft, Token

__all__ = (
    "TokenBalanceListFilter",
    "nft_get",
    "nft_list_queryset",
    "nft_queryset",
    "nft_transaction_list",
    "token_balance_list",
    "token_info",
    "token_queryset",
)

TYPE_TOKEN_DELETION = 35
_SQL_OPERATORS = {"eq": "=", "ne": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}

_TOKEN_COLUMNS = (
    "created_timestamp, decimals, fee_schedule_key, freeze_default, freeze_key, initial_supply, kyc_key,"
    " max_supply, metadata, metadata_key, name, pause_key, pause_status, supply_key, supply_type, symbol,"
    " token_id, total_supply, treasury_account_id, type, wipe_key, lower(timestamp_range) as valid_from"
)
_ENTITY_COLUMNS = (
    "auto_renew_account_id, auto_renew_period, deleted, expiration_timestamp, key, memo,"
    " lower(timestamp_range) as valid_from"
)
_CUSTOM_FEE_COLUMNS = "fixed_fees, fractional_fees, royalty_fees, lower(timestamp_range) as valid_from"


def token_queryset() -> QuerySet:
    """Tokens with an entity row, as dicts with the entity's key as `admin_key`."""
    entity = Entity.objects.filter(id=OuterRef("token_id"))
    return (
        Token.objects.filter(Exists(entity))
        .annotate(admin_key=Subquery(entity.values("key")[:1]))
        .values("admin_key", "decimals", "metadata", "name", "symbol", "token_id", "type")
    )


def token_info(*, token_id: int, as_of: tuple[str, int] | None = None) -> dict | None:
    """`{"token", "entity", "custom_fee"}` rows of one token, or None when one is missing;
    each row's `valid_from` is the start of its version.

    `as_of` is (`lt` or `lte`, nanoseconds): the versions that started before
    (or by) then; None for the current rows.
    """
    sources, params = [], []
    for name, (table, id_column, columns) in _TOKEN_INFO_PARTS.items():
        source, source_params = _version(table, id_column, columns, token_id, as_of)
        sources.append(f"({source}) {name}")
        params += source_params
    # One statement: a missing row leaves the cross join empty.
    names, rows = _fetch(f"select * from {', '.join(sources)}", params)
    if not rows:
        return None
    row, info, start = rows[0], {}, 0
    for name, (_, _, columns) in _TOKEN_INFO_PARTS.items():
        end = start + columns.count(",") + 1
        info[name] = dict(zip(names[start:end], row[start:end]))
        start = end
    for column in ("fixed_fees", "fractional_fees", "royalty_fees"):
        info["custom_fee"][column] = _json(info["custom_fee"][column])
    return info


_TOKEN_INFO_PARTS = {
    "token": ("token", "token_id", _TOKEN_COLUMNS),
    "entity": ("entity", "id", _ENTITY_COLUMNS),
    "custom_fee": ("custom_fee", "entity_id", _CUSTOM_FEE_COLUMNS),
}


def _version(
    table: str, id_column: str, columns: str, entity_id: int, as_of: tuple[str, int] | None
) -> tuple[str, list]:
    """The statement reading a row's current version, or its newest as of `as_of`, and its parameters."""
    if as_of is None:
        return f"select {columns} from {table} where {id_column} = %s", [entity_id]
    operator, timestamp = as_of
    condition = f"{id_column} = %s and lower(timestamp_range) {_SQL_OPERATORS[operator]} %s"
    return (
        f"(select {columns} from {table} where {condition})"
        f" union all (select {columns} from {table}_history where {condition}"
        "  order by lower(timestamp_range) desc limit 1)"
        " order by valid_from desc limit 1",
        [entity_id, timestamp, entity_id, timestamp],
    )


def _json(text: str | None):
    # Django reads jsonb as text in raw queries; its JSONField decodes in ORM reads only.
    return None if text is None else json.loads(text)


def _fetch(sql: str, params: list) -> tuple[list[str], list[tuple]]:
    """The column names and the rows."""
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        return column_names(cursor), cursor.fetchall()


def _fetch_dicts(sql: str, params: list) -> list[dict]:
    names, rows = _fetch(sql, params)
    return [dict(zip(names, row)) for row in rows]


# --- Token balances ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TokenBalanceListFilter:
    """What `/tokens/{tokenId}/balances` selects, as validated by `TokenBalanceFilterSet`."""

    token_id: int
    accounts: Sequence[Comparison] = ()
    balances: Sequence[Comparison] = ()
    public_key: str | None = None
    timestamps: Sequence[Comparison] = ()
    limit: int = 25
    order: str = "desc"


def token_balance_list(*, criteria: TokenBalanceListFilter, now: int) -> list[dict]:
    """One page of `{"account_id", "balance", "consensus_timestamp", "decimals"}`, ordered by
    account; `now` bounds a snapshot search that has no upper bound."""
    order = "desc" if criteria.order == "desc" else "asc"
    if criteria.timestamps:
        window = balance_snapshot_range(timestamps=criteria.timestamps, now=now)
        if window is None:
            return []
        sql, params = _snapshot_balances_sql(criteria, *window)
        # The holders come out in account order already: a sort would read them all.
        ordering = ""
    else:
        conditions_sql, conditions_params = _comparisons("b.account_id", criteria.accounts)
        balances_sql, balances_params = _comparisons("b.balance", criteria.balances)
        sql = (
            f"select b.account_id, b.balance, b.balance_timestamp as consensus_timestamp, {_DECIMALS}"
            f" from token_account b where b.token_id = %s and b.associated is true{conditions_sql}{balances_sql}"
        )
        params = [criteria.token_id, criteria.token_id, *conditions_params, *balances_params]
        ordering = f" order by b.account_id {order}"
    if criteria.public_key is not None:
        sql += " and exists (select 1 from entity e where e.id = b.account_id and e.type = %s and e.public_key = %s)"
        params += [EntityType.ACCOUNT, criteria.public_key]
    # The limit is written into the statement: as a parameter, the generic plan of the prepared
    # statement would count on reading a tenth of the table, and PostgreSQL planned every request.
    return _fetch_dicts(f"{sql}{ordering} limit {int(criteria.limit)}", params)


# Each balance row carries its token's decimals (null without a token row).
_DECIMALS = "(select decimals from token where token_id = %s) as decimals"


def _snapshot_balances_sql(criteria: TokenBalanceListFilter, lower: int, snapshot: int) -> tuple[str, list]:
    """Each account's latest balance of the token in [lower, snapshot], in account order.

    A `distinct on (account_id)` would read (and sort) every balance of the
    token in the window before the first row. Instead the holders are found one
    at a time, each the next account id of the `(token_id, account_id,
    consensus_timestamp)` index after the previous one, and each one's balance
    is one more probe of it: the rows read grow with the page, not the token.
    """
    order = "desc" if criteria.order == "desc" else "asc"
    accounts_sql, accounts_params = _comparisons("tb.account_id", criteria.accounts)
    in_window = "tb.token_id = %s and tb.consensus_timestamp >= %s and tb.consensus_timestamp <= %s"
    window_params = [criteria.token_id, lower, snapshot]
    balances_sql, balances_params = _comparisons("b.balance", criteria.balances)
    sql = (
        "with recursive holder as ("
        f" (select tb.account_id from token_balance tb where {in_window}{accounts_sql}"
        f"  order by tb.account_id {order} limit 1)"
        " union all"
        f" select (select tb.account_id from token_balance tb where {in_window}{accounts_sql}"
        f"  and tb.account_id {'<' if order == 'desc' else '>'} holder.account_id"
        f"  order by tb.account_id {order} limit 1)"
        " from holder where holder.account_id is not null)"
        f" select b.account_id, b.balance, %s::bigint as consensus_timestamp, {_DECIMALS} from holder"
        " cross join lateral (select tb.account_id, tb.balance from token_balance tb"
        f"  where {in_window} and tb.account_id = holder.account_id order by tb.consensus_timestamp desc limit 1) b"
        f" where true{balances_sql}"
    )
    params = [
        *window_params, *accounts_params,
        *window_params, *accounts_params,
        snapshot, criteria.token_id, *window_params,
        *balances_params,
    ]
    return sql, params


def _comparisons(column: str, comparisons: Sequence[Comparison]) -> tuple[str, list]:
    """` and <column> <op> %s` for each comparison, with their parameters."""
    sql = "".join(f" and {column} {_SQL_OPERATORS[c.operator]} %s" for c in comparisons)
    return sql, [c.value for c in comparisons]


# --- NFTs -------------------------------------------------------------------------------------

_NFT_COLUMNS = (
    "account_id",
    "created_timestamp",
    "delegating_spender",
    "deleted",
    "metadata",
    "serial_number",
    "spender",
    "timestamp_range",
    "token_id",
)


def nft_queryset(*, token_id: int) -> QuerySet:
    """The NFTs of a token, as dicts of `nft` columns."""
    return Nft.objects.filter(token_id=token_id).values(*_NFT_COLUMNS)


def nft_list_queryset(*, token_id: int) -> QuerySet:
    """The NFTs of a token as lists show them: with `modified_timestamp`, and `deleted_or_burned`
    true also when the token's entity is deleted."""
    return Nft.objects.filter(token_id=token_id).values(
        *(column for column in _NFT_COLUMNS if column not in ("deleted", "timestamp_range")),
        modified_timestamp=RangeLower("timestamp_range"),
        deleted_or_burned=nft_deleted_or_burned(token_id),
    )


_NFT_BY_SERIAL = CompiledQuery(
    lambda token_id, serial_number: nft_queryset(token_id=token_id).filter(serial_number=serial_number)[:1]
)


def nft_get(*, token_id: int, serial_number: int) -> dict | None:
    rows = _NFT_BY_SERIAL.rows(token_id, serial_number)
    return rows[0] if rows else None


def nft_transaction_list(
    *, token_id: int, serial_number: int, timestamps: Sequence[Comparison], limit: int, order: str
) -> list[dict]:
    """One page of the NFT's transactions: `{"consensus_timestamp", "nonce", "payer_account_id",
    "valid_start_ns", "type", "transfer", "nft_created_timestamp"}`, `transfer` being the NFT's entry of
    `nft_transfer` (or None), `nft_created_timestamp` the NFT's `created_timestamp` (None without an NFT row)."""
    order = "desc" if order == "desc" else "asc"
    timestamps_sql, timestamps_params = _comparisons("lower(timestamp_range)", timestamps)
    versions = "token_id = %s and serial_number = %s"
    branches = (
        ("nft", versions, [token_id, serial_number]),
        ("nft_history", versions, [token_id, serial_number]),
        ("entity", "id = %s and deleted is true", [token_id]),
    )
    events = " union ".join(
        f"(select lower(timestamp_range) as consensus_timestamp from {table} where {condition}{timestamps_sql}"
        f" order by lower(timestamp_range) {order} limit %s)"
        for table, condition, _ in branches
    )
    params = [param for *_, keys in branches for param in (*keys, *timestamps_params, limit)]
    sql = (
        "select t.consensus_timestamp, t.nonce, t.payer_account_id, t.valid_start_ns, t.type,"
        " (select transfer from jsonb_array_elements(t.nft_transfer) transfer"
        "   where (transfer->>'token_id')::bigint = %s and (transfer->>'serial_number')::bigint = %s"
        "   limit 1) as transfer,"
        " (select created_timestamp from nft where token_id = %s and serial_number = %s) as nft_created_timestamp"
        f" from ({events}) event join transaction t on t.consensus_timestamp = event.consensus_timestamp"
        f" order by t.consensus_timestamp {order} limit %s"
    )
    rows = _fetch_dicts(sql, [token_id, serial_number, token_id, serial_number, *params, limit])
    for row in rows:
        # A token deletion moves no NFT: it is listed without sender and receiver.
        row["transfer"] = None if row["type"] == TYPE_TOKEN_DELETION else _json(row["transfer"])
    return rows
