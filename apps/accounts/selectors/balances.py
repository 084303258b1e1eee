"""Account balances: `/balances`, and the balance reads `/accounts` shares.

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
Both pages are compiled per shape (`CompiledPages`).
"""

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, F, Func, OuterRef, QuerySet

from apps.accounts import sql
from apps.accounts.models import (
    AccountBalance,
    Entity,
    EntityType,
    TokenAccount,
    TokenBalance,
)
from apps.accounts.selectors.account_paths import (
    AccountAlias,
    EvmAddress,
    entity_id_by_alias,
    entity_id_by_evm_address,
)
from apps.common import clock
from apps.common.ledger.codecs import MAX_LONG, encode_entity_id
from apps.common.query.comparisons import Comparison, combine, filter_by
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import CompiledPages, PageCriteria

TREASURY_ACCOUNT_NUM = 2
BALANCE_ENTITY_TYPES = (EntityType.ACCOUNT, EntityType.CONTRACT)


def balance_list(criteria: PageCriteria) -> list[dict]:
    """One page of balances: `{"account_id", "balance", "consensus_timestamp", "tokens": [...]}`,
    ordered by account id.

    `account.id` values are encoded ids, or one `EvmAddress`/`AccountAlias` (eq only)
    resolved here; one that names no account compares as SQL NULL. Repeated
    `account.balance` and `account.publickey` values are all required."""
    accounts = _resolved(criteria["account.id"])
    if combine(accounts).matches_nothing:
        return []
    criteria = criteria.replaced(
        comparisons={**criteria.comparisons, "account.id": accounts},
        extra={**criteria.extra, "token_limit": settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]},
    )
    if not criteria["timestamp"]:
        return [
            {
                "account_id": row["id"],
                "balance": row["balance"],
                "consensus_timestamp": row["balance_timestamp"],
                "tokens": token_balances(row["tokens"]),
            }
            for row in _CURRENT_BALANCES.rows(criteria)
        ]

    window = balance_snapshot_range(timestamps=criteria["timestamp"], now=clock.now_ns())
    if window is None:
        return []
    lower, snapshot = window
    holders = ()
    if criteria["account.publickey"]:
        # At a snapshot the upstream matches the keys themselves, whatever their operators.
        keys = tuple(Comparison("eq", comparison.value) for comparison in criteria["account.publickey"])
        holders = _ids_with_public_keys(keys)
        if not holders:
            return []
    # The snapshot's page reads the snapshot's window in place of the query's timestamps,
    # and the accounts holding the public keys in place of the keys: all integers, compiled.
    criteria = criteria.replaced(
        comparisons={
            **criteria.comparisons,
            "timestamp": (Comparison("gte", lower), Comparison("lte", snapshot)),
            "account.publickey": tuple(Comparison("eq", account) for account in holders),
        },
    )
    rows = _SNAPSHOT_BALANCES.rows(criteria)
    for row in rows:
        row["consensus_timestamp"] = snapshot
        row["tokens"] = token_balances(row["tokens"])
    return rows


def _resolved(comparisons: Sequence[Comparison]) -> tuple[Comparison, ...]:
    """The comparisons with EVM addresses and aliases replaced by ids (None when unknown)."""
    resolved = []
    for comparison in comparisons:
        value = comparison.value
        if isinstance(value, EvmAddress):
            value = entity_id_by_evm_address(value.address)
        elif isinstance(value, AccountAlias):
            value = entity_id_by_alias(value.alias)
        resolved.append(Comparison(comparison.operator, value))
    return tuple(resolved)


def _ids_with_public_keys(public_keys: Sequence[Comparison]) -> list[int]:
    entities = filter_by(Entity.objects.all(), "public_key", public_keys, merge_equals=False)
    return list(entities.values_list("id", flat=True))


def _current_balance_page(criteria: PageCriteria) -> QuerySet:
    """The entities' current balances, in the page's order.

    One ordered read of the `(type, id)` index per balance type, merged: a read of the
    primary key would step over every entity of the other types (schedules, topics,
    tokens, files) between two accounts, which grows with the ledger. Each branch is
    ordered by type and id, the order of that index alone: ordered by id, PostgreSQL
    costs the primary key's read as just as short when accounts are most entities, and
    then steps over every newer token and topic for one page. Public keys are text,
    which a compiled page does not take: a page by public key is built per request (rare)."""
    entities = filter_by(Entity.objects.all(), "id", criteria["account.id"])
    entities = filter_by(entities, "balance", criteria["account.balance"], merge_equals=False)
    entities = filter_by(entities, "public_key", criteria["account.publickey"], merge_equals=False)
    descending = criteria.order == "desc"
    tokens = token_balance_pairs(descending, criteria.extra["token_limit"])
    first, *others = (
        entities.filter(sql.entity_type_is(entity_type))
        .order_by(*(f"-{column}" if descending else column for column in ("type", "id")))
        .values("id", "balance", "balance_timestamp", tokens=tokens)[: criteria.limit]
        for entity_type in BALANCE_ENTITY_TYPES
    )
    return first.union(*others, all=True).order_by("-id" if descending else "id")


_CURRENT_BALANCES = CompiledPages(_current_balance_page)


def _snapshot_balance_page(criteria: PageCriteria) -> QuerySet:
    """Each account's latest balance in the snapshot's window, with its token balances."""
    lower, snapshot = (comparison.value for comparison in criteria["timestamp"])
    balances = AccountBalance.objects.filter(consensus_timestamp__gte=lower, consensus_timestamp__lte=snapshot)
    balances = filter_by(balances, "account_id", criteria["account.id"])
    balances = filter_by(balances, "account_id", criteria["account.publickey"])
    balances = filter_by(balances, "balance", criteria["account.balance"], merge_equals=False)
    descending = criteria.order == "desc"
    tokens = snapshot_token_balance_pairs(
        OuterRef("account_id"), lower, snapshot, descending, criteria.extra["token_limit"]
    )
    return (
        balances.order_by("-account_id" if descending else "account_id", "-consensus_timestamp")
        .distinct("account_id")
        .values("account_id", "balance", tokens=ArraySubquery(tokens))
    )


_SNAPSHOT_BALANCES = CompiledPages(_snapshot_balance_page)


def balance_snapshot_range(*, timestamps: Sequence[Comparison], now: int) -> tuple[int, int] | None:
    """(start of its month, snapshot) of the latest balance snapshot the timestamp
    comparisons allow (`eq` reads as `lte`); None when there is none."""
    lower, upper, excluded = timestamp_bounds(timestamps)
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


def _latest_snapshot(treasury: int, lower: int, upper: int, *excluded: int) -> QuerySet:
    snapshots = AccountBalance.objects.filter(
        account_id=treasury, consensus_timestamp__gte=lower, consensus_timestamp__lte=upper
    )
    if excluded:
        snapshots = snapshots.exclude(consensus_timestamp__in=excluded)
    return snapshots.order_by("-consensus_timestamp").values("consensus_timestamp")[:1]


_LATEST_SNAPSHOT = CompiledQuery(_latest_snapshot)


def timestamp_bounds(timestamps: Sequence[Comparison]) -> tuple[int | None, int | None, list[int]]:
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


def token_balance_pairs(descending: bool, limit: int) -> ArraySubquery:
    """The annotated entity's first `limit` associated token balances by token id, as
    `[token_id, balance]` pairs (see `token_balances`)."""
    associated = TokenAccount.objects.filter(account_id=OuterRef("id"), associated=True)
    return ArraySubquery(associated.order_by("-token_id" if descending else "token_id").values_list(_pair())[:limit])


def snapshot_token_balance_pairs(
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


def token_balances(pairs: list[list[int]]) -> list[dict]:
    return [{"token_id": token_id, "balance": balance} for token_id, balance in pairs]


def _pair() -> Func:
    """`[token_id, balance]` of a token balance row."""
    return Func(F("token_id"), F("balance"), template="ARRAY[%(expressions)s]", output_field=_BIGINT_PAIR)


_BIGINT_PAIR = ArrayField(BigIntegerField(), size=2)


def _first_day_of_month(nanos: int, *, months_back: int = 0) -> int:
    """Nanoseconds at 00:00 UTC on the first day of the month of `nanos`, `months_back` months earlier."""
    moment = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        microseconds=nanos // 1000
    )
    month_index = moment.year * 12 + moment.month - 1 - months_back
    start = datetime.datetime(month_index // 12, month_index % 12 + 1, 1, tzinfo=datetime.timezone.utc)
    return int((start - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)).total_seconds()) * 1_000_000_000
