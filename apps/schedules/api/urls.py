from apps.common.api.routers import MirrorRouter
from apps.schedules.api.views import ScheduleViewSet

app_name = "schedules-api"

router = MirrorRouter()
router.register("schedules", ScheduleViewSet, basename="schedule")

urlpatterns = router.urls
