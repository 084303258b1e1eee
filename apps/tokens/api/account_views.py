"""Token lists under an account: `/accounts/{id}/nfts`, `/allowances/tokens` and `/tokens`."""

from drf_spectacular.utils import extend_schema

from apps.accounts.api.views import AccountPathMixin
from apps.common.api.views import MirrorViewSet
from apps.tokens import account_selectors as selectors
from apps.tokens.account_filtersets import (
    AccountNftFilterSet,
    TokenAllowanceFilterSet,
    TokenRelationshipFilterSet,
)
from apps.tokens.api.serializers import (
    NftSerializer,
    TokenAllowanceSerializer,
    TokenRelationshipSerializer,
)


@extend_schema(
    summary="List an account's NFTs",
    description="The NFTs the account owns, each with its metadata, spender and whether it was deleted, in "
    "order of token id and then serial number. `token.id` and `serialnumber` bound that order together: a "
    "`serialnumber` condition needs a `token.id` one (`eq`, or a bound on the same side).",
)
class AccountNftViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = AccountNftFilterSet
    selector = selectors.account_nft_list
    serializer_class = NftSerializer
    results_key = "nfts"


@extend_schema(
    summary="List an account's token allowances",
    description="The fungible-token allowances the account granted that have an amount left: the amount "
    "granted and the amount remaining, per spender and token, in order of spender id and then token id. "
    "`spender.id` and `token.id` bound that order together: a `token.id` condition needs a `spender.id` one.",
)
class TokenAllowanceViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = TokenAllowanceFilterSet
    selector = selectors.token_allowance_list
    serializer_class = TokenAllowanceSerializer
    results_key = "allowances"


@extend_schema(
    summary="List an account's tokens",
    description="The tokens associated with the account, each with the account's balance of it, its freeze "
    "and KYC status and whether the association was automatic, in order of token id. An account that does "
    "not exist answers 404.",
)
class TokenRelationshipViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = TokenRelationshipFilterSet
    selector = selectors.token_relationship_list
    serializer_class = TokenRelationshipSerializer
    results_key = "tokens"
