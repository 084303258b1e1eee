"""Reads of tokens and NFTs (`/tokens...`).

- Token lists read the `token` primary key in order, each row checked against
  its `entity` row (a token without one is not listed) by primary key.
- One token is its `token`, `entity` and `custom_fee` rows (`sql.token_info`).
- Token balances are the token's `token_account` rows, or, at a timestamp, the
  snapshot's `token_balance` rows (`sql`); the snapshot comes from the accounts app.
- NFTs of a token read the `nft` primary key `(token_id, serial_number)`.
- An NFT's transactions are the starts of its versions and the token's deletion,
  newest first (`sql.nft_transactions`).
"""

import json
from collections.abc import Sequence

from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet, Subquery

from apps.accounts.models import Entity, TokenAccount
from apps.accounts.selectors.balances import balance_snapshot_range
from apps.common import clock
from apps.common.database.connections import column_names, statement_cursor
from apps.common.query.comparisons import Comparison, filter_by
from apps.common.query.compiled import CompiledQuery
from apps.common.query.lookups import RangeLower
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.tokens import sql
from apps.tokens.account_selectors import (
    deleted_or_burned_as_deleted,
    nft_deleted_or_burned,
)
from apps.tokens.models import Nft, Token, TokenType

__all__ = (
    "nft_get",
    "nft_list",
    "nft_queryset",
    "nft_transaction_list",
    "nft_transactions",
    "token_balance_list",
    "token_info",
    "token_list",
    "token_queryset",
)

TYPE_TOKEN_DELETION = 35


def token_queryset() -> QuerySet:
    """Tokens with an entity row, as dicts with the entity's key as `admin_key`."""
    entity = Entity.objects.filter(id=OuterRef("token_id"))
    return (
        Token.objects.filter(Exists(entity))
        .annotate(admin_key=Subquery(entity.values("key")[:1]))
        .values("admin_key", "decimals", "metadata", "name", "symbol", "token_id", "type")
    )


def token_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/tokens`."""
    return _TOKEN_PAGES.rows(criteria)


def _token_page(criteria: PageCriteria) -> QuerySet:
    tokens = narrow(token_queryset(), criteria)
    for comparison in criteria["account.id"]:
        associations = TokenAccount.objects.filter(
            token_id=OuterRef("token_id"), account_id=comparison.value, associated=True
        )
        tokens = tokens.filter(Exists(associations))
    for comparison in criteria["name"]:
        # A case-insensitive substring, as upstream's `ilike '%name%'`, but of the name as
        # written: its `%`, `_` and `\` match only themselves (upstream reads them as a pattern).
        pattern = f"%{connection.ops.prep_for_like_query(comparison.value)}%"
        tokens = tokens.extra(where=["token.name ilike %s"], params=[pattern])
    for comparison in criteria["publickey"]:
        keyed = filter_by(Entity.objects.filter(id=OuterRef("token_id")), "public_key", (comparison,))
        tokens = tokens.filter(Exists(keyed))
    # Upstream compares with the operator given, in the `token_type` enum's order, and ANDs
    # every value; `ALL` (whatever its operator) narrows nothing. (Types are text: a page
    # naming one is built per request, never compiled with a marker in its place.)
    types = [comparison for comparison in criteria["type"] if comparison.value in TokenType.values]
    return filter_by(tokens, "type", types, merge_equals=False)


_TOKEN_PAGES = CompiledPages(_token_page)


def token_info(*, token_id: int, as_of: tuple[str, int] | None = None) -> dict | None:
    """`{"token", "entity", "custom_fee"}` rows of one token, or None when one is missing;
    each row's `valid_from` is the start of its version.

    `as_of` is (`lt` or `lte`, nanoseconds): the versions that started before
    (or by) then; None for the current rows.
    """
    names, rows = _fetch(*sql.token_info(token_id, as_of))
    if not rows:
        return None
    row, info, start = rows[0], {}, 0
    for name, (_, _, columns) in sql.TOKEN_INFO_PARTS.items():
        end = start + columns.count(",") + 1
        info[name] = dict(zip(names[start:end], row[start:end]))
        start = end
    for column in ("fixed_fees", "fractional_fees", "royalty_fees"):
        info["custom_fee"][column] = _json(info["custom_fee"][column])
    return info


def _json(text: str | None):
    # Django reads jsonb as text in raw queries; its JSONField decodes in ORM reads only.
    return None if text is None else json.loads(text)


def _fetch(statement: str, params: list) -> tuple[list[str], list[tuple]]:
    """The column names and the rows."""
    with statement_cursor() as cursor:
        cursor.execute(statement, params)
        return column_names(cursor), cursor.fetchall()


def _fetch_dicts(statement: str, params: list) -> list[dict]:
    names, rows = _fetch(statement, params)
    return [dict(zip(names, row)) for row in rows]


def token_balance_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/tokens/{tokenId}/balances`: `{"account_id", "balance", "consensus_timestamp",
    "decimals"}`, ordered by account; the latest snapshot by the `timestamp` comparisons
    when there are any (searched up to now when they set no upper bound)."""
    (token_id,) = criteria.scope
    public_keys = criteria["account.publickey"]
    narrowing = {
        "accounts": criteria["account.id"],
        "balances": criteria["account.balance"],
        # The last value counts, whatever its operator.
        "public_key": public_keys[-1].value if public_keys else None,
        "order": criteria.order,
        "limit": criteria.limit,
    }
    if not criteria["timestamp"]:
        return _fetch_dicts(*sql.current_token_balances(token_id, **narrowing))
    window = balance_snapshot_range(timestamps=criteria["timestamp"], now=clock.now_ns())
    if window is None:
        return []
    return _fetch_dicts(*sql.snapshot_token_balances(token_id, *window, **narrowing))


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


def nft_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/tokens/{tokenId}/nfts`, with `modified_timestamp`, and `deleted` true
    also when the token's entity is deleted."""
    return deleted_or_burned_as_deleted(_NFT_PAGES.rows(criteria))


def _nft_page(criteria: PageCriteria) -> QuerySet:
    (token_id,) = criteria.scope
    nfts = Nft.objects.filter(token_id=token_id).values(
        *(column for column in _NFT_COLUMNS if column not in ("deleted", "timestamp_range")),
        modified_timestamp=RangeLower("timestamp_range"),
        deleted_or_burned=nft_deleted_or_burned(token_id),
    )
    return narrow(nfts, criteria)


_NFT_PAGES = CompiledPages(_nft_page)


_NFT_BY_SERIAL = CompiledQuery(
    lambda token_id, serial_number: nft_queryset(token_id=token_id).filter(serial_number=serial_number)[:1]
)


def nft_get(*, token_id: int, serial_number: int) -> dict | None:
    rows = _NFT_BY_SERIAL.rows(token_id, serial_number)
    return rows[0] if rows else None


def nft_transaction_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/tokens/{tokenId}/nfts/{serialNumber}/transactions` (see `nft_transactions`)."""
    token_id, serial_number = criteria.scope
    return nft_transactions(
        token_id=token_id,
        serial_number=serial_number,
        timestamps=criteria["timestamp"],
        limit=criteria.limit,
        order=criteria.order,
    )


def nft_transactions(
    *, token_id: int, serial_number: int, timestamps: Sequence[Comparison], limit: int, order: str
) -> list[dict]:
    """One page of the NFT's transactions: `{"consensus_timestamp", "nonce", "payer_account_id",
    "valid_start_ns", "type", "transfer", "nft_created_timestamp"}`, `transfer` being the NFT's entry of
    `nft_transfer` (or None), `nft_created_timestamp` the NFT's `created_timestamp` (None without an NFT row)."""
    rows = _fetch_dicts(
        *sql.nft_transactions(token_id, serial_number, timestamps=timestamps, order=order, limit=limit)
    )
    for row in rows:
        # A token deletion moves no NFT: it is listed without sender and receiver.
        row["transfer"] = None if row["type"] == TYPE_TOKEN_DELETION else _json(row["transfer"])
    return rows
