from django.urls import re_path

from apps.common.api.routers import MirrorRouter
from apps.tokens.api import account_views, airdrop_views
from apps.tokens.api.views import (
    NftTransactionViewSet,
    NftViewSet,
    TokenBalanceViewSet,
    TokenViewSet,
    token_id_param_view,
)

app_name = "tokens-api"

_TOKEN = r"(?P<token_id>[^/]+)"
_SERIAL = r"(?P<serial_number>[^/]+)"

urlpatterns = [
    # The short forms name the token in `token.id`; they come first, as `balances`
    # and `nfts` would otherwise read as (invalid) token ids.
    re_path(r"^tokens/balances/?$", token_id_param_view, name="token-balance-short"),
    re_path(r"^tokens/nfts/?$", token_id_param_view, name="nft-short"),
    re_path(rf"^tokens/nfts/{_SERIAL}/?$", token_id_param_view, name="nft-detail-short"),
    re_path(rf"^tokens/nfts/{_SERIAL}/transactions/?$", token_id_param_view, name="nft-transaction-short"),
    re_path(r"^tokens/?$", TokenViewSet.as_view({"get": "list"}), name="token-list"),
    re_path(rf"^tokens/{_TOKEN}/?$", TokenViewSet.as_view({"get": "retrieve"}), name="token-detail"),
    re_path(rf"^tokens/{_TOKEN}/balances/?$", TokenBalanceViewSet.as_view({"get": "list"}), name="token-balance-list"),
    re_path(rf"^tokens/{_TOKEN}/nfts/?$", NftViewSet.as_view({"get": "list"}), name="nft-list"),
    re_path(rf"^tokens/{_TOKEN}/nfts/{_SERIAL}/?$", NftViewSet.as_view({"get": "retrieve"}), name="nft-detail"),
    re_path(
        rf"^tokens/{_TOKEN}/nfts/{_SERIAL}/transactions/?$",
        NftTransactionViewSet.as_view({"get": "list"}),
        name="nft-transaction-list",
    ),
]

# Token lists under an account.
_ACCOUNT = "accounts/(?P<id>[^/]+)"
account_router = MirrorRouter()
account_router.register(f"{_ACCOUNT}/nfts", account_views.AccountNftViewSet, basename="account-nft")
account_router.register(f"{_ACCOUNT}/allowances/tokens", account_views.TokenAllowanceViewSet, basename="account-token-allowance")
account_router.register(f"{_ACCOUNT}/tokens", account_views.TokenRelationshipViewSet, basename="account-token")
account_router.register(f"{_ACCOUNT}/allowances/nfts", airdrop_views.NftAllowanceViewSet, basename="account-nft-allowance")
account_router.register(f"{_ACCOUNT}/airdrops/outstanding", airdrop_views.OutstandingAirdropViewSet, basename="account-airdrop-outstanding")
account_router.register(f"{_ACCOUNT}/airdrops/pending", airdrop_views.PendingAirdropViewSet, basename="account-airdrop-pending")
urlpatterns += account_router.urls
