"""Reads of accounts (`/accounts`, see the accounts block below) and account balances (`/balances`).

Without a timestamp the balances are the current ones, kept on `entity`
(`balance`, `balance_timestamp`), with token balances from `token_account`.
With one they come from the balance snapshots: the latest snapshot of the
treasury account (every snapshot holds it) within the requested range names
the snapshot, and each account's balance is its latest row from the start of
that snapshot's month (a month's first snapshot is complete, later ones hold
changes only) up to it; token balances likewise from `token_balance`.

Each page is one ordered, limited read of an index (`entity` primary key or
`account_balance` primary key), and the token balances of the page's accounts
are one more query: a LATERAL read of at most `TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS`
rows of the `token_account` / `token_balance` primary key per account.
"""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from apps.accounts.models import AccountBalance, Entity, EntityStake, EntityType
from apps.common.api.exceptions import InvalidArgument, MirrorApiError, NotFound
from apps.common.codecs import MAX_LONG, decode_base32_alias, encode_entity_id, parse_entity_id
from apps.common.filters import Comparison, apply_comparisons

__all__ = (
    "AccountAlias",
    "AccountListFilter",
    "BalanceListFilter",
    "EvmAddress",
    "account_get",
    "account_list",
    "balance_list",
    "balance_snapshot_range",
    "account_id_from_path",
    "entity_id_by_alias",
    "entity_id_by_evm_address",
    "pending_reward",
    "timestamp_range_is_empty",
)

TREASURY_ACCOUNT_NUM = 2
BALANCE_ENTITY_TYPES = (EntityType.ACCOUNT, EntityType.CONTRACT)


@dataclass(frozen=True)
class EvmAddress:
    """An account id given as an EVM address that does not encode the id: looked up."""

    address: bytes


@dataclass(frozen=True)
class AccountAlias:
    """An account id given as its (base32) alias: looked up."""

    alias: bytes


@dataclass(frozen=True, kw_only=True)
class BalanceListFilter:
    """What `/balances` selects, as validated by `BalanceFilterSet`.

    `accounts` values are encoded ids, or one `EvmAddress`/`AccountAlias` (eq
    only) resolved here; one that resolves to nothing matches nothing.
    Comparisons of one parameter are ANDed, eq values of `accounts` ORed.
    """

    accounts: Sequence[Comparison] = ()
    balances: Sequence[Comparison] = ()
    public_keys: Sequence[str] = ()
    timestamps: Sequence[Comparison] = ()
    limit: int = 25
    order: str = "desc"


def balance_list(*, criteria: BalanceListFilter, now: int) -> list[dict]:
    """One page of balances: `{"account_id", "balance", "consensus_timestamp", "tokens": [...]}`,
    ordered by account id; `now` bounds a snapshot search that has no upper bound."""
    accounts = _resolve_accounts(criteria.accounts)
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
    descending = criteria.order == "desc"

    if not criteria.timestamps:
        entities = apply_comparisons(Entity.objects.filter(type__in=BALANCE_ENTITY_TYPES), "id", accounts)
        entities = apply_comparisons(entities, "balance", criteria.balances)
        for public_key in criteria.public_keys:
            entities = entities.filter(public_key=public_key)
        rows = list(
            entities.order_by("-id" if descending else "id").values("id", "balance", "balance_timestamp")[
                : criteria.limit
            ]
        )
        rows = [
            {"account_id": row["id"], "balance": row["balance"], "consensus_timestamp": row["balance_timestamp"]}
            for row in rows
        ]
        tokens = _current_token_balances([row["account_id"] for row in rows], descending, token_limit)
    else:
        window = balance_snapshot_range(timestamps=criteria.timestamps, now=now)
        if window is None:
            return []
        lower, snapshot = window
        balances = AccountBalance.objects.filter(consensus_timestamp__gte=lower, consensus_timestamp__lte=snapshot)
        balances = apply_comparisons(apply_comparisons(balances, "account_id", accounts), "balance", criteria.balances)
        if criteria.public_keys:
            ids = _ids_with_public_keys(criteria.public_keys)
            if not ids:
                return []
            balances = balances.filter(account_id__in=ids)
        rows = list(
            balances.order_by("-account_id" if descending else "account_id", "-consensus_timestamp")
            .distinct("account_id")
            .values("account_id", "balance")[: criteria.limit]
        )
        for row in rows:
            row["consensus_timestamp"] = snapshot
        tokens = _snapshot_token_balances(
            [row["account_id"] for row in rows], lower, snapshot, descending, token_limit
        )
    for row in rows:
        row["tokens"] = tokens.get(row["account_id"], [])
    return rows


def balance_snapshot_range(*, timestamps: Sequence[Comparison], now: int) -> tuple[int, int] | None:
    """(start of its month, snapshot) of the latest balance snapshot the timestamp
    comparisons allow (`eq` reads as `lte`); None when there is none."""
    lower, upper, excluded = _timestamp_bounds(timestamps)
    lower, upper = lower or 0, MAX_LONG if upper is None else upper
    # Every snapshot month starts with a full snapshot: none before the month before
    # the upper bound is needed.
    lower = max(lower, _first_day_of_month(min(now, upper), months_back=1))
    if lower > upper:
        return None
    treasury = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], TREASURY_ACCOUNT_NUM)
    snapshots = AccountBalance.objects.filter(
        account_id=treasury, consensus_timestamp__gte=lower, consensus_timestamp__lte=upper
    )
    if excluded:
        snapshots = snapshots.exclude(consensus_timestamp__in=excluded)
    snapshot = snapshots.order_by("-consensus_timestamp").values_list("consensus_timestamp", flat=True).first()
    if snapshot is None:
        return None
    return _first_day_of_month(snapshot), snapshot


def account_id_from_path(text: str, *, param: str = "idOrAliasOrEvmAddress") -> int:
    """The encoded id named by an account path segment: an id, an EVM address or a base32 alias.

    An id is taken as given, without checking that the account exists (routes
    that need it check themselves); an address or alias must name exactly one
    live entity.
    """
    try:
        entity = parse_entity_id(text)
    except ValueError:
        alias = _path_alias(text)
        if alias is None:
            raise InvalidArgument.for_params(param) from None
        return _only_match(
            Entity.objects.exclude(deleted=True).filter(alias=alias), "No account with a matching alias found"
        )
    if entity.evm_address is None:
        return entity.encoded
    # `deleted <> true`: unlike the alias lookup, an entity whose `deleted` is null does not match.
    return _only_match(Entity.objects.filter(deleted=False, evm_address=bytes.fromhex(entity.evm_address)), "Not found")


def _path_alias(text: str) -> bytes | None:
    """The alias of `[shard.][realm.]BASE32`, or None; a shard or realm must be the system's."""
    *prefix, alias = text.split(".")
    if len(prefix) > 2 or not all(part.isdigit() and len(part) <= 5 for part in prefix):
        return None
    system = [settings.MIRROR["SHARD"], settings.MIRROR["REALM"]][-len(prefix) :] if prefix else []
    if [int(part) for part in prefix] != system:
        return None
    try:
        return decode_base32_alias(alias)
    except ValueError:
        return None


def _only_match(entities: QuerySet, missing_message: str) -> int:
    ids = list(entities.values_list("id", flat=True)[:2])
    if not ids:
        raise NotFound(missing_message)
    if len(ids) > 1:
        raise MirrorApiError("Internal error")
    return ids[0]


def entity_id_by_evm_address(address: bytes) -> int | None:
    return _live_entities().filter(evm_address=address).values_list("id", flat=True).first()


def entity_id_by_alias(alias: bytes) -> int | None:
    return _live_entities().filter(alias=alias).values_list("id", flat=True).first()


def _live_entities() -> QuerySet:
    return Entity.objects.exclude(deleted=True).order_by("id")


def _resolve_accounts(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons with EVM addresses and aliases replaced by ids (None when unknown)."""
    resolved = []
    for comparison in comparisons:
        value = comparison.value
        if isinstance(value, EvmAddress):
            value = entity_id_by_evm_address(value.address)
        elif isinstance(value, AccountAlias):
            value = entity_id_by_alias(value.alias)
        resolved.append(Comparison(comparison.operator, value))
    return resolved


def _ids_with_public_keys(public_keys: Sequence[str]) -> list[int]:
    entities = Entity.objects.all()
    for public_key in public_keys:
        entities = entities.filter(public_key=public_key)
    return list(entities.values_list("id", flat=True))


def _current_token_balances(account_ids: list[int], descending: bool, limit: int) -> dict[int, list[dict]]:
    order = "desc" if descending else "asc"
    return _token_balances(
        "select a.account_id, t.token_id, t.balance from unnest(%s::bigint[]) as a(account_id)"
        " cross join lateral (select token_id, balance from token_account"
        "  where account_id = a.account_id and associated is true"
        f"  order by token_id {order} limit %s) t",
        [account_ids, limit],
    ) if account_ids else {}


def _snapshot_token_balances(
    account_ids: list[int], lower: int, snapshot: int, descending: bool, limit: int
) -> dict[int, list[dict]]:
    order = "desc" if descending else "asc"
    return _token_balances(
        "select a.account_id, t.token_id, t.balance from unnest(%s::bigint[]) as a(account_id)"
        " cross join lateral (select distinct on (token_id) token_id, balance from token_balance"
        "  where account_id = a.account_id and consensus_timestamp >= %s and consensus_timestamp <= %s"
        f"  order by token_id {order}, consensus_timestamp desc limit %s) t",
        [account_ids, lower, snapshot, limit],
    ) if account_ids else {}


def _token_balances(sql: str, params: list) -> dict[int, list[dict]]:
    tokens: dict[int, list[dict]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for account_id, token_id, balance in cursor.fetchall():
            tokens.setdefault(account_id, []).append({"token_id": token_id, "balance": balance})
    return tokens


def _first_day_of_month(nanos: int, *, months_back: int = 0) -> int:
    """Nanoseconds at 00:00 UTC on the first day of the month of `nanos`, `months_back` months earlier."""
    moment = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        microseconds=nanos // 1000
    )
    month_index = moment.year * 12 + moment.month - 1 - months_back
    start = datetime.datetime(month_index // 12, month_index % 12 + 1, 1, tzinfo=datetime.timezone.utc)
    return int((start - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)).total_seconds()) * 1_000_000_000


# --- Accounts (`/accounts`, `/accounts/{idOrAliasOrEvmAddress}`) -------------------------------
#
# A page of accounts is one ordered, limited read of the `entity` primary key;
# the page's `entity_stake` rows (pending rewards) and token balances are one
# query each, keyed by the page's ids. One account's state at a past time is the
# newest of its `entity` / `entity_history` versions overlapping the requested
# range (likewise its stake), and its balance comes from the balance snapshot
# `balance_snapshot_range` picks, falling back to the entity version's own.

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


@dataclass(frozen=True, kw_only=True)
class AccountListFilter:
    """What `/accounts` selects, as validated by `AccountFilterSet`.

    `accounts` values are encoded ids (None for an EVM address that names no
    id, which matches nothing); every `public_keys` comparison must hold.
    Without `include_balance` the rows carry no `balance` and the synthetic
    treasury account is listed too.
    """

    accounts: Sequence[Comparison] = ()
    balances: Sequence[Comparison] = ()
    public_keys: Sequence[Comparison] = ()
    include_balance: bool = True
    limit: int = 25
    order: str = "asc"


def account_list(*, criteria: AccountListFilter) -> list[dict]:
    """One page of accounts, ordered by id: entity columns plus `pending_reward`
    and, with balances, `tokens` (at most `TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS` each)."""
    entities = Entity.objects.filter(type__in=BALANCE_ENTITY_TYPES)
    if criteria.include_balance:
        entities = entities.exclude(num=TREASURY_ACCOUNT_NUM, memo=SYNTHETIC_TREASURY_MEMO)
    entities = apply_comparisons(apply_comparisons(entities, "id", criteria.accounts), "balance", criteria.balances)
    for comparison in criteria.public_keys:
        entities = apply_comparisons(entities, "public_key", [comparison])
    descending = criteria.order == "desc"
    rows = list(entities.order_by("-id" if descending else "id").values(*ACCOUNT_COLUMNS)[: criteria.limit])
    ids = [row["id"] for row in rows]
    stakes = {stake["id"]: stake for stake in EntityStake.objects.filter(id__in=ids).values()} if ids else {}
    tokens = {}
    if criteria.include_balance:
        token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
        tokens = _current_token_balances(ids, descending, token_limit)
    for row in rows:
        row["pending_reward"] = pending_reward(row, stakes.get(row["id"]))
        if criteria.include_balance:
            row["tokens"] = tokens.get(row["id"], [])
        else:
            del row["balance"], row["balance_timestamp"]
    return rows


def account_get(*, account_id: int, timestamps: Sequence[Comparison] = (), now: int) -> dict | None:
    """One account as `account_list` renders it (with balance and up to
    `TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT` token balances), as it was within the
    `timestamps` range when given; None if it did not exist (then)."""
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT"]
    if not timestamps:
        row = (
            Entity.objects.filter(id=account_id, type__in=BALANCE_ENTITY_TYPES)
            .exclude(num=TREASURY_ACCOUNT_NUM, memo=SYNTHETIC_TREASURY_MEMO)
            .values(*ACCOUNT_COLUMNS)
            .first()
        )
        if row is None:
            return None
        stake = EntityStake.objects.filter(id=account_id).values().first()
        row["tokens"] = _current_token_balances([account_id], False, token_limit).get(account_id, [])
    else:
        where, params = _historical_range_condition(timestamps)
        row = _newest_version("entity", ACCOUNT_COLUMNS, account_id, where, params, account_only=True)
        if row is None:
            return None
        stake = _newest_version("entity_stake", _STAKE_COLUMNS, account_id, where, params)
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
            row["tokens"] = _snapshot_token_balances([account_id], lower, snapshot, False, token_limit).get(
                account_id, []
            )
    row["pending_reward"] = pending_reward(row, stake)
    return row


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
    lower, upper, _ = _timestamp_bounds(timestamps)
    return lower is not None and upper is not None and lower > upper


_STAKE_COLUMNS = ("id", "end_stake_period", "pending_reward")


def _timestamp_bounds(timestamps: Sequence[Comparison]) -> tuple[int | None, int | None, list[int]]:
    """Inclusive (lower, upper) of the comparisons, None when open, and the excluded instants;
    an `eq` bounds from above: the state at an instant is the newest one up to it."""
    lower = upper = None
    excluded = []
    for comparison in timestamps:
        operator, value = comparison.operator, comparison.value
        if operator in ("gt", "gte"):
            value += operator == "gt"
            lower = value if lower is None else max(lower, value)
        elif operator in ("lt", "lte", "eq"):
            value -= operator == "lt"
            upper = value if upper is None else min(upper, value)
        else:
            excluded.append(value)
    return lower, upper, excluded


def _historical_range_condition(timestamps: Sequence[Comparison]) -> tuple[str, list]:
    lower, upper, excluded = _timestamp_bounds(timestamps)
    # No bigint lies past the last one: a later lower bound is the last one, a later upper bound none.
    if lower is not None:
        lower = min(lower, MAX_LONG)
    if upper is not None and upper >= MAX_LONG:
        upper = None
    where, params = "timestamp_range && int8range(%s, %s, '[]')", [lower, upper]
    for instant in excluded:
        if instant <= MAX_LONG:
            where += " and not timestamp_range @> %s::bigint"
            params.append(instant)
    return where, params


def _newest_version(
    table: str, columns: Sequence[str], entity_id: int, where: str, params: list, *, account_only: bool = False
) -> dict | None:
    """The newest row of `table` or `<table>_history` for `entity_id` matching `where`."""
    condition = f"id = %s and {where}"
    if account_only:
        condition += " and type in ('ACCOUNT', 'CONTRACT') and not (num = %s and memo = %s)"
        params = [*params, TREASURY_ACCOUNT_NUM, SYNTHETIC_TREASURY_MEMO]
    selected = ", ".join(columns)
    sql = (
        f"(select {selected}, timestamp_range from {table} where {condition})"
        f" union all (select {selected}, timestamp_range from {table}_history where {condition})"
        " order by timestamp_range desc limit 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [entity_id, *params, entity_id, *params])
        found = cursor.fetchone()
    return None if found is None else dict(zip(columns, found))
