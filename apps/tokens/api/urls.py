from django.urls import re_path

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
