from apps.accounts.api.views import AccountViewSet, BalanceViewSet
from apps.common.api.routers import MirrorRouter

app_name = "accounts-api"

router = MirrorRouter()
router.register("balances", BalanceViewSet, basename="balance")
router.register("accounts", AccountViewSet, basename="account")

urlpatterns = router.urls
