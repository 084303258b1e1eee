"""Writes: incidents and scheduled maintenances change status only by posting an update.

Each update row records its status, its time and the components it affected (old and new
status). A refused transition or component status raises `ValidationError`, which the admin
shows on its form. In `component_statuses`, None attaches a component without changing it.

Resolving an incident or completing a maintenance returns the components it affected to
operational, as Statuspage does, except those the closing update sets itself and those another
open event (an unresolved incident, a maintenance in progress) also affects.
"""

import functools
from collections.abc import Mapping
from datetime import datetime

from django.db import router, transaction

from apps.status.live_checks import effective_state, read_mirror
from apps.status.models import (
    ACTIVE_MAINTENANCE_STATUSES,
    UNRESOLVED_INCIDENT_STATUSES,
    Component,
    ComponentStatus,
    Event,
    EventUpdate,
    Incident,
    IncidentAffectedComponent,
    IncidentStatus,
    IncidentUpdate,
    Maintenance,
    MaintenanceAffectedComponent,
    MaintenanceImpact,
    MaintenanceStatus,
    MaintenanceUpdate,
    Page,
)
from apps.status.timestamps import current_time

__all__ = (
    "affected_components",
    "in_one_transaction",
    "incident_open",
    "incident_post_update",
    "maintenance_post_update",
    "maintenance_schedule",
)

ComponentStatuses = Mapping[Component, str | None]

# Entering these statuses stamps the event field Statuspage reuses for both kinds.
STATUS_STAMPS = {
    IncidentStatus.MONITORING: "monitoring_at",
    IncidentStatus.RESOLVED: "resolved_at",
    MaintenanceStatus.VERIFYING: "monitoring_at",
    MaintenanceStatus.COMPLETED: "resolved_at",
}
CLOSING_STATUSES = (IncidentStatus.RESOLVED, MaintenanceStatus.COMPLETED)


def in_one_transaction(function):
    """Runs `function` in a transaction of the connection the status page is written on: the
    admin's, where the router sends it (apps/common/database/roles.py)."""

    @functools.wraps(function)
    def in_transaction(*args, **kwargs):
        with transaction.atomic(using=router.db_for_write(Page)):
            return function(*args, **kwargs)

    return in_transaction


@in_one_transaction
def incident_open(
    *,
    name: str,
    status: str,
    body: str,
    impact: str = "",
    started_at: datetime | None = None,
    component_statuses: ComponentStatuses | None = None,
) -> Incident:
    """`impact` left empty is derived from the worst status the incident gives a component."""
    incident = Incident(name=name, impact=impact)
    if started_at is not None:
        incident.started_at = started_at
    _post_update(incident, IncidentUpdate(incident=incident), status, body, component_statuses)
    return incident


@in_one_transaction
def incident_post_update(
    *, incident: Incident, status: str, body: str, component_statuses: ComponentStatuses | None = None
) -> IncidentUpdate:
    return _post_update(incident, IncidentUpdate(incident=incident), status, body, component_statuses)


@in_one_transaction
def maintenance_schedule(
    *,
    name: str,
    body: str,
    scheduled_for: datetime,
    scheduled_until: datetime,
    impact: str = MaintenanceImpact.MAINTENANCE,
    component_statuses: ComponentStatuses | None = None,
) -> Maintenance:
    maintenance = Maintenance(
        name=name, impact=impact, scheduled_for=scheduled_for, scheduled_until=scheduled_until
    )
    _post_update(
        maintenance,
        MaintenanceUpdate(maintenance=maintenance),
        MaintenanceStatus.SCHEDULED,
        body,
        component_statuses,
    )
    return maintenance


@in_one_transaction
def maintenance_post_update(
    *, maintenance: Maintenance, status: str, body: str, component_statuses: ComponentStatuses | None = None
) -> MaintenanceUpdate:
    return _post_update(
        maintenance, MaintenanceUpdate(maintenance=maintenance), status, body, component_statuses
    )


def _post_update(
    event: Event, update: EventUpdate, status: str, body: str, component_statuses: ComponentStatuses | None
) -> EventUpdate:
    component_statuses = component_statuses or {}
    event.validate_next_status(status)
    for component, new_status in component_statuses.items():
        if new_status is not None:
            component.validate_status_change(new_status)
    if status in CLOSING_STATUSES:
        component_statuses = _closing_statuses(event, component_statuses)

    now = current_time()
    event.status = status
    if (stamp := STATUS_STAMPS.get(status)) and getattr(event, stamp) is None:
        setattr(event, stamp, now)
    event.full_clean()
    event.save()

    update.status = status
    update.body = body
    update.created_at = update.display_at = now
    update.full_clean()
    update.save()

    reading = read_mirror() if any(component.is_live for component in component_statuses) else None
    for component, new_status in component_statuses.items():
        old_status, _ = effective_state(component, reading)
        if new_status is not None and new_status != component.status:
            component.status = new_status
            component.save(update_fields=["status"])
        update.affected_components.create(
            component=component, old_status=old_status, new_status=new_status or old_status
        )
    return update


def _closing_statuses(event: Event, component_statuses: ComponentStatuses) -> dict[Component, str | None]:
    """The closing update's components: those given a status keep it; every other component
    the event affected returns to operational unless another open event affects it too."""
    statuses = dict(component_statuses)
    returning = [
        component
        for component in dict.fromkeys([*component_statuses, *affected_components(event)])
        if statuses.get(component) is None and component.status != ComponentStatus.OPERATIONAL
    ]
    held = _affected_by_other_open_events(event)
    statuses.update(
        (component, ComponentStatus.OPERATIONAL) for component in returning if component.pk not in held
    )
    return statuses


def affected_components(event: Event) -> list[Component]:
    """The components any update of `event` affected."""
    if isinstance(event, Incident):
        rows = IncidentAffectedComponent.objects.filter(update__incident=event)
    else:
        rows = MaintenanceAffectedComponent.objects.filter(update__maintenance=event)
    return list(Component.objects.filter(pk__in=rows.values("component")).order_by("position", "name"))


def _affected_by_other_open_events(event: Event) -> set[str]:
    incidents = IncidentAffectedComponent.objects.filter(
        update__incident__status__in=UNRESOLVED_INCIDENT_STATUSES
    )
    maintenances = MaintenanceAffectedComponent.objects.filter(
        update__maintenance__status__in=ACTIVE_MAINTENANCE_STATUSES
    )
    if isinstance(event, Incident):
        incidents = incidents.exclude(update__incident=event)
    else:
        maintenances = maintenances.exclude(update__maintenance=event)
    return {*incidents.values_list("component", flat=True), *maintenances.values_list("component", flat=True)}
