"""Accounts: `/accounts` and `/accounts/{idOrAliasOrEvmAddress}`.

A page of accounts is one ordered, limited read of the `entity` primary key with the
accounts' token balances, compiled per shape (`CompiledPages`); the page's
`entity_stake` rows (pending rewards) are one more statement, keyed by the page's ids.
One account's state at a past time is the newest of its `entity` / `entity_history`
versions overlapping the requested range (likewise its stake), and its balance comes
from the balance snapshot `balance_snapshot_range` picks, falling back to the entity
version's own.
"""

from collections.abc import Sequence

from django.conf import settings
from django.db.models import QuerySet

from apps.accounts import sql
from apps.accounts.models import AccountBalance, Entity, EntityStake
from apps.accounts.selectors.balances import (
    BALANCE_ENTITY_TYPES,
    TREASURY_ACCOUNT_NUM,
    balance_snapshot_range,
    snapshot_token_balance_pairs,
    timestamp_bounds,
    token_balance_pairs,
    token_balances,
)
from apps.common import clock
from apps.common.database.connections import statement_cursor
from apps.common.errors import NotFound
from apps.common.ledger.codecs import MAX_LONG
from apps.common.query.comparisons import Comparison
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.transactions.selectors import (
    TransactionListFilter,
    transaction_page_timestamps,
    transactions_at,
)

SYNTHETIC_TREASURY_MEMO = "Mirror node created synthetic treasury account"

# The entity columns an account renders from.
ACCOUNT_COLUMNS = (
    "alias",
    "auto_renew_period",
    "balance",
    "balance_timestamp",
    "created_timestamp",
    "decline_reward",
    "delegation_address",
    "deleted",
    "ethereum_nonce",
    "evm_address",
    "expiration_timestamp",
    "id",
    "key",
    "max_automatic_token_associations",
    "memo",
    "receiver_sig_required",
    "stake_period_start",
    "staked_account_id",
    "staked_node_id",
)
_STAKE_COLUMNS = ("id", "end_stake_period", "pending_reward")


def account_list(criteria: PageCriteria) -> list[dict]:
    """One page of accounts, ordered by id: entity columns plus `pending_reward` and,
    with balances (`balance`, true unless the query turns it off), `tokens` (at most
    `TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS` each); without them the rows carry no
    `balance` and the synthetic treasury account is listed too."""
    include_balance = criteria.option("balance", True)
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
    rows = _ACCOUNTS.rows(criteria.replaced(extra={**criteria.extra, "token_limit": token_limit}))
    stakes = {stake["id"]: stake for stake in _STAKES.rows(*(row["id"] for row in rows))} if rows else {}
    for row in rows:
        row["pending_reward"] = pending_reward(row, stakes.get(row["id"]))
        if include_balance:
            row["tokens"] = token_balances(row["tokens"])
        else:
            del row["balance"], row["balance_timestamp"]
    return rows


def _account_page(criteria: PageCriteria) -> QuerySet:
    entities = Entity.objects.filter(type__in=BALANCE_ENTITY_TYPES)
    columns = {}
    if criteria.option("balance", True):
        entities = entities.exclude(num=TREASURY_ACCOUNT_NUM, memo=SYNTHETIC_TREASURY_MEMO)
        columns["tokens"] = token_balance_pairs(criteria.order == "desc", criteria.extra["token_limit"])
    return narrow(entities, criteria).values(*ACCOUNT_COLUMNS, **columns)


_ACCOUNTS = CompiledPages(_account_page)
_STAKES = CompiledQuery(lambda *ids: EntityStake.objects.filter(id__in=ids).values(*_STAKE_COLUMNS))


def account_detail(criteria: PageCriteria) -> tuple[dict, list[dict]]:
    """The account of `criteria.scope` as `account_get` reads it within the query's
    `timestamp` range, and its page of transactions (none with `transactions=false`);
    NotFound for an empty range or an account that did not exist (then)."""
    (account_id,) = criteria.scope
    timestamps = criteria["timestamp"]
    # The upstream checks the range of its range operators only; an instant (`eq`) outside
    # it leaves nothing in force then: the account as it is now, with no token balance.
    if timestamp_range_is_empty([comparison for comparison in timestamps if comparison.operator != "eq"]):
        raise NotFound("Timestamp range is empty")
    contradictory = timestamp_range_is_empty(timestamps)
    account = account_get(account_id=account_id, timestamps=() if contradictory else timestamps, now=clock.now_ns())
    if account is None:
        raise NotFound()
    if contradictory:
        account["tokens"] = []
    if not criteria.option("transactions", True):
        return account, []
    transactions = account_transactions(
        account_id,
        timestamps=timestamps,
        types=criteria.extra["transaction_types"],
        limit=criteria.limit,
        order=criteria.order,
    )
    return account, transactions


def account_transactions(
    account_id: int, *, timestamps: Sequence[Comparison] = (), types: Sequence[int] = (), limit: int, order: str
) -> list[dict]:
    """A page of the account's transactions, as `/transactions?account.id=` lists them."""
    criteria = TransactionListFilter(
        accounts=(Comparison("eq", account_id),), timestamps=timestamps, types=types, limit=limit, order=order
    )
    return transactions_at(timestamps=transaction_page_timestamps(criteria), order=order)


def account_get(*, account_id: int, timestamps: Sequence[Comparison] = (), now: int) -> dict | None:
    """One account as `account_list` renders it (with balance and up to
    `TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT` token balances), as it was within the
    `timestamps` range when given; None if it did not exist (then)."""
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT"]
    if not timestamps:
        with statement_cursor() as cursor:
            cursor.execute(
                _CURRENT_ACCOUNT,
                [token_limit, account_id, *BALANCE_ENTITY_TYPES, TREASURY_ACCOUNT_NUM, SYNTHETIC_TREASURY_MEMO],
            )
            found = cursor.fetchone()
        if found is None:
            return None
        row = dict(zip(ACCOUNT_COLUMNS, found))
        stake_id, end_stake_period, reward, token_ids, balances = found[len(ACCOUNT_COLUMNS) :]
        stake = None if stake_id is None else {"end_stake_period": end_stake_period, "pending_reward": reward}
        row["tokens"] = [
            {"token_id": token_id, "balance": balance} for token_id, balance in zip(token_ids or (), balances or ())
        ]
    else:
        bounds = _historical_bounds(timestamps)
        row = _newest_version(
            "entity", ACCOUNT_COLUMNS, account_id, bounds, (TREASURY_ACCOUNT_NUM, SYNTHETIC_TREASURY_MEMO)
        )
        if row is None:
            return None
        stake = _newest_version("entity_stake", _STAKE_COLUMNS, account_id, bounds)
        row["tokens"] = []
        window = balance_snapshot_range(timestamps=timestamps, now=now)
        if window is not None:
            lower, snapshot = window
            balance = (
                AccountBalance.objects.filter(
                    account_id=account_id, consensus_timestamp__gte=lower, consensus_timestamp__lte=snapshot
                )
                .order_by("-consensus_timestamp")
                .values_list("balance", flat=True)
                .first()
            )
            # An account the snapshots do not hold yet had nothing.
            row["balance"], row["balance_timestamp"] = balance or 0, snapshot
            row["tokens"] = token_balances(
                snapshot_token_balance_pairs(account_id, lower, snapshot, False, token_limit)
            )
    row["pending_reward"] = pending_reward(row, stake)
    return row


_CURRENT_ACCOUNT = sql.current_account(ACCOUNT_COLUMNS)


def pending_reward(entity: dict, stake: dict | None) -> int:
    """The reward the account earned since its last payout, counted only while it
    stakes to a node, takes rewards and its staking period has ended."""
    staked_node = entity["staked_node_id"]
    start = entity["stake_period_start"]
    if stake is None or entity["decline_reward"] or staked_node is None or staked_node == -1:
        return 0
    if start is not None and start >= stake["end_stake_period"]:
        return 0
    return stake["pending_reward"]


def timestamp_range_is_empty(timestamps: Sequence[Comparison]) -> bool:
    lower, upper, _ = timestamp_bounds(timestamps)
    return lower is not None and upper is not None and lower > upper


def _historical_bounds(timestamps: Sequence[Comparison]) -> dict:
    """The `sql.newest_version` bounds of the comparisons. No bigint lies past the last one:
    a later lower bound is the last one, a later upper bound none, a later instant no exclusion."""
    lower, upper, excluded = timestamp_bounds(timestamps)
    return {
        "lower": None if lower is None else min(lower, MAX_LONG),
        "upper": None if upper is None or upper >= MAX_LONG else upper,
        "excluded": [instant for instant in excluded if instant <= MAX_LONG],
    }


def _newest_version(
    table: str,
    columns: Sequence[str],
    entity_id: int,
    bounds: dict,
    not_synthetic_treasury: tuple[int, str] | None = None,
) -> dict | None:
    statement, params = sql.newest_version(
        table, columns, entity_id, **bounds, not_synthetic_treasury=not_synthetic_treasury
    )
    with statement_cursor() as cursor:
        cursor.execute(statement, params)
        found = cursor.fetchone()
    return None if found is None else dict(zip(columns, found))
