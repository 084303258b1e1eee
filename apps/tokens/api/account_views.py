"""Token lists under an account: `/accounts/{id}/nfts`, `/allowances/tokens` and `/tokens`."""

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


class AccountNftViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = AccountNftFilterSet
    selector = selectors.account_nft_list
    serializer_class = NftSerializer
    results_key = "nfts"


class TokenAllowanceViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = TokenAllowanceFilterSet
    selector = selectors.token_allowance_list
    serializer_class = TokenAllowanceSerializer
    results_key = "allowances"


class TokenRelationshipViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = TokenRelationshipFilterSet
    selector = selectors.token_relationship_list
    serializer_class = TokenRelationshipSerializer
    results_key = "tokens"
