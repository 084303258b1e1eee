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
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, OuterRef, Q, QuerySet, Subquery
from django.db.models.lookups import Exact
from django.db.models.functions import Coalesce

from apps.accounts.models import AccountBalance, CryptoAllowance, Entity, EntityType, StakingRewardTransfer
from apps.common.api.exceptions import InvalidArgument, MirrorApiError, NotFound
from apps.common.codecs import MAX_LONG, decode_base32_alias, encode_entity_id, parse_entity_id
from apps.common.filters import OPERATOR_LOOKUPS, Comparison
from apps.common.lookups import RangeLower
from apps.common.java import parse_java_entity_id
from apps.common.keyset import Keyset, keyset_page
from apps.tokens.models import AirdropState, Nft, NftAllowance, Token, TokenAccount, TokenAirdrop, TokenAllowance

__all__ = (
    "AccountAlias",
    "BalanceListFilter",
    "EvmAddress",
    "balance_list",
    "balance_snapshot_range",
    "account_exists",
    "account_id_from_path",
    "account_nft_queryset",
    "crypto_allowance_queryset",
    "entity_id_by_alias",
    "entity_id_by_evm_address",
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
    accounts = _resolve_accounts(criteria.accounts)
    if accounts is None:
        return []
    token_limit = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
    descending = criteria.order == "desc"

    if not criteria.timestamps:
        entities = _compare(Entity.objects.filter(type__in=BALANCE_ENTITY_TYPES), "id", accounts)
        entities = _compare(entities, "balance", criteria.balances)
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
        balances = _compare(_compare(balances, "account_id", accounts), "balance", criteria.balances)
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


def _compare(queryset: QuerySet, field: str, comparisons: Sequence[Comparison]) -> QuerySet:
    equals = list(dict.fromkeys(c.value for c in comparisons if c.operator == "eq"))
    for comparison in comparisons:
        if comparison.operator != "eq":
            queryset = queryset.filter(**{f"{field}__{OPERATOR_LOOKUPS[comparison.operator]}": comparison.value})
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


#
# Account sub-routes: each a queryset of dicts over one account's rows, which the
# route's FilterSet narrows, orders and pages along an index led by the account column.
#


def account_exists(*, account_id: int) -> bool:
    return Entity.objects.filter(id=account_id).exists()


def account_nft_queryset(*, account_id: int) -> QuerySet:
    """The account's NFTs; `deleted_or_burned` is true also when their token is deleted."""
    token_deleted = Entity.objects.filter(id=OuterRef("token_id")).values("deleted")[:1]
    return (
        Nft.objects.filter(account_id=account_id)
        .annotate(modified_timestamp=RangeLower("timestamp_range"))
        .values(
            *NFT_COLUMNS,
            "modified_timestamp",
            deleted_or_burned=ExpressionWrapper(
                Q(deleted=True) | Q(Exact(Coalesce(Subquery(token_deleted), False), True)),
                output_field=BooleanField(),
            ),
        )
    )


def staking_reward_queryset(*, account_id: int) -> QuerySet:
    return StakingRewardTransfer.objects.filter(account_id=account_id).values(
        "account_id", "amount", "consensus_timestamp"
    )


def crypto_allowance_queryset(*, owner_id: int) -> QuerySet:
    """The account's crypto allowances with an amount left."""
    return CryptoAllowance.objects.filter(owner=owner_id, amount__gt=0).values(*ALLOWANCE_COLUMNS)


def token_allowance_queryset(*, owner_id: int) -> QuerySet:
    return TokenAllowance.objects.filter(owner=owner_id, amount__gt=0).values(*ALLOWANCE_COLUMNS, "token_id")


def token_relationship_queryset(*, account_id: int) -> QuerySet:
    """The tokens the account is associated with; freeze and KYC status fall back to the token's."""
    token = Token.objects.filter(token_id=OuterRef("token_id"))
    return (
        TokenAccount.objects.filter(account_id=account_id, associated=True)
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
