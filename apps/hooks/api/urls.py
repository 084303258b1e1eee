from apps.common.api.routers import MirrorRouter
from apps.hooks.api.views import HookStorageViewSet, HookViewSet

app_name = "hooks-api"

ACCOUNT = "accounts/(?P<id>[^/]+)"
router = MirrorRouter()
router.register(f"{ACCOUNT}/hooks", HookViewSet, basename="account-hook")
router.register(f"{ACCOUNT}/hooks/(?P<hook_id>[^/]+)/storage", HookStorageViewSet, basename="account-hook-storage")

urlpatterns = router.urls
