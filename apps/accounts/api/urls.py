from apps.accounts.api import views
from apps.accounts.api.views import AccountViewSet, BalanceViewSet
from apps.common.api.routers import MirrorRouter

app_name = "accounts-api"

router = MirrorRouter()
router.register("balances", BalanceViewSet, basename="balance")
router.register("accounts", AccountViewSet, basename="account")

ACCOUNT = "accounts/(?P<id>[^/]+)"
router.register(f"{ACCOUNT}/nfts", views.AccountNftViewSet, basename="account-nft")
router.register(f"{ACCOUNT}/rewards", views.StakingRewardViewSet, basename="account-reward")
router.register(f"{ACCOUNT}/allowances/crypto", views.CryptoAllowanceViewSet, basename="account-crypto-allowance")
router.register(f"{ACCOUNT}/allowances/tokens", views.TokenAllowanceViewSet, basename="account-token-allowance")
router.register(f"{ACCOUNT}/tokens", views.TokenRelationshipViewSet, basename="account-token")
router.register(f"{ACCOUNT}/allowances/nfts", views.NftAllowanceViewSet, basename="account-nft-allowance")
router.register(f"{ACCOUNT}/airdrops/outstanding", views.OutstandingAirdropViewSet, basename="account-airdrop-outstanding")
router.register(f"{ACCOUNT}/airdrops/pending", views.PendingAirdropViewSet, basename="account-airdrop-pending")

urlpatterns = router.urls
