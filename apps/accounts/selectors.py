"""Reads of account balances (`/balances`).

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from apps.accounts.models import AccountBalance, Entity, EntityType
from apps.common.codecs import MAX_LONG, encode_entity_id
from apps.common.compiled import CompiledQuery
from apps.common.filters import OPERATOR_LOOKUPS, Comparison

__all__ = (
    "AccountAlias",
    "BalanceListFilter",
    "EvmAddress",
    "balance_list",
    "balance_snapshot_range",
    "entity_id_by_alias",
    "entity_id_by_evm_address",
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
    if accounts is None:
        return []
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
    descending = criteria.order == "desc"

    if not criteria.timestamps:
        rows = _current_balances(accounts, criteria.balances, criteria.public_keys, descending, criteria.limit)
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
            shape=(account_shape, balance_shape, len(ids), descending, criteria.limit),
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
    lower, upper, excluded = 0, MAX_LONG, []
    for comparison in timestamps:
        operator, value = comparison.operator, comparison.value
        if operator == "gt":
            lower = max(lower, value + 1)
        elif operator == "gte":
            lower = max(lower, value)
        elif operator == "lt":
            upper = min(upper, value - 1)
        elif operator in ("lte", "eq"):
            upper = min(upper, value)
        else:
            excluded.append(value)
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
    """Each account's latest balance from `lower` up to the snapshot."""
    account_shape, balance_shape, id_count, descending, limit = shape
    values = iter(values)
    balances = AccountBalance.objects.filter(consensus_timestamp__gte=lower, consensus_timestamp__lte=snapshot)
    balances = _compare_shaped(balances, "account_id", account_shape, values)
    balances = _compare_shaped(balances, "balance", balance_shape, values)
    if id_count:
        balances = balances.filter(account_id__in=[next(values) for _ in range(id_count)])
    return (
        balances.order_by("-account_id" if descending else "account_id", "-consensus_timestamp")
        .distinct("account_id")
        .values("account_id", "balance")[:limit]
    )


_SNAPSHOT_BALANCES = CompiledQuery(_build_snapshot_balances)


def entity_id_by_evm_address(address: bytes) -> int | None:
    return _live_entities().filter(evm_address=address).values_list("id", flat=True).first()


def entity_id_by_alias(alias: bytes) -> int | None:
    return _live_entities().filter(alias=alias).values_list("id", flat=True).first()


def _live_entities() -> QuerySet:
    return Entity.objects.exclude(deleted=True).order_by("id")


def _resolve_accounts(comparisons: Sequence[Comparison]) -> list[Comparison] | None:
    """The comparisons with EVM addresses and aliases replaced by ids; None if one is unknown."""
    resolved = []
    for comparison in comparisons:
        value = comparison.value
        if isinstance(value, EvmAddress):
            value = entity_id_by_evm_address(value.address)
        elif isinstance(value, AccountAlias):
            value = entity_id_by_alias(value.alias)
        if value is None:
            return None
        resolved.append(Comparison(comparison.operator, value))
    return resolved


def _current_balances(
    accounts: Sequence[Comparison], balances: Sequence[Comparison], public_keys: Sequence[str], descending: bool, limit: int
) -> list[dict]:
    if public_keys:
        # Keys are text, which a compiled query does not take: built per request (rare).
        entities = _compare(_compare(Entity.objects.all(), "id", accounts), "balance", balances)
        for public_key in public_keys:
            entities = entities.filter(public_key=public_key)
        return list(_current_balance_page(entities, descending, limit))
    account_shape, account_values = _comparison_shape(accounts)
    balance_shape, balance_values = _comparison_shape(balances)
    return _CURRENT_BALANCES.rows(
        *account_values, *balance_values, shape=(account_shape, balance_shape, descending, limit)
    )


def _build_current_balances(*values: int, shape) -> QuerySet:
    account_shape, balance_shape, descending, limit = shape
    values = iter(values)
    entities = _compare_shaped(Entity.objects.all(), "id", account_shape, values)
    entities = _compare_shaped(entities, "balance", balance_shape, values)
    return _current_balance_page(entities, descending, limit)


def _current_balance_page(entities: QuerySet, descending: bool, limit: int) -> QuerySet:
    return (
        entities.filter(type__in=BALANCE_ENTITY_TYPES)
        .order_by("-id" if descending else "id")
        .values("id", "balance", "balance_timestamp")[:limit]
    )


_CURRENT_BALANCES = CompiledQuery(_build_current_balances)


def _compare(queryset: QuerySet, field: str, comparisons: Sequence[Comparison]) -> QuerySet:
    shape, values = _comparison_shape(comparisons)
    return _compare_shaped(queryset, field, shape, iter(values))


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
