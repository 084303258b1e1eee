"""Reads behind the JSON routes: the page's rows in a fixed number of queries, then what
they show.

`page_content` reads what authors wrote in eight queries, one per table of the status page
(which cachalot caches, apps/status/caching.py), however many events and updates the page
holds. `page_snapshot` applies a mirror reading (`live_checks.read_mirror`) to content: live
checks, group statuses, the page rollup, without the database, so a snapshot can be rebuilt
from content read earlier, with a new reading or with the database gone.

Components come in API order: `position` (1-based within a group), then top-level before
grouped, then id. Incidents are newest first by `created_at`; their updates newest first by
`display_at`. `scheduled-maintenances.json` is newest first by `scheduled_for`; the upcoming,
active and summary lists read soonest first.
"""

import copy
from dataclasses import dataclass, field
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS
from django.db.models import F, Model, Prefetch, Q, Subquery

from apps.status import rollup
from apps.status.live_checks import MirrorReading, effective_state
from apps.status.models import (
    ACTIVE_MAINTENANCE_STATUSES,
    UNRESOLVED_INCIDENT_STATUSES,
    AffectedComponent,
    Component,
    ComponentStatus,
    Event,
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

__all__ = ("RECENT_LIMIT", "PageContent", "PageSnapshot", "event_with_page", "page_content", "page_snapshot")

RECENT_LIMIT = 50
COMPONENT_ORDER = ("position", F("group_id").asc(nulls_first=True), "id")
INCIDENT_ORDER = ("-created_at", "-id")
# Reversed, the soonest-first order of the upcoming, active and summary lists.
MAINTENANCE_ORDER = ("-scheduled_for", "-id")
OPEN_MAINTENANCE_STATUSES = (MaintenanceStatus.SCHEDULED, *ACTIVE_MAINTENANCE_STATUSES)
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
class PageContent:
    """What authors wrote, as read at one moment."""

    page: Page
    components: list[Component]
    recent_incidents: list[Incident]
    unresolved_incidents: list[Incident]
    recent_maintenances: list[Maintenance]
    open_maintenances: list[Maintenance]
    # The latest edit of the page or any of its events.
    updated_at: datetime

    @property
    def has_live_components(self) -> bool:
        return any(component.is_live for component in self.components)


@dataclass(frozen=True, slots=True)
class PageSnapshot:
    """The page as every route renders it: its content (events as read) and its components
    as shown, copies each with the `shown_status` and `shown_updated_at` it renders and, for
    groups, `child_ids`."""

    content: PageContent
    components: list[Component]
    component_by_id: dict[str, Component]
    updated_at: datetime
    status: rollup.PageStatus
    # What each route rendered from this snapshot, so later requests reuse it.
    bodies: dict = field(default_factory=dict, compare=False)

    @property
    def page(self) -> Page:
        return self.content.page

    @property
    def upcoming_maintenances(self) -> list[Maintenance]:
        return [each for each in self.content.open_maintenances if each.status == MaintenanceStatus.SCHEDULED]

    @property
    def active_maintenances(self) -> list[Maintenance]:
        return [each for each in self.content.open_maintenances if each.status in ACTIVE_MAINTENANCE_STATUSES]


def page_content(*, recent_limit: int = RECENT_LIMIT) -> PageContent | None:
    page = (
        _read(Page)
        .annotate(
            incidents_updated_at=_latest(Incident, "updated_at"),
            maintenances_updated_at=_latest(Maintenance, "updated_at"),
        )
        .order_by("id")
        .first()
    )
    if page is None:
        return None
    incidents = _events(
        Incident,
        order=INCIDENT_ORDER,
        still_open=Q(status__in=UNRESOLVED_INCIDENT_STATUSES),
        recent_limit=recent_limit,
        updates=_updates(IncidentUpdate, IncidentAffectedComponent),
    )
    maintenances = _events(
        Maintenance,
        order=MAINTENANCE_ORDER,
        still_open=Q(status__in=OPEN_MAINTENANCE_STATUSES),
        recent_limit=recent_limit,
        updates=_updates(MaintenanceUpdate, MaintenanceAffectedComponent),
    )
    return PageContent(
        page=page,
        components=list(_read(Component).order_by(*COMPONENT_ORDER)),
        # The read holds the most recent events, so the first of them are the most recent overall.
        recent_incidents=incidents[:recent_limit],
        unresolved_incidents=[each for each in incidents if each.status in UNRESOLVED_INCIDENT_STATUSES],
        recent_maintenances=maintenances[:recent_limit],
        open_maintenances=[
            each for each in reversed(maintenances) if each.status in OPEN_MAINTENANCE_STATUSES
        ],
        updated_at=max(
            filter(None, (page.updated_at, page.incidents_updated_at, page.maintenances_updated_at))
        ),
    )


def event_with_page(event_id: str) -> tuple[Page, Event] | None:
    """The incident or maintenance of that id, its updates newest first with their components,
    and the page; None when there is no such event or no page."""
    page = _read(Page).order_by("id").first()
    if page is None:
        return None
    for model, update_model, affected_model in (
        (Incident, IncidentUpdate, IncidentAffectedComponent),
        (Maintenance, MaintenanceUpdate, MaintenanceAffectedComponent),
    ):
        updates = _updates(update_model, affected_model, with_components=True)
        if event := _read(model).filter(id=event_id).prefetch_related(updates).first():
            return page, event
    return None


def page_snapshot(*, content: PageContent, reading: MirrorReading | None) -> PageSnapshot:
    """`reading` may be None when no component is live."""
    components = _shown_components(content.components, reading)
    status = rollup.page_status(
        component_statuses=(component.shown_status for component in components if not component.is_group),
        incident_impacts=(incident.shown_impact for incident in content.unresolved_incidents),
    )
    return PageSnapshot(
        content=content,
        components=components,
        component_by_id={component.id: component for component in components},
        updated_at=max([content.updated_at, *(component.shown_updated_at for component in components)]),
        status=status,
    )


def _shown_components(components: list[Component], reading: MirrorReading | None) -> list[Component]:
    # Copies: snapshots of the same content are served side by side.
    shown = [copy.copy(component) for component in components]
    leaves = [component for component in shown if not component.is_group]
    for leaf in leaves:
        leaf.shown_status, leaf.shown_updated_at = effective_state(leaf, reading)
    for group in (component for component in shown if component.is_group):
        children = [leaf for leaf in leaves if leaf.group_id == group.id]
        group.child_ids = [child.id for child in children]
        group.shown_status = max(
            (child.shown_status for child in children),
            key=GROUP_STATUS_SEVERITY.index,
            default=ComponentStatus.OPERATIONAL,
        )
        group.shown_updated_at = max([group.updated_at, *(child.shown_updated_at for child in children)])
    return shown


def _latest(model: type[Model], field: str) -> Subquery:
    return Subquery(_read(model).order_by(f"-{field}").values(field)[:1])


def _events(
    model: type[Event], *, order: tuple[str, ...], still_open: Q, recent_limit: int, updates: Prefetch
) -> list[Event]:
    """The `recent_limit` most recent events and every open one, in `order`."""
    recent = _read(model).order_by(*order).values("id")[:recent_limit]
    return list(_read(model).filter(still_open | Q(id__in=recent)).order_by(*order).prefetch_related(updates))


def _updates(
    update_model: type[EventUpdate], affected_model: type[AffectedComponent], *, with_components: bool = False
) -> Prefetch:
    # A snapshot's routes look their components up by id.
    affected = _read(affected_model).order_by(*AFFECTED_COMPONENT_ORDER)
    if with_components:
        affected = affected.select_related("component__group")
    return Prefetch(
        "updates",
        queryset=_read(update_model).order_by("-display_at", "-created_at", "-id").prefetch_related(
            Prefetch("affected_components", queryset=affected)
        ),
    )


def _read(model: type[Model]):
    """The status routes read with the API's role, on its connection: the router would send
    the status page's tables to the admin's (apps/common/database/roles.py)."""
    return model.objects.using(DEFAULT_DB_ALIAS)
