"""The Java-served lists under an account: `/accounts/{id}/allowances/nfts` and
`/accounts/{id}/airdrops/outstanding|pending`. The path is checked first, then the query,
then the account is looked up (by the selector), as the upstream does."""

from apps.accounts.selectors import account_paths
from apps.common.api.views import MirrorViewSet
from apps.common.query.strict import conversion_error
from apps.tokens import airdrop_selectors as selectors
from apps.tokens.airdrop_filtersets import (
    NftAllowanceFilterSet,
    OutstandingAirdropFilterSet,
    PendingAirdropFilterSet,
)
from apps.tokens.api.serializers import NftAllowanceSerializer, TokenAirdropSerializer


class AccountPathViewSet(MirrorViewSet):
    """A route under `/accounts/{id}/` that the upstream serves from its Java service."""

    entity_tags = True

    def scope(self) -> tuple:
        try:
            return (account_paths.java_account_path(self.kwargs["id"]),)
        except ValueError:
            raise conversion_error("id") from None


class NftAllowanceViewSet(AccountPathViewSet):
    filterset_class = NftAllowanceFilterSet
    selector = selectors.nft_allowance_list
    serializer_class = NftAllowanceSerializer
    results_key = "allowances"
    query_parameters = {"list": ("account.id", "limit", "order", "owner", "token.id")}


class OutstandingAirdropViewSet(AccountPathViewSet):
    filterset_class = OutstandingAirdropFilterSet
    selector = selectors.outstanding_airdrop_list
    serializer_class = TokenAirdropSerializer
    results_key = "airdrops"
    query_parameters = {"list": ("limit", "order", "receiver.id", "serialnumber", "token.id")}


class PendingAirdropViewSet(AccountPathViewSet):
    filterset_class = PendingAirdropFilterSet
    selector = selectors.pending_airdrop_list
    serializer_class = TokenAirdropSerializer
    results_key = "airdrops"
    query_parameters = {"list": ("limit", "order", "sender.id", "serialnumber", "token.id")}
