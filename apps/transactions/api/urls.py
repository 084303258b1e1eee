from apps.common.api.routers import MirrorRouter
from apps.transactions.api.views import TransactionViewSet

app_name = "transactions-api"

router = MirrorRouter()
router.register("transactions", TransactionViewSet, basename="transaction")

urlpatterns = router.urls
