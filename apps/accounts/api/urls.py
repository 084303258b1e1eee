from apps.accounts.api.views import BalanceViewSet
from apps.common.api.routers import MirrorRouter

app_name = "accounts-api"

router = MirrorRouter()
router.register("balances", BalanceViewSet, basename="balance")

urlpatterns = router.urls
