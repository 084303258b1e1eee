"""Reads behind the JSON routes.

Components come in API order: `position` (1-based within a group), then top-level before
grouped, then id. Incidents are newest first by `created_at`; their updates newest first by
`display_at`. `scheduled-maintenances.json` is newest first by `scheduled_for`; the upcoming,
active and summary lists read soonest first.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, Max, Prefetch, QuerySet

from apps.status import rollup
from apps.status.live_checks import effective_state, read_mirror
from apps.status.models import (
    ACTIVE_MAINTENANCE_STATUSES,
    UNRESOLVED_INCIDENT_STATUSES,
    AffectedComponent,
    Component,
    ComponentStatus,
    EventUpdate,
    Incident,
    IncidentAffectedComponent,
    IncidentUpdate,
    Maintenance,
    MaintenanceAffectedComponent,
    MaintenanceStatus,
    MaintenanceUpdate,
    Page,
)

__all__ = (
    "PageSnapshot",
    "component_list",
    "incident_recent_list",
    "incident_unresolved_list",
    "maintenance_active_list",
    "maintenance_open_list",
    "maintenance_recent_list",
    "maintenance_upcoming_list",
    "page_snapshot",
    "page_status",
)

COMPONENT_ORDER = ("position", F("group_id").asc(nulls_first=True), "id")
AFFECTED_COMPONENT_ORDER = (
    "component__position",
    F("component__group_id").asc(nulls_first=True),
    "component_id",
)
# A group shows its worst child; maintenance ranks below any degradation.
GROUP_STATUS_SEVERITY = (
    ComponentStatus.OPERATIONAL,
    ComponentStatus.UNDER_MAINTENANCE,
    ComponentStatus.DEGRADED_PERFORMANCE,
    ComponentStatus.PARTIAL_OUTAGE,
    ComponentStatus.MAJOR_OUTAGE,
)


@dataclass(frozen=True, slots=True)
class PageSnapshot:
    """The page as every route renders it, read once per request."""

    page: Page
    components: list[Component]
    updated_at: datetime


def page_snapshot() -> PageSnapshot | None:
    page = Page.objects.first()
    if page is None:
        return None
    components = component_list()
    latest_events = (
        model.objects.aggregate(latest=Max("updated_at"))["latest"] for model in (Incident, Maintenance)
    )
    updated_at = max(
        [
            page.updated_at,
            *(component.shown_updated_at for component in components),
            *filter(None, latest_events),
        ]
    )
    return PageSnapshot(page=page, components=components, updated_at=updated_at)


def component_list() -> list[Component]:
    """Every component in API order, each with the `shown_status` and `shown_updated_at` it
    renders (live checks applied, groups derived) and, for groups, `child_ids`."""
    components = list(Component.objects.order_by(*COMPONENT_ORDER))
    reading = read_mirror() if any(component.is_live for component in components) else None
    leaves = [component for component in components if not component.is_group]
    for leaf in leaves:
        leaf.shown_status, leaf.shown_updated_at = effective_state(leaf, reading)
    for group in (component for component in components if component.is_group):
        children = [leaf for leaf in leaves if leaf.group_id == group.id]
        group.child_ids = [child.id for child in children]
        group.shown_status = max(
            (child.shown_status for child in children),
            key=GROUP_STATUS_SEVERITY.index,
            default=ComponentStatus.OPERATIONAL,
        )
        group.shown_updated_at = max([group.updated_at, *(child.shown_updated_at for child in children)])
    return components


def page_status(*, snapshot: PageSnapshot, unresolved_incidents: Iterable[Incident]) -> rollup.PageStatus:
    return rollup.page_status(
        component_statuses=(
            component.shown_status for component in snapshot.components if not component.is_group
        ),
        incident_impacts=(incident.shown_impact for incident in unresolved_incidents),
    )


def incident_recent_list(*, limit: int) -> QuerySet[Incident]:
    return _incidents().order_by("-created_at", "-id")[:limit]


def incident_unresolved_list() -> QuerySet[Incident]:
    return _incidents().filter(status__in=UNRESOLVED_INCIDENT_STATUSES).order_by("-created_at", "-id")


def maintenance_recent_list(*, limit: int) -> QuerySet[Maintenance]:
    return _maintenances().order_by("-scheduled_for", "-id")[:limit]


def maintenance_upcoming_list() -> QuerySet[Maintenance]:
    return _maintenances().filter(status=MaintenanceStatus.SCHEDULED).order_by("scheduled_for", "id")


def maintenance_active_list() -> QuerySet[Maintenance]:
    return _maintenances().filter(status__in=ACTIVE_MAINTENANCE_STATUSES).order_by("scheduled_for", "id")


def maintenance_open_list() -> QuerySet[Maintenance]:
    """Upcoming or in flight: what the summary shows."""
    return (
        _maintenances()
        .filter(status__in=(MaintenanceStatus.SCHEDULED, *ACTIVE_MAINTENANCE_STATUSES))
        .order_by("scheduled_for", "id")
    )


def _incidents() -> QuerySet[Incident]:
    return Incident.objects.prefetch_related(_updates(IncidentUpdate, IncidentAffectedComponent))


def _maintenances() -> QuerySet[Maintenance]:
    return Maintenance.objects.prefetch_related(_updates(MaintenanceUpdate, MaintenanceAffectedComponent))


def _updates(update_model: type[EventUpdate], affected_model: type[AffectedComponent]) -> Prefetch:
    affected = affected_model.objects.select_related("component__group").order_by(*AFFECTED_COMPONENT_ORDER)
    return Prefetch(
        "updates",
        queryset=update_model.objects.order_by("-display_at", "-created_at", "-id").prefetch_related(
            Prefetch("affected_components", queryset=affected)
        ),
    )
