"""The Java-served lists under an account: `/accounts/{id}/allowances/nfts` and
`/accounts/{id}/airdrops/outstanding|pending`. The path is checked first, then the query,
then the account is looked up (by the selector), as the upstream does."""

from drf_spectacular.utils import extend_schema

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


@extend_schema(
    summary="List an account's NFT allowances",
    description="The allowances over every NFT of a token (`approved_for_all`) that the account granted "
    "(`owner=true`, the default: `account.id` then names spenders) or was granted (`owner=false`: "
    "`account.id` names owners), in order of the other account's id and then token id. A `token.id` "
    "condition needs an `account.id` one. An alias or EVM address no account holds answers 404.",
)
class NftAllowanceViewSet(AccountPathViewSet):
    filterset_class = NftAllowanceFilterSet
    selector = selectors.nft_allowance_list
    serializer_class = NftAllowanceSerializer
    results_key = "allowances"


@extend_schema(
    summary="List the airdrops an account sent",
    description="The token airdrops the account sent that their receivers have not claimed (nor the sender "
    "cancelled): the amount, or the serial number of an NFT, per receiver and token, in order of receiver "
    "id, token id and serial number. An alias or EVM address no account holds answers 404.",
)
class OutstandingAirdropViewSet(AccountPathViewSet):
    filterset_class = OutstandingAirdropFilterSet
    selector = selectors.outstanding_airdrop_list
    serializer_class = TokenAirdropSerializer
    results_key = "airdrops"


@extend_schema(
    summary="List the airdrops an account may claim",
    description="The token airdrops sent to the account that it has not claimed (nor their senders "
    "cancelled): the amount, or the serial number of an NFT, per sender and token, in order of sender id, "
    "token id and serial number. An alias or EVM address no account holds answers 404.",
)
class PendingAirdropViewSet(AccountPathViewSet):
    filterset_class = PendingAirdropFilterSet
    selector = selectors.pending_airdrop_list
    serializer_class = TokenAirdropSerializer
    results_key = "airdrops"
