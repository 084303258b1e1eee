import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.common.clock import frozen_at
from apps.status import selectors, services
from apps.status.live_checks import read_mirror, unreachable_reading
from apps.status.models import Component, ComponentStatus, LiveCheck
from apps.status.rollup import PageStatus
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db


def later(now, minutes):
    return frozen_at(nanos_from_datetime(now + timedelta(minutes=minutes)))


def open_incident(name, status="investigating", **kwargs):
    return services.incident_open(name=name, status=status, body="Investigating.", **kwargs)


def schedule(name, start, status="scheduled"):
    maintenance = services.maintenance_schedule(
        name=name, body="Planned.", scheduled_for=start, scheduled_until=start + timedelta(hours=1)
    )
    path = ["scheduled", "in_progress", "verifying", "completed"]
    for step in path[1 : path.index(status) + 1]:
        services.maintenance_post_update(maintenance=maintenance, status=step, body=step)
    return maintenance


def snapshot(**kwargs):
    content = selectors.page_content(**kwargs)
    return selectors.page_snapshot(content=content, reading=read_mirror())


def test_components_order_by_position_then_top_level_first_then_id(page, make_component):
    testnet = make_component("Testnet", id="bbbbbbbbbbbb", is_group=True, position=2)
    mainnet = make_component("Mainnet", id="aaaaaaaaaaaa", is_group=True, position=1)
    make_component("Status API", id="zzzzzzzzzzzz", position=1)
    make_component("Testnet REST", id="yyyyyyyyyyy2", group=testnet, position=2)
    make_component("Testnet uptime", id="yyyyyyyyyyy1", group=testnet, position=1)
    make_component("Mainnet uptime", id="xxxxxxxxxxx1", group=mainnet, position=1)

    assert [component.name for component in selectors.page_content().components] == [
        "Mainnet",
        "Status API",
        "Mainnet uptime",
        "Testnet uptime",
        "Testnet",
        "Testnet REST",
    ]


def test_a_group_shows_its_worst_component(now, page, make_component):
    mainnet = make_component("Mainnet", is_group=True)
    testnet = make_component("Testnet", is_group=True, position=2)
    make_component("Previewnet", is_group=True, position=3)
    uptime = make_component("Mainnet uptime", group=mainnet, status=ComponentStatus.UNDER_MAINTENANCE)
    with later(now, 5):
        rest = make_component(
            "Mainnet REST", group=mainnet, position=2, status=ComponentStatus.DEGRADED_PERFORMANCE
        )
    make_component("Testnet uptime", group=testnet, status=ComponentStatus.UNDER_MAINTENANCE)

    shown = {
        component.name: (
            component.shown_status,
            component.shown_updated_at,
            getattr(component, "child_ids", None),
        )
        for component in snapshot().components
    }

    assert shown["Mainnet"] == ("degraded_performance", now + timedelta(minutes=5), [uptime.id, rest.id])
    assert shown["Testnet"][0] == "under_maintenance"
    assert shown["Previewnet"] == ("operational", now, [])


def test_live_components_show_their_check(now, page, make_component, make_block):
    make_block(now - timedelta(seconds=75))
    make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)
    make_component("Mirror Node Database", live_check=LiveCheck.DATABASE)

    shown = {component.name: component.shown_status for component in snapshot().components}

    assert shown == {
        "Mirror Node REST API Public Mainnet": "degraded_performance",
        "Mirror Node Database": "operational",
    }


def test_no_content_without_a_page(no_page):
    assert selectors.page_content() is None


def test_the_page_was_updated_when_any_of_it_was(now, page, make_component):
    with later(now, 1):
        make_component("Mainnet uptime")
    assert snapshot().updated_at == now + timedelta(minutes=1)

    with later(now, 2):
        open_incident("Stalled")
    assert snapshot().updated_at == now + timedelta(minutes=2)

    with later(now, 3):
        schedule("Upgrade", now + timedelta(days=1))
    assert snapshot().updated_at == now + timedelta(minutes=3)


def test_recent_incidents_are_newest_first_and_limited(now, page):
    for minutes in range(4):
        with later(now, minutes):
            open_incident(f"Incident {minutes}")

    assert [incident.name for incident in selectors.page_content(recent_limit=3).recent_incidents] == [
        "Incident 3",
        "Incident 2",
        "Incident 1",
    ]


def test_unresolved_incidents(now, page):
    for minutes, status in enumerate(["investigating", "identified", "monitoring"]):
        with later(now, minutes):
            open_incident(status, status=status)
    resolved = open_incident("resolved")
    services.incident_post_update(incident=resolved, status="resolved", body="Fixed.")
    postmortem = open_incident("postmortem")
    services.incident_post_update(incident=postmortem, status="resolved", body="Fixed.")
    services.incident_post_update(incident=postmortem, status="postmortem", body="Why.")

    assert [incident.name for incident in selectors.page_content().unresolved_incidents] == [
        "monitoring",
        "identified",
        "investigating",
    ]


def test_unresolved_incidents_older_than_the_recent_ones_are_read_too(now, page):
    open_incident("Old and open")
    for minutes in range(1, 4):
        with later(now, minutes):
            services.incident_post_update(
                incident=open_incident(f"Closed {minutes}"), status="resolved", body="Done."
            )

    content = selectors.page_content(recent_limit=2)

    assert [incident.name for incident in content.recent_incidents] == ["Closed 3", "Closed 2"]
    assert [incident.name for incident in content.unresolved_incidents] == ["Old and open"]


def test_maintenance_lists(now, page):
    for days, status in [
        (3, "scheduled"),
        (1, "scheduled"),
        (-1, "in_progress"),
        (-2, "verifying"),
        (-9, "completed"),
    ]:
        schedule(f"{status} {days}", now + timedelta(days=days), status)

    def names(maintenances):
        return [maintenance.name for maintenance in maintenances]

    shown = snapshot(recent_limit=2)

    assert names(shown.content.recent_maintenances) == ["scheduled 3", "scheduled 1"]
    assert names(shown.upcoming_maintenances) == ["scheduled 1", "scheduled 3"]
    assert names(shown.active_maintenances) == ["verifying -2", "in_progress -1"]
    assert names(shown.content.open_maintenances) == [
        "verifying -2",
        "in_progress -1",
        "scheduled 1",
        "scheduled 3",
    ]


def test_page_status_counts_leaf_components_and_unresolved_incidents(now, page, make_component):
    group = make_component("Mainnet", is_group=True)
    uptime = make_component("Mainnet uptime", group=group)
    make_component("Mainnet REST", group=group, position=2)

    assert snapshot().status == PageStatus("none", "All Systems Operational")

    open_incident("Stalled", component_statuses={uptime: ComponentStatus.MAJOR_OUTAGE})
    assert snapshot().status == PageStatus("critical", "Major System Outage")
    assert Component.objects.get(name="Mainnet").status == "operational", "a group's own row is never set"


def test_the_content_reads_the_status_tables_only(now, page, make_component, make_block):
    """cachalot caches a query only when every table it reads is the status page's."""
    make_block(now)
    make_component("Database", live_check=LiveCheck.DATABASE)

    with CaptureQueriesContext(connection) as queries:
        content = selectors.page_content()

    read = {table for query in queries for table in re.findall(r'(?:FROM|JOIN) "(\w+)"', query["sql"])}
    assert content.has_live_components
    assert read == {"status_page", "status_incident", "status_maintenance", "status_component"}


def test_an_unreachable_reading_takes_the_live_components_down(now, page, make_component, make_block):
    make_block(now)
    mainnet = make_component("Mainnet", is_group=True)
    make_component("Mainnet uptime", group=mainnet, status=ComponentStatus.DEGRADED_PERFORMANCE)
    make_component("Mainnet REST", group=mainnet, position=2, live_check=LiveCheck.MIRROR_FRESHNESS)
    make_component("Database", position=2, live_check=LiveCheck.DATABASE)
    make_component(
        "Archive", position=3, live_check=LiveCheck.DATABASE, status=ComponentStatus.UNDER_MAINTENANCE
    )
    content = selectors.page_content()
    outage_at = now + timedelta(seconds=20)

    down = selectors.page_snapshot(content=content, reading=unreachable_reading(outage_at))
    up = selectors.page_snapshot(content=content, reading=read_mirror())

    shown = {
        component.name: (component.shown_status, component.shown_updated_at) for component in down.components
    }
    assert shown == {
        "Mainnet": ("major_outage", outage_at),
        "Mainnet uptime": ("degraded_performance", now),
        "Database": ("major_outage", outage_at),
        "Mainnet REST": ("major_outage", outage_at),
        "Archive": ("under_maintenance", now),
    }
    assert (down.status, down.updated_at) == (PageStatus("major", "Partial System Outage"), outage_at)
    assert [(component.name, component.shown_status) for component in up.components if component.is_live] == [
        ("Database", "operational"),
        ("Mainnet REST", "operational"),
        ("Archive", "under_maintenance"),
    ], "each snapshot shows its own copies of the components"


def test_the_content_takes_eight_queries_whatever_it_holds(
    now, page, make_component, django_assert_num_queries
):
    component = make_component("Mainnet uptime")
    for n in range(3):
        incident = open_incident(
            f"Incident {n}", component_statuses={component: ComponentStatus.PARTIAL_OUTAGE}
        )
        services.incident_post_update(incident=incident, status="identified", body="Found.")
        schedule(f"Upgrade {n}", now + timedelta(days=n), "in_progress")

    with django_assert_num_queries(8):
        selectors.page_content()
