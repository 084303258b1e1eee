from django.contrib import admin
from django.urls import include, path, re_path

from apps.common.api.views import route_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("apps.blocks.api.urls")),
    path("", include("apps.status.api.urls")),
    path("api/v1/", include("apps.transactions.api.urls")),
    path("api/v1/", include("apps.accounts.api.urls")),
    path("api/v1/", include("apps.contracts.api.urls")),
    re_path(r"^api/", route_not_found),
]

handler400 = "apps.common.api.views.bad_request"
handler403 = "apps.common.api.views.permission_denied"
handler404 = "apps.common.api.views.route_not_found"
handler500 = "apps.common.api.views.server_error"
