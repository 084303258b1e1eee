from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.common.api.routers import includes_by_first_segment
from apps.common.api.views import route_not_found
from apps.common.health import liveness, readiness
from apps.common.observability import metrics
from apps.common.pages import landing

urlpatterns = [
    path("", landing, name="landing"),
    path("admin", RedirectView.as_view(url="/admin/", permanent=True)),
    path("admin/", admin.site.urls),
    path("health/liveness", liveness, name="liveness"),
    path("health/readiness", readiness, name="readiness"),
    path("metrics", metrics, name="metrics"),
    path("api/v1/docs/openapi.yml", SpectacularAPIView.as_view(), name="openapi"),
    path("api/v1/docs", SpectacularSwaggerView.as_view(url_name="openapi"), name="swagger-ui"),
    # Each app's routes, reached through the index of their first segments (a path tries only
    # its own app's patterns).
    includes_by_first_segment(
        "api/v1/",
        [
            # Before the routes whose `{id}` segments would take `stream`.
            "apps.streams.urls",
            "apps.blocks.api.urls",
            "apps.transactions.api.urls",
            "apps.accounts.api.urls",
            "apps.tokens.api.urls",
            "apps.topics.api.urls",
            "apps.schedules.api.urls",
            "apps.contracts.api.urls",
            "apps.network.api.urls",
        ],
    ),
    path("", include("apps.status.api.urls")),
    re_path(r"^api/", route_not_found),
]

handler400 = "apps.common.api.views.bad_request"
handler403 = "apps.common.api.views.permission_denied"
handler404 = "apps.common.api.views.route_not_found"
handler500 = "apps.common.api.views.server_error"
