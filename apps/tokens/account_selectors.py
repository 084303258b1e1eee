"""Token rows under an account: its NFTs, its token allowances and its token relationships.

Each page is one queryset over the account's rows, compiled with the account (`criteria.scope`)
as a parameter (`apps.common.query.pages`).
"""

from django.db.models import (
    BooleanField,
    ExpressionWrapper,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact

from apps.accounts.models import Entity, TokenAccount
from apps.accounts.selectors.account_paths import (
    account_exists,
    entity_exists,
    entity_queryset,
)
from apps.accounts.selectors.allowances import ALLOWANCE_COLUMNS
from apps.common.errors import NotFound
from apps.common.query.lookups import RangeLower
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.tokens.models import Nft, Token, TokenAllowance

# The columns of an account's NFT rows.
NFT_COLUMNS = ("account_id", "created_timestamp", "delegating_spender", "metadata", "serial_number", "spender", "token_id")


def account_nft_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/accounts/{id}/nfts`; `deleted` is true also when an NFT's token is deleted."""
    return deleted_or_burned_as_deleted(_ACCOUNT_NFT_PAGES.rows(criteria))


def _account_nft_page(criteria: PageCriteria) -> QuerySet:
    (account_id,) = criteria.scope
    nfts = (
        Nft.objects.filter(account_id=account_id)
        .annotate(modified_timestamp=RangeLower("timestamp_range"))
        .values(*NFT_COLUMNS, "modified_timestamp", deleted_or_burned=nft_deleted_or_burned(OuterRef("token_id")))
    )
    return narrow(nfts, criteria)


_ACCOUNT_NFT_PAGES = CompiledPages(_account_nft_page)


def nft_deleted_or_burned(token_id: int | OuterRef) -> ExpressionWrapper:
    """Whether an NFT is deleted (burned), or its token's entity is; `token_id` is the token's
    id, or `OuterRef("token_id")` over NFTs of many tokens."""
    token_deleted = Entity.objects.filter(id=token_id).values("deleted")[:1]
    return ExpressionWrapper(
        Q(deleted=True) | Q(Exact(Coalesce(Subquery(token_deleted), False), True)), output_field=BooleanField()
    )


def deleted_or_burned_as_deleted(rows: list[dict]) -> list[dict]:
    """NFT rows as lists show them: `deleted_or_burned` (`nft_deleted_or_burned`) as `deleted`."""
    for row in rows:
        row["deleted"] = row.pop("deleted_or_burned")
    return rows


def token_allowance_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/accounts/{id}/allowances/tokens`: the allowances with an amount left."""
    return _TOKEN_ALLOWANCE_PAGES.rows(criteria)


def _token_allowance_page(criteria: PageCriteria) -> QuerySet:
    (owner_id,) = criteria.scope
    allowances = TokenAllowance.objects.filter(owner=owner_id, amount__gt=0).values(*ALLOWANCE_COLUMNS, "token_id")
    return narrow(allowances, criteria)


_TOKEN_ALLOWANCE_PAGES = CompiledPages(_token_allowance_page)


def token_relationship_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/accounts/{id}/tokens`: the tokens the account is associated with; NotFound
    without the account's entity row. A compiled page tells in its own statement whether the
    account exists; any other page that comes back empty looks it up. Freeze and KYC status
    fall back to the token's."""
    rows, found = _TOKEN_RELATIONSHIP_PAGES.rows_and_parent(criteria)
    if found is False or (not rows and found is None and not account_exists(account_id=criteria.scope[0])):
        raise NotFound()
    return rows


def _token_relationship_page(criteria: PageCriteria) -> QuerySet:
    (account_id,) = criteria.scope
    token = Token.objects.filter(token_id=OuterRef("token_id"))
    relationships = (
        TokenAccount.objects.filter(entity_exists(account_id), account_id=account_id, associated=True)
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
    return narrow(relationships, criteria)


_TOKEN_RELATIONSHIP_PAGES = CompiledPages(
    _token_relationship_page, parent=lambda criteria: entity_queryset(entity_id=criteria.scope[0])
)
