from apps.blocks.api.views import BlockViewSet
from apps.common.api.routers import MirrorRouter

app_name = "blocks-api"

router = MirrorRouter()
router.register("blocks", BlockViewSet, basename="block")

urlpatterns = router.urls
