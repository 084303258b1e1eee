"""Reads of accounts (`/accounts`, see the accounts block below) and account balances (`/balances`).

Without a timestamp the balances are the current ones, kept on `entity`
(`balance`, `balance_timestamp`), with token balances from `token_account`.
With one they come from the balance snapshots: the latest snapshot of the
treasury account (every snapshot holds it) within the requested range names
the snapshot, and each account's balance is its latest row from the start of
that snapshot's month (a month's first snapshot is complete, later ones hold
changes only) up to it; token balances likewise from `token_balance`.

Each page is one ordered, limited read of an index (`entity` primary key or
`account_balance` primary key) that carries its accounts' token balances in
the same statement: an array subquery per row reading at most
`TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS` rows of the `token_account` (current) or
`token_balance` (snapshot) primary key. PostgreSQL evaluates a snapshot page's
subquery above its DISTINCT ON, once per account kept, not per balance row read.
"""

import datetime
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, BooleanField, Exists, ExpressionWrapper, F, Func, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact

from apps.accounts.models import AccountBalance, CryptoAllowance, Entity, EntityStake, EntityType, StakingRewardTransfer
from apps.common.api.exceptions import InvalidArgument, MirrorApiError, NotFound
from apps.common.codecs import MAX_LONG, decode_base32_alias, encode_entity_id, parse_entity_id
from apps.common.compiled import CompiledQuery
from apps.common.database import statement_cursor
from apps.common.filters import OPERATOR_LOOKUPS, Comparison, apply_comparisons, conflicting_equals
from apps.common.java import parse_java_entity_id
from apps.common.keyset import Keyset, keyset_page
from apps.common.lookups import RangeLower
from apps.tokens.models import (
    AirdropState,
    Nft,
    NftAllowance,
    Token,
    TokenAccount,
    TokenAirdrop,
    TokenAllowance,
    TokenBalance,
)

__all__ = (
    "AccountAlias",
    "AccountListFilter",
    "BalanceListFilter",
    "EvmAddress",
    "account_get",
    "account_list",
    "balance_list",
    "balance_snapshot_range",
    "account_exists",
    "account_id_from_path",
    "account_nft_queryset",
    "crypto_allowance_queryset",
    "entity_id_by_alias",
    "entity_id_by_evm_address",
    "entity_queryset",
    "nft_deleted_or_burned",
    "pending_reward",
    "timestamp_range_is_empty",
    "java_account_id",
    "java_account_path",
    "nft_allowance_list",
    "staking_reward_queryset",
    "token_airdrop_list",
    "token_allowance_queryset",
    "token_relationship_queryset",
)

TREASURY_ACCOUNT_NUM = 2
BALANCE_ENTITY_TYPES = (EntityType.ACCOUNT, EntityType.CONTRACT)
NFT_COLUMNS = ("account_id", "created_timestamp", "delegating_spender", "metadata", "serial_number", "spender", "token_id")
ALLOWANCE_COLUMNS = ("amount", "amount_granted", "owner", "spender", "timestamp_range")


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
    accounts = _matchable(_resolve_accounts(criteria.accounts))
    if accounts is None or conflicting_equals(criteria.balances):
        return []
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
    descending = criteria.order == "desc"

    if not criteria.timestamps:
        rows = _current_balances(
            accounts, criteria.balances, criteria.public_keys, descending, criteria.limit, token_limit
        )
        return [
            {
                "account_id": row["id"],
                "balance": row["balance"],
                "consensus_timestamp": row["balance_timestamp"],
                "tokens": _token_balances(row["tokens"]),
            }
            for row in rows
        ]

    window = balance_snapshot_range(timestamps=criteria.timestamps, now=now)
    if window is None:
        return []
    lower, snapshot = window
    ids = ()
    if criteria.public_keys:
        ids = _ids_with_public_keys(criteria.public_keys)
        if not ids:
            return []
    account_shape, account_values = _comparison_shape(accounts)
    balance_shape, balance_values = _comparison_shape(criteria.balances)
    rows = _SNAPSHOT_BALANCES.rows(
        lower,
        snapshot,
        *account_values,
        *balance_values,
        *ids,
        shape=(account_shape, balance_shape, len(ids), descending, criteria.limit, token_limit),
    )
    for row in rows:
        row["consensus_timestamp"] = snapshot
        row["tokens"] = _token_balances(row["tokens"])
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
    found = _LATEST_SNAPSHOT.rows(treasury, lower, upper, *excluded)
    if not found:
        return None
    snapshot = found[0]["consensus_timestamp"]
    return _first_day_of_month(snapshot), snapshot


def _build_latest_snapshot(treasury: int, lower: int, upper: int, *excluded: int) -> QuerySet:
    snapshots = AccountBalance.objects.filter(
        account_id=treasury, consensus_timestamp__gte=lower, consensus_timestamp__lte=upper
    )
    if excluded:
        snapshots = snapshots.exclude(consensus_timestamp__in=excluded)
    return snapshots.order_by("-consensus_timestamp").values("consensus_timestamp")[:1]


_LATEST_SNAPSHOT = CompiledQuery(_build_latest_snapshot)


def _build_snapshot_balances(lower: int, snapshot: int, *values: int, shape) -> QuerySet:
    """Each account's latest balance from `lower` up to the snapshot, with its token balances."""
    account_shape, balance_shape, id_count, descending, limit, token_limit = shape
    values = iter(values)
    balances = AccountBalance.objects.filter(consensus_timestamp__gte=lower, consensus_timestamp__lte=snapshot)
    balances = _compare_shaped(balances, "account_id", account_shape, values)
    balances = _compare_shaped(balances, "balance", balance_shape, values)
    if id_count:
        balances = balances.filter(account_id__in=[next(values) for _ in range(id_count)])
    return (
        balances.order_by("-account_id" if descending else "account_id", "-consensus_timestamp")
        .distinct("account_id")
        .values(
            "account_id",
            "balance",
            tokens=ArraySubquery(
                _snapshot_token_balance_pairs(OuterRef("account_id"), lower, snapshot, descending, token_limit)
            ),
        )[:limit]
    )


_SNAPSHOT_BALANCES = CompiledQuery(_build_snapshot_balances)


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
        return _only_match("alias = %s and deleted is not true", alias, "No account with a matching alias found")
    if entity.evm_address is None:
        return entity.encoded
    # `deleted = false`: unlike the alias lookup, an entity whose `deleted` is null does not match.
    return _only_match("evm_address = %s and deleted = false", bytes.fromhex(entity.evm_address), "Not found")


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


def _only_match(condition: str, value: bytes, missing_message: str) -> int:
    # A constant statement, prepared by psycopg once it repeats.
    with statement_cursor() as cursor:
        cursor.execute(f"select id from entity where {condition} limit 2", [value])
        ids = [found for (found,) in cursor.fetchall()]
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


def _current_balances(
    accounts: Sequence[Comparison],
    balances: Sequence[Comparison],
    public_keys: Sequence[str],
    descending: bool,
    limit: int,
    token_limit: int,
) -> list[dict]:
    if public_keys:
        # Keys are text, which a compiled query does not take: built per request (rare).
        entities = apply_comparisons(apply_comparisons(Entity.objects.all(), "id", accounts), "balance", balances)
        for public_key in public_keys:
            entities = entities.filter(public_key=public_key)
        return list(_current_balance_page(entities, descending, limit, token_limit))
    account_shape, account_values = _comparison_shape(accounts)
    balance_shape, balance_values = _comparison_shape(balances)
    return _CURRENT_BALANCES.rows(
        *account_values, *balance_values, shape=(account_shape, balance_shape, descending, limit, token_limit)
    )


def _build_current_balances(*values: int, shape) -> QuerySet:
    account_shape, balance_shape, descending, limit, token_limit = shape
    values = iter(values)
    entities = _compare_shaped(Entity.objects.all(), "id", account_shape, values)
    entities = _compare_shaped(entities, "balance", balance_shape, values)
    return _current_balance_page(entities, descending, limit, token_limit)


def _current_balance_page(entities: QuerySet, descending: bool, limit: int, token_limit: int) -> QuerySet:
    # One ordered read of the `(type, id)` index per balance type, merged: a read of the
    # primary key would step over every entity of the other types (schedules, topics, tokens,
    # files) between two accounts, which grows with the ledger. Each branch is ordered by
    # type and id, the order of that index alone: ordered by id, PostgreSQL costs the primary
    # key's read as just as short when accounts are most entities, and on a generated ledger
    # of 10M transactions it stepped over 202,200 newer tokens and topics (55 ms a page).
    order = "-id" if descending else "id"
    first, *others = (
        entities.filter(_entity_type_is(entity_type))
        .order_by(*(f"-{column}" if descending else column for column in ("type", "id")))
        .values("id", "balance", "balance_timestamp", tokens=_token_balance_pairs(descending, token_limit))[:limit]
        for entity_type in BALANCE_ENTITY_TYPES
    )
    return first.union(*others, all=True).order_by(order)[:limit]


_CURRENT_BALANCES = CompiledQuery(_build_current_balances)


def _entity_type_is(entity_type: EntityType) -> RawSQL:
    """The type, written into the SQL: as a parameter, PostgreSQL's generic plan cannot tell
    which `(type, id)` range a branch reads (many accounts, few contracts), so with an id or
    balance range as well it planned every page anew. A range of one value, not `=`: an
    equality makes `type` a constant, which PostgreSQL then drops from the branch's order,
    and ordered by id alone the primary key serves it too (see `_current_balance_page`)."""
    value = EntityType(entity_type).value
    return RawSQL(f"\"entity\".\"type\" BETWEEN '{value}' AND '{value}'", (), output_field=BooleanField())


def _matchable(comparisons: Sequence[Comparison]) -> list[Comparison] | None:
    """The comparisons without their None eq values, or None when they match nothing:
    a None value (an unknown EVM address or alias) compares as SQL NULL does, matching
    nothing, though other eq values still match."""
    if any(c.value is None and c.operator != "eq" for c in comparisons):
        return None
    matchable = [c for c in comparisons if c.value is not None]
    if len(matchable) < len(comparisons) and not any(c.operator == "eq" for c in matchable):
        return None
    return matchable


def _comparison_shape(comparisons: Sequence[Comparison]) -> tuple[tuple, list]:
    """((operators other than eq, count of distinct eq values), their values in that order):
    what `_compare_shaped` filters by."""
    equals = list(dict.fromkeys(c.value for c in comparisons if c.operator == "eq"))
    others = [c for c in comparisons if c.operator != "eq"]
    return (tuple(c.operator for c in others), len(equals)), [*(c.value for c in others), *equals]


def _compare_shaped(queryset: QuerySet, field: str, shape: tuple, values: Iterator) -> QuerySet:
    """ANDs the comparisons, the eq values ORed into one condition."""
    operators, equal_count = shape
    for operator in operators:
        queryset = queryset.filter(**{f"{field}__{OPERATOR_LOOKUPS[operator]}": next(values)})
    equals = [next(values) for _ in range(equal_count)]
    if len(equals) == 1:
        queryset = queryset.filter(**{field: equals[0]})
    elif equals:
        queryset = queryset.filter(**{f"{field}__in": equals})
    return queryset


def _ids_with_public_keys(public_keys: Sequence[str]) -> list[int]:
    entities = Entity.objects.all()
    for public_key in public_keys:
        entities = entities.filter(public_key=public_key)
    return list(entities.values_list("id", flat=True))


def _token_balance_pairs(descending: bool, limit: int) -> ArraySubquery:
    """The annotated entity's first `limit` associated token balances by token id, as
    `[token_id, balance]` pairs (see `_token_balances`)."""
    associated = TokenAccount.objects.filter(account_id=OuterRef("id"), associated=True)
    return ArraySubquery(associated.order_by("-token_id" if descending else "token_id").values_list(_pair())[:limit])


def _pair() -> Func:
    """`[token_id, balance]` of a token balance row."""
    return Func(F("token_id"), F("balance"), template="ARRAY[%(expressions)s]", output_field=_BIGINT_PAIR)


_BIGINT_PAIR = ArrayField(BigIntegerField(), size=2)


def _token_balances(pairs: list[list[int]]) -> list[dict]:
    return [{"token_id": token_id, "balance": balance} for token_id, balance in pairs]


def _snapshot_token_balance_pairs(
    account: int | OuterRef, lower: int, snapshot: int, descending: bool, limit: int
) -> QuerySet:
    """The account's first `limit` token balances by token id as of the snapshot (each
    token's latest row from `lower` up to it), as `[token_id, balance]` pairs."""
    # The account is a one-value range, not an equality: with `account_id = x` PostgreSQL 18
    # costs both indexes as skip scans over every token id (the pkey skipping `token_id`
    # to reach the timestamps, `(token_id, account_id, ...)` skipping to the account) and
    # may pick the token-led one, which probes every token of the ledger. With a range
    # the pkey's order (account, token, timestamp) is the requested one and its read is
    # the account's few rows.
    order = "-" if descending else ""
    return (
        TokenBalance.objects.filter(
            account_id__gte=account,
            account_id__lte=account,
            consensus_timestamp__gte=lower,
            consensus_timestamp__lte=snapshot,
        )
        .order_by(f"{order}account_id", f"{order}token_id", "-consensus_timestamp")
        .distinct("account_id", "token_id")
        .values_list(_pair(), flat=True)[:limit]
    )


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
    # Without balances, the upstream leaves `account.balance` out of the query too.
    balances = criteria.balances if criteria.include_balance else ()
    if conflicting_equals(balances):
        return []
    entities = Entity.objects.filter(type__in=BALANCE_ENTITY_TYPES)
    if criteria.include_balance:
        entities = entities.exclude(num=TREASURY_ACCOUNT_NUM, memo=SYNTHETIC_TREASURY_MEMO)
    entities = apply_comparisons(apply_comparisons(entities, "id", criteria.accounts), "balance", balances)
    for comparison in criteria.public_keys:
        entities = apply_comparisons(entities, "public_key", [comparison])
    descending = criteria.order == "desc"
    columns = {}
    if criteria.include_balance:
        token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
        columns["tokens"] = _token_balance_pairs(descending, token_limit)
    entities = entities.order_by("-id" if descending else "id").values(*ACCOUNT_COLUMNS, **columns)
    rows = list(entities[: criteria.limit])
    ids = [row["id"] for row in rows]
    stakes = {stake["id"]: stake for stake in EntityStake.objects.filter(id__in=ids).values()} if ids else {}
    for row in rows:
        row["pending_reward"] = pending_reward(row, stakes.get(row["id"]))
        if criteria.include_balance:
            row["tokens"] = _token_balances(row["tokens"])
        else:
            del row["balance"], row["balance_timestamp"]
    return rows


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
            row["tokens"] = _token_balances(
                _snapshot_token_balance_pairs(account_id, lower, snapshot, False, token_limit)
            )
    row["pending_reward"] = pending_reward(row, stake)
    return row


# An account now, its stake and its first token balances in one statement; as `Entity.objects.exclude`
# would, the synthetic treasury test lets a null `num` or `memo` through.
_CURRENT_ACCOUNT = (
    f"select {', '.join(f'e.{column}' for column in ACCOUNT_COLUMNS)},"
    " s.id, s.end_stake_period, s.pending_reward, tokens.token_ids, tokens.balances"
    " from entity e left join entity_stake s on s.id = e.id"
    " left join lateral (select array_agg(t.token_id) as token_ids, array_agg(t.balance) as balances"
    "  from (select token_id, balance from token_account where account_id = e.id and associated is true"
    "   order by token_id limit %s) t) tokens on true"
    " where e.id = %s and e.type in (%s, %s) and not coalesce(e.num = %s and e.memo = %s, false)"
)


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
    with statement_cursor() as cursor:
        cursor.execute(sql, [entity_id, *params, entity_id, *params])
        found = cursor.fetchone()
    return None if found is None else dict(zip(columns, found))
#
# Account sub-routes: each a queryset of dicts over one account's rows, which the
# route's FilterSet narrows, orders and pages along an index led by the account column.
#


def account_exists(*, account_id: int) -> bool:
    return bool(_ENTITY_BY_ID.rows(account_id))


_ENTITY_BY_ID = CompiledQuery(lambda entity_id: Entity.objects.filter(id=entity_id).values("id")[:1])


def entity_queryset(*, entity_id: int) -> QuerySet:
    """The entity row of `entity_id` (none when it is unknown)."""
    return Entity.objects.filter(id=entity_id)


def _entity_exists(entity_id: int) -> Exists:
    return Exists(Entity.objects.filter(id=entity_id))


def account_nft_queryset(*, account_id: int) -> QuerySet:
    """The account's NFTs; `deleted_or_burned` is true also when their token is deleted."""
    return (
        Nft.objects.filter(account_id=account_id)
        .annotate(modified_timestamp=RangeLower("timestamp_range"))
        .values(*NFT_COLUMNS, "modified_timestamp", deleted_or_burned=nft_deleted_or_burned(OuterRef("token_id")))
    )


def nft_deleted_or_burned(token_id: int | OuterRef) -> ExpressionWrapper:
    """Whether an NFT is deleted (burned), or its token's entity is; `token_id` is the token's
    id, or `OuterRef("token_id")` over NFTs of many tokens."""
    token_deleted = Entity.objects.filter(id=token_id).values("deleted")[:1]
    return ExpressionWrapper(
        Q(deleted=True) | Q(Exact(Coalesce(Subquery(token_deleted), False), True)), output_field=BooleanField()
    )


def staking_reward_queryset(*, account_id: int) -> QuerySet:
    """The account's staking rewards; none without the account's entity row."""
    return StakingRewardTransfer.objects.filter(_entity_exists(account_id), account_id=account_id).values(
        "account_id", "amount", "consensus_timestamp"
    )


def crypto_allowance_queryset(*, owner_id: int) -> QuerySet:
    """The account's crypto allowances with an amount left."""
    return CryptoAllowance.objects.filter(owner=owner_id, amount__gt=0).values(*ALLOWANCE_COLUMNS)


def token_allowance_queryset(*, owner_id: int) -> QuerySet:
    return TokenAllowance.objects.filter(owner=owner_id, amount__gt=0).values(*ALLOWANCE_COLUMNS, "token_id")


def token_relationship_queryset(*, account_id: int) -> QuerySet:
    """The tokens the account is associated with (none without the account's entity row);
    freeze and KYC status fall back to the token's."""
    token = Token.objects.filter(token_id=OuterRef("token_id"))
    return (
        TokenAccount.objects.filter(_entity_exists(account_id), account_id=account_id, associated=True)
        .annotate(
            decimals=Subquery(token.values("decimals")[:1]),
            effective_freeze_status=Coalesce("freeze_status", Subquery(token.values("freeze_status")[:1])),
            effective_kyc_status=Coalesce("kyc_status", Subquery(token.values("kyc_status")[:1])),
        )
        .values(
            "automatic_association",
            "balance",
            "created_timestamp",
            "decimals",
            "token_id",
            "effective_freeze_status",
            "effective_kyc_status",
        )
    )


#
# Java-served account sub-routes
#

_JAVA_NUM_PATH = re.compile(r"^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$")
_JAVA_EVM_PATH = re.compile(r"^(?:(?:\d{1,5}\.)?(?:\d{1,5}\.)?|0x)?([A-Fa-f0-9]{40})$")
_JAVA_ALIAS_PATH = re.compile(r"^(?:\d{1,5}\.)?(?:\d{1,5}\.)?([A-Z2-7]{40,70})$")


def java_account_path(text: str) -> int | EvmAddress | AccountAlias:
    """The account a Java route's path names, before any lookup; ValueError when malformed."""
    if _JAVA_NUM_PATH.match(text):
        return parse_java_entity_id(text)
    if match := _JAVA_EVM_PATH.match(text):
        return EvmAddress(bytes.fromhex(match.group(1)))
    if match := _JAVA_ALIAS_PATH.match(text):
        return AccountAlias(decode_base32_alias(match.group(1), strict=False))
    raise ValueError(f"Invalid account {text!r}")


def java_account_id(account: int | EvmAddress | AccountAlias) -> int | None:
    """An id as given (not checked), or the live entity with the address or alias.

    The upstream's Java lookup (`deleted <> true`) also skips entities whose `deleted` is null.
    """
    if isinstance(account, int):
        return account
    entities = Entity.objects.filter(deleted=False)
    if isinstance(account, EvmAddress):
        entities = entities.filter(evm_address=account.address)
    else:
        entities = entities.filter(alias=account.alias)
    return entities.order_by("id").values_list("id", flat=True).first()


def nft_allowance_list(*, account_id: int, owner: bool, keyset: Keyset, order: str, limit: int) -> list[dict]:
    """Approved-for-all NFT allowances the account granted (`owner`) or received, ordered by the other party and token."""
    own_column, other_column = ("owner", "spender") if owner else ("spender", "owner")
    prefix = "-" if order == "desc" else ""
    allowances = (
        NftAllowance.objects.filter(**{own_column: account_id}, approved_for_all=True)
        .order_by(prefix + other_column, prefix + "token_id")
        .values("approved_for_all", "owner", "spender", "timestamp_range", "token_id")
    )
    return list(keyset_page(allowances, keyset, limit))


def token_airdrop_list(*, account_id: int, outstanding: bool, keyset: Keyset, order: str, limit: int) -> list[dict]:
    """Pending airdrops the account sent (`outstanding`) or is to receive, ordered by the other party, token and serial."""
    own_column, other_column = (
        ("sender_account_id", "receiver_account_id") if outstanding else ("receiver_account_id", "sender_account_id")
    )
    prefix = "-" if order == "desc" else ""
    airdrops = (
        TokenAirdrop.objects.filter(**{own_column: account_id}, state=AirdropState.PENDING)
        .order_by(prefix + other_column, prefix + "token_id", prefix + "serial_number")
        .values("amount", "receiver_account_id", "sender_account_id", "serial_number", "timestamp_range", "token_id")
    )
    return list(keyset_page(airdrops, keyset, limit))
