from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView

from apps.common.api.docs import OpenApiDocumentView, SwaggerUIView
from apps.common.api.views import read_only, route_not_found
from apps.common.observability import metrics
from apps.common.server.health import liveness, readiness
from apps.common.server.pages import landing

urlpatterns = [
    path("", read_only(landing), name="landing"),
    path("admin", RedirectView.as_view(url="/admin/", permanent=True)),
    path("admin/", admin.site.urls),
    path("health/liveness", read_only(liveness), name="liveness"),
    path("health/readiness", read_only(readiness), name="readiness"),
    path("metrics", read_only(metrics), name="metrics"),
    path("api/v1/docs/openapi.yml", OpenApiDocumentView.as_view(), name="openapi"),
    path("api/v1/docs", SwaggerUIView.as_view(url_name="openapi"), name="swagger-ui"),
    # API requests resolve through `apps.common.api.routers.route_index`, in this order.
    path(
        "api/v1/",
        include(
            [
                # Before the routes whose `{id}` segments would take `stream`.
                path("", include("apps.streams.urls")),
                path("", include("apps.blocks.api.urls")),
                path("", include("apps.transactions.api.urls")),
                path("", include("apps.accounts.api.urls")),
                path("", include("apps.tokens.api.urls")),
                path("", include("apps.topics.api.urls")),
                path("", include("apps.schedules.api.urls")),
                path("", include("apps.contracts.api.urls")),
                path("", include("apps.network.api.urls")),
                path("", include("apps.hooks.api.urls")),
            ]
        ),
    ),
    path("", include("apps.status.api.urls")),
    re_path(r"^api/", route_not_found),
]

handler400 = "apps.common.api.views.bad_request"
handler403 = "apps.common.api.views.permission_denied"
handler404 = "apps.common.api.views.route_not_found"
handler500 = "apps.common.api.views.server_error"
