from apps.accounts.api import views
from apps.accounts.api.views import AccountViewSet, BalanceViewSet
from apps.common.api.routers import MirrorRouter

app_name = "accounts-api"

router = MirrorRouter()
router.register("balances", BalanceViewSet, basename="balance")
router.register("accounts", AccountViewSet, basename="account")

ACCOUNT = "accounts/(?P<id>[^/]+)"
router.register(f"{ACCOUNT}/rewards", views.StakingRewardViewSet, basename="account-reward")
router.register(f"{ACCOUNT}/allowances/crypto", views.CryptoAllowanceViewSet, basename="account-crypto-allowance")

urlpatterns = router.urls
