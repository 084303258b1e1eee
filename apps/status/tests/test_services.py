from contextlib import contextmanager
from datetime import timedelta
from functools import partial

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from apps.common.clock import frozen_at
from apps.common.database.roles import ADMIN_DATABASE
from apps.status import services
from apps.status.models import (
    Component,
    ComponentStatus,
    Incident,
    IncidentUpdate,
    LiveCheck,
    Maintenance,
    MaintenanceStatus,
)
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db

INCIDENT_PATH = ["investigating", "identified", "monitoring", "resolved", "postmortem"]
MAINTENANCE_PATH = ["scheduled", "in_progress", "verifying", "completed"]

# Written out rather than read from the models, so that a change to the machines shows here.
INCIDENT_ALLOWED = {
    None: {"investigating", "identified", "monitoring"},
    "investigating": {"investigating", "identified", "monitoring", "resolved"},
    "identified": {"identified", "monitoring", "resolved"},
    "monitoring": {"monitoring", "resolved"},
    "resolved": {"postmortem"},
    "postmortem": set(),
}
MAINTENANCE_ALLOWED = {
    None: {"scheduled"},
    "scheduled": {"scheduled", "in_progress"},
    "in_progress": {"in_progress", "verifying", "completed"},
    "verifying": {"verifying", "completed"},
    "completed": set(),
}


@contextmanager
def minutes_later(now, minutes):
    with frozen_at(nanos_from_datetime(now + timedelta(minutes=minutes))):
        yield now + timedelta(minutes=minutes)


def open_incident(status="investigating", **kwargs) -> Incident:
    return services.incident_open(
        name="Mainnet consensus stalled", status=status, body="Investigating.", **kwargs
    )


def incident_in(status: str) -> Incident:
    incident = open_incident()
    for step in INCIDENT_PATH[1 : INCIDENT_PATH.index(status) + 1]:
        services.incident_post_update(incident=incident, status=step, body=f"Now {step}.")
    return incident


def schedule_maintenance(now, **kwargs) -> Maintenance:
    return services.maintenance_schedule(
        name="Mainnet upgrade to v0.59",
        body="The upgrade will take about 40 minutes.",
        scheduled_for=now + timedelta(days=1),
        scheduled_until=now + timedelta(days=1, minutes=40),
        **kwargs,
    )


def maintenance_in(now, status: str) -> Maintenance:
    maintenance = schedule_maintenance(now)
    for step in MAINTENANCE_PATH[1 : MAINTENANCE_PATH.index(status) + 1]:
        services.maintenance_post_update(maintenance=maintenance, status=step, body=f"Now {step}.")
    return maintenance


@pytest.mark.parametrize("new", INCIDENT_PATH)
@pytest.mark.parametrize("current", INCIDENT_ALLOWED)
def test_incident_transition(now, current, new):
    if current is None:
        move = partial(open_incident, new)
    else:
        move = partial(services.incident_post_update, incident=incident_in(current), status=new, body="Next.")
    updates_before = IncidentUpdate.objects.count()

    if new in INCIDENT_ALLOWED[current]:
        move()
        assert Incident.objects.get().status == new
        assert IncidentUpdate.objects.count() == updates_before + 1
    else:
        with pytest.raises(ValidationError, match="cannot"):
            move()
        assert IncidentUpdate.objects.count() == updates_before
        assert [incident.status for incident in Incident.objects.all()] == (
            [] if current is None else [current]
        )


@pytest.mark.parametrize("new", MAINTENANCE_PATH)
@pytest.mark.parametrize("current", [status for status in MAINTENANCE_ALLOWED if status is not None])
def test_maintenance_transition(now, current, new):
    move = partial(
        services.maintenance_post_update, maintenance=maintenance_in(now, current), status=new, body="Next."
    )

    if new in MAINTENANCE_ALLOWED[current]:
        move()
        assert Maintenance.objects.get().status == new
    else:
        with pytest.raises(ValidationError, match="cannot"):
            move()
        assert Maintenance.objects.get().status == current


@pytest.mark.parametrize("new", MAINTENANCE_PATH)
def test_a_maintenance_opens_scheduled_only(now, new):
    if new in MAINTENANCE_ALLOWED[None]:
        Maintenance().validate_next_status(new)
    else:
        with pytest.raises(ValidationError, match="cannot open as"):
            Maintenance().validate_next_status(new)


def test_the_refusal_names_what_is_allowed(now):
    incident = incident_in("monitoring")

    with pytest.raises(ValidationError) as refusal:
        services.incident_post_update(incident=incident, status="identified", body="Back again.")

    assert refusal.value.messages == [
        "Incidents cannot go from Monitoring to Identified (allowed: Monitoring, Resolved)."
    ]


def test_each_update_is_a_row_with_its_time(now):
    incident = open_incident()
    with minutes_later(now, 10) as identified_at:
        services.incident_post_update(incident=incident, status="identified", body="Found it.")

    updates = list(
        incident.updates.order_by("created_at").values_list("status", "body", "created_at", "display_at")
    )

    assert updates == [
        ("investigating", "Investigating.", now, now),
        ("identified", "Found it.", identified_at, identified_at),
    ]
    incident.refresh_from_db()
    assert (incident.created_at, incident.started_at, incident.updated_at) == (now, now, identified_at)


def test_monitoring_and_resolution_are_stamped_once(now):
    incident = open_incident()
    with minutes_later(now, 5) as monitoring_at:
        services.incident_post_update(incident=incident, status="monitoring", body="Fix deployed.")
    with minutes_later(now, 6):
        services.incident_post_update(incident=incident, status="monitoring", body="Still watching.")
    with minutes_later(now, 30) as resolved_at:
        services.incident_post_update(incident=incident, status="resolved", body="Resolved.")
    with minutes_later(now, 90):
        services.incident_post_update(incident=incident, status="postmortem", body="What happened.")

    incident.refresh_from_db()
    assert (incident.monitoring_at, incident.resolved_at) == (monitoring_at, resolved_at)


def test_resolving_straight_away_leaves_monitoring_unset(now):
    incident = open_incident()
    services.incident_post_update(incident=incident, status="resolved", body="False alarm.")

    incident.refresh_from_db()
    assert (incident.monitoring_at, incident.resolved_at) == (None, now)


def test_a_maintenance_stamps_verifying_and_completion(now):
    maintenance = maintenance_in(now, "in_progress")
    with minutes_later(now, 20) as verifying_at:
        services.maintenance_post_update(maintenance=maintenance, status="verifying", body="Verifying.")
    with minutes_later(now, 30) as completed_at:
        services.maintenance_post_update(maintenance=maintenance, status="completed", body="Done.")

    maintenance.refresh_from_db()
    assert (maintenance.monitoring_at, maintenance.resolved_at) == (verifying_at, completed_at)


def test_an_update_sets_the_components_it_affects(now, make_component):
    rest_api = make_component("Mirror Node REST API Public Mainnet")
    consensus = make_component("Hedera Mainnet | Network Uptime")
    incident = open_incident(
        component_statuses={rest_api: ComponentStatus.DEGRADED_PERFORMANCE, consensus: None}
    )
    with minutes_later(now, 10) as recovered_at:
        services.incident_post_update(
            incident=incident,
            status="resolved",
            body="Resolved.",
            component_statuses={rest_api: ComponentStatus.OPERATIONAL},
        )

    rest_api.refresh_from_db()
    assert (rest_api.status, rest_api.updated_at) == (ComponentStatus.OPERATIONAL, recovered_at)
    affected = incident.updates.order_by("created_at").values_list(
        "status",
        "affected_components__component__name",
        "affected_components__old_status",
        "affected_components__new_status",
    )
    assert sorted(affected) == [
        ("investigating", "Hedera Mainnet | Network Uptime", "operational", "operational"),
        ("investigating", "Mirror Node REST API Public Mainnet", "operational", "degraded_performance"),
        ("resolved", "Mirror Node REST API Public Mainnet", "degraded_performance", "operational"),
    ]


def test_an_unchanged_component_keeps_its_edit_time(now, make_component):
    consensus = make_component("Hedera Mainnet | Network Uptime")
    with minutes_later(now, 10):
        open_incident(component_statuses={consensus: None})

    consensus.refresh_from_db()
    assert consensus.updated_at == now


def test_a_live_component_records_the_status_its_check_showed(now, make_component, make_block):
    make_block(now - timedelta(minutes=2))
    rest_api = make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)

    update = open_incident(component_statuses={rest_api: None}).updates.get()

    assert update.affected_components.values_list("old_status", "new_status").get() == (
        "degraded_performance",
        "degraded_performance",
    )


def test_a_live_component_can_be_put_under_maintenance_only(now, make_component):
    rest_api = make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)

    with pytest.raises(ValidationError, match="follows a live check"):
        open_incident(component_statuses={rest_api: ComponentStatus.MAJOR_OUTAGE})
    assert not Incident.objects.exists()

    maintenance = maintenance_in(now, "scheduled")
    services.maintenance_post_update(
        maintenance=maintenance,
        status="in_progress",
        body="Upgrading.",
        component_statuses={rest_api: ComponentStatus.UNDER_MAINTENANCE},
    )
    rest_api.refresh_from_db()
    assert rest_api.status == ComponentStatus.UNDER_MAINTENANCE


def test_a_group_cannot_be_set_by_hand(now, make_component):
    group = make_component("Mainnet", is_group=True)

    with pytest.raises(ValidationError, match="is a group"):
        open_incident(component_statuses={group: ComponentStatus.MAJOR_OUTAGE})


def test_an_update_needs_a_body(now):
    incident = open_incident()

    with pytest.raises(ValidationError) as refusal:
        services.incident_post_update(incident=incident, status="identified", body="")

    assert "body" in refusal.value.message_dict


def test_a_maintenance_must_end_after_it_starts(now):
    with pytest.raises(ValidationError) as refusal:
        services.maintenance_schedule(
            name="Backwards", body="Soon.", scheduled_for=now, scheduled_until=now - timedelta(minutes=1)
        )

    assert "scheduled_until" in refusal.value.message_dict
    assert not Maintenance.objects.exists()


def statuses(*components) -> list[str]:
    return [Component.objects.get(id=component.id).status for component in components]


def test_resolving_returns_the_incident_s_components_to_operational(now, make_component):
    uptime = make_component("Aurora | Network Uptime")
    node = make_component("Node 0.0.4 - Singapore", position=2)
    incident = open_incident(component_statuses={uptime: ComponentStatus.DEGRADED_PERFORMANCE})
    services.incident_post_update(
        incident=incident,
        status="identified",
        body="Found.",
        component_statuses={node: ComponentStatus.PARTIAL_OUTAGE},
    )

    with minutes_later(now, 30):
        resolution = services.incident_post_update(incident=incident, status="resolved", body="Fixed.")

    assert statuses(uptime, node) == ["operational", "operational"]
    assert sorted(
        resolution.affected_components.values_list("component__name", "old_status", "new_status")
    ) == [
        ("Aurora | Network Uptime", "degraded_performance", "operational"),
        ("Node 0.0.4 - Singapore", "partial_outage", "operational"),
    ]


def test_resolving_keeps_a_status_set_by_the_closing_update(now, make_component):
    uptime = make_component("Aurora | Network Uptime")
    node = make_component("Node 0.0.4 - Singapore", position=2)
    incident = open_incident(
        component_statuses={uptime: ComponentStatus.MAJOR_OUTAGE, node: ComponentStatus.MAJOR_OUTAGE}
    )

    services.incident_post_update(
        incident=incident,
        status="resolved",
        body="Fixed, the node stays slow.",
        component_statuses={node: ComponentStatus.DEGRADED_PERFORMANCE},
    )

    assert statuses(uptime, node) == ["operational", "degraded_performance"]


def test_resolving_leaves_a_component_another_open_incident_affects(now, make_component):
    uptime = make_component("Aurora | Network Uptime")
    node = make_component("Node 0.0.4 - Singapore", position=2)
    first = open_incident(
        component_statuses={
            uptime: ComponentStatus.DEGRADED_PERFORMANCE,
            node: ComponentStatus.PARTIAL_OUTAGE,
        }
    )
    services.incident_open(
        name="Node down", status="investigating", body="Looking.", component_statuses={node: None}
    )

    services.incident_post_update(incident=first, status="resolved", body="Fixed.")

    assert statuses(uptime, node) == ["operational", "partial_outage"]


def test_completing_a_maintenance_ends_the_maintenance_status(now, make_component):
    uptime = make_component("Aurora | Network Uptime")
    rest_api = make_component("Mirror node REST API", position=2, live_check=LiveCheck.MIRROR_FRESHNESS)
    maintenance = maintenance_in(now, "scheduled")
    services.maintenance_post_update(
        maintenance=maintenance,
        status="in_progress",
        body="Upgrading.",
        component_statuses={
            uptime: ComponentStatus.UNDER_MAINTENANCE,
            rest_api: ComponentStatus.UNDER_MAINTENANCE,
        },
    )

    services.maintenance_post_update(maintenance=maintenance, status="completed", body="Done.")

    assert statuses(uptime, rest_api) == ["operational", "operational"]


def test_an_incident_without_an_impact_takes_its_worst_component_status(now, make_component):
    rest_api = make_component("Mirror Node REST API Public Mainnet")
    incident = open_incident(component_statuses={rest_api: ComponentStatus.PARTIAL_OUTAGE})
    services.incident_post_update(
        incident=incident, status="resolved", body="Resolved.", component_statuses={rest_api: "operational"}
    )

    assert Incident.objects.get().shown_impact == "major"


def test_an_impact_set_by_the_author_wins(now, make_component):
    rest_api = make_component("Mirror Node REST API Public Mainnet")
    open_incident(impact="critical", component_statuses={rest_api: ComponentStatus.DEGRADED_PERFORMANCE})

    assert Incident.objects.get().shown_impact == "critical"


def test_a_maintenance_opens_scheduled_with_the_maintenance_impact(now):
    maintenance = schedule_maintenance(now)

    assert (maintenance.status, maintenance.shown_impact) == (MaintenanceStatus.SCHEDULED, "maintenance")
    assert maintenance.updates.get().status == MaintenanceStatus.SCHEDULED


@pytest.mark.django_db(transaction=True, databases=["default", ADMIN_DATABASE])
def test_a_service_runs_in_a_transaction_of_the_connection_writing_the_page(settings):
    settings.DATABASE_ROUTERS = ["apps.common.database.roles.AdminRouter"]
    seen = []

    @services.in_one_transaction
    def probe():
        seen.append((connections[ADMIN_DATABASE].in_atomic_block, connections["default"].in_atomic_block))

    probe()

    assert seen == [(True, False)]
