"""The eight Statuspage v2 routes under `STATUS_API_PREFIX` (default "api/v2/"), and the
human page of an event at `incidents/<id>`, where its shortlink leads (apps/status/pages.py).

The project includes this module at the root, so the prefix is applied here; paths it does
not match fall through to the project's JSON 404.
"""

from django.urls import path

from apps.status import conf, pages
from apps.status.api import views

__all__ = ("app_name", "urlpatterns")

app_name = "status-api"

prefix = conf.api_prefix()

urlpatterns = [
    path(f"{prefix}summary.json", views.SummaryView.as_view(), name="summary"),
    path(f"{prefix}status.json", views.PageStatusView.as_view(), name="status"),
    path(f"{prefix}components.json", views.ComponentListView.as_view(), name="components"),
    path(f"{prefix}incidents.json", views.IncidentListView.as_view(), name="incidents"),
    path(
        f"{prefix}incidents/unresolved.json",
        views.UnresolvedIncidentListView.as_view(),
        name="incidents-unresolved",
    ),
    path(f"{prefix}scheduled-maintenances.json", views.MaintenanceListView.as_view(), name="maintenances"),
    path(
        f"{prefix}scheduled-maintenances/upcoming.json",
        views.UpcomingMaintenanceListView.as_view(),
        name="maintenances-upcoming",
    ),
    path(
        f"{prefix}scheduled-maintenances/active.json",
        views.ActiveMaintenanceListView.as_view(),
        name="maintenances-active",
    ),
    path("incidents/<str:event_id>", pages.event_page, name="event-page"),
]
