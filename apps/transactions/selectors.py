"""Reads of transactions and the lists that render with them.

A page of `/transactions` is one statement (`sql.page_with_transfers`): the page's consensus
timestamps, then the transactions at them with their crypto, token and staking reward
transfers (the latter listed only for transactions debiting 0.0.800); a transaction looked
up by id or hash comes with its assessed custom fees too. `apps.transactions.sql` holds the
statements and how they read each table once per page.

Rows are dicts, which `api.serializers.TransactionSerializer` renders; other routes that
embed transactions read their own page of timestamps (`transaction_page_timestamps`) and
call `transactions_at` with it.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from apps.common.database.connections import statement_cursor
from apps.common.ledger.codecs import encode_entity_id
from apps.common.ledger.hapi import (
    RESULT_NAMES,
    SUCCESS_RESULTS,
    TRANSACTION_TYPES,
    result_name,
    transaction_type_id,
    transaction_type_name,
)
from apps.common.query.comparisons import Comparison, conflicting_equals
from apps.common.query.pages import PageCriteria
from apps.transactions import sql

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
    "transaction_filter",
    "transaction_list",
    "transaction_page",
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

TYPE_SCHEDULE_CREATE = 42
STAKING_REWARD_ACCOUNT_NUM = 800


# --- The list ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TransactionListFilter:
    """What a page of transactions selects: `/transactions`' criteria (`transaction_filter`),
    or an account's transactions as another route lists them.

    `accounts` and `timestamps` are each one parameter's comparisons, combined as
    `comparisons.combine` combines them; an account value of None (an EVM address that
    encodes no id) matches nothing. `directions` holds the distinct `type` values.
    """

    accounts: Sequence[Comparison] = ()
    timestamps: Sequence[Comparison] = ()
    types: Sequence[int] = ()
    result: str | None = None
    directions: Sequence[str] = ()
    limit: int = 25
    order: str = "desc"


def transaction_list(criteria: PageCriteria) -> list[dict]:
    """One page of `/transactions` (`TransactionFilterSet`'s criteria)."""
    return transaction_page(transaction_filter(criteria))


def transaction_filter(criteria: PageCriteria) -> TransactionListFilter:
    """The transactions `/transactions`' criteria select."""
    return TransactionListFilter(
        accounts=criteria["account.id"],
        timestamps=criteria["timestamp"],
        types=criteria.extra["types"],
        result=criteria.option("result"),
        directions=criteria.extra["directions"],
        limit=criteria.limit,
        order=criteria.order,
    )


def transaction_page(criteria: TransactionListFilter) -> list[dict]:
    """One page of transactions: rows with their transfer lists, in page order, in one statement."""
    if _matches_nothing(criteria):
        return []
    return _rows_with_transfers(*sql.page_with_transfers(**_page_arguments(criteria)), order=criteria.order)


def transaction_page_timestamps(criteria: TransactionListFilter) -> list[int]:
    """The consensus timestamps of one page, in page order."""
    if _matches_nothing(criteria):
        return []
    with statement_cursor() as cursor:
        cursor.execute(*sql.page_timestamps(**_page_arguments(criteria)))
        return [row[0] for row in cursor.fetchall()]


def _matches_nothing(criteria: TransactionListFilter) -> bool:
    """Two different instants, or credit and debit at once: no transaction is both."""
    return conflicting_equals(criteria.timestamps) or len(set(criteria.directions)) > 1


def _page_arguments(criteria: TransactionListFilter) -> dict:
    """The arguments of `sql.page_timestamps` for the criteria."""
    direction = criteria.directions[0] if criteria.directions else None
    return {
        "accounts": criteria.accounts,
        "timestamps": criteria.timestamps,
        "types": criteria.types,
        "successful": {RESULT_SUCCESS: True, RESULT_FAIL: False}.get(criteria.result),
        "credit": None if direction is None else direction == CREDIT,
        "order": criteria.order,
        "limit": criteria.limit,
    }


# --- Rows with their transfers ----------------------------------------------------------------


def transactions_at(*, timestamps: Sequence[int], order: str = "asc", detail: bool = False) -> list[dict]:
    """The transactions at `timestamps`, ordered by consensus timestamp, each with
    `crypto_transfers`, `token_transfers`, `staking_reward_transfers` and (when
    `detail`) `assessed_custom_fees`, in one statement."""
    if not timestamps:
        return []
    return _rows_with_transfers(sql.TRANSACTIONS_AT[detail], [list(timestamps)], order=order)


def _rows_with_transfers(statement: str, params: list, *, order: str) -> list[dict]:
    """The rows of a statement reading transactions with their lists (`sql`), in `order`."""
    with statement_cursor() as cursor:
        cursor.execute(statement, params)
        found = cursor.fetchall()
    columns = sql.TRANSACTION_COLUMNS
    rows = []
    for found_row in found:
        row = dict(zip(columns, found_row))
        if row["consensus_timestamp"] is None:
            continue  # lists of a timestamp without a transaction
        if isinstance(row["nft_transfer"], str):
            # jsonb arrives as text (Django's loader); the ORM would have parsed it.
            row["nft_transfer"] = json.loads(row["nft_transfer"])
        _set_lists(row, *found_row[len(columns) :])
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
    # How far a consensus timestamp may lie from its transaction's valid start, and how long
    # after its schedule's creation a scheduled transaction may execute (the upstream's settings).
    drift = settings.MIRROR["MAX_VALID_START_TIMESTAMP_DRIFT"].nanoseconds
    consensus_range = settings.MIRROR["MAX_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE"].nanoseconds
    scheduled_range = settings.MIRROR["MAX_SCHEDULED_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE"].nanoseconds
    lower = valid_start - drift
    rows = _rows_of_ids([(payer, valid_start, lower, valid_start + consensus_range)], nonce, scheduled)
    creates = [row for row in rows if _is_successful_schedule_create(row)]
    executed = any(row["scheduled"] for row in rows)
    if (scheduled is True and not rows) or (scheduled is None and creates and not executed):
        rows = _rows_of_ids([(payer, valid_start, lower, lower + scheduled_range)], nonce, scheduled)
        executed = any(row["scheduled"] for row in rows)

    inner = [
        (inner_payer, inner_start, inner_start - drift, inner_start + consensus_range)
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
        and any(row["consensus_timestamp"] + scheduled_range > now for row in creates)
    )
    return TransactionLookup(rows, pending)


def transactions_by_hash(
    *, transaction_hash: bytes, nonce: int | None = None, scheduled: bool | None = None
) -> TransactionLookup:
    """The transactions whose 48-byte hash is `transaction_hash`, oldest first, with their
    lists, in one statement (`sql.by_hash`)."""
    statement, params = sql.by_hash(transaction_hash, nonce=nonce, scheduled=scheduled)
    return TransactionLookup(_rows_with_transfers(statement, params, order="asc"))


def _rows_of_ids(windows: Sequence[tuple[int, int, int, int]], nonce: int | None, scheduled: bool | None) -> list[dict]:
    """The transactions, oldest first with their detail lists, of each transaction id
    (payer, valid start) reaching consensus within its window (lower, upper), in one statement."""
    statement, params = sql.by_ids(windows, nonce=nonce, scheduled=scheduled)
    return _rows_with_transfers(statement, params, order="asc")


def _is_successful_schedule_create(row: dict) -> bool:
    return row["type"] == TYPE_SCHEDULE_CREATE and row["result"] in SUCCESS_RESULTS


def _inner_transaction_ids(row: dict) -> list[tuple[int, int]]:
    """`inner_transactions` lists (payer, valid start) pairs flat."""
    flat = row.get("inner_transactions") or []
    return list(zip(flat[0::2], flat[1::2]))
