"""The routes served from the process's snapshot, with the database really unreachable: the
service's connection is pointed at a socket no server listens on, or at one that never answers."""

import socket
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test.utils import CaptureQueriesContext

from apps.common.clock import frozen_at
from apps.status import conf, services, snapshots
from apps.status.models import Component, ComponentStatus, LiveCheck, Page
from apps.status.tests.conftest import STATUS_ROUTES
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db


MAX_AGE = timedelta(seconds=5)


def render(moment) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@pytest.fixture
def max_age(settings):
    settings.STATUS_SNAPSHOT_MAX_AGE = MAX_AGE.total_seconds()


@pytest.fixture
def database_down(tmp_path):
    """Within it, the default connection leads to an empty socket directory, as when the
    server is gone, so every query fails to connect; or, `silent`, to a socket that accepts
    connections and never answers, as a hung server, so connecting times out (libpq's
    shortest timeout, 2 s)."""

    @contextmanager
    def down(*, silent: bool = False):
        reachable = connections[DEFAULT_DB_ALIAS]
        directory = str(tmp_path)
        options = {**reachable.settings_dict.get("OPTIONS", {}), "host": directory}
        with socket.socket(socket.AF_UNIX) as server:
            if silent:
                server.bind(f"{directory}/.s.PGSQL.5432")
                server.listen()
                options["connect_timeout"] = 2
            unreachable = reachable.__class__(
                {**reachable.settings_dict, "HOST": directory, "PORT": "", "OPTIONS": options},
                DEFAULT_DB_ALIAS,
            )
            connections[DEFAULT_DB_ALIAS] = unreachable
            try:
                yield
            finally:
                unreachable.close()
                connections[DEFAULT_DB_ALIAS] = reachable

    return down


@pytest.fixture
def live_page(page, now, make_component, make_block):
    """A fresh mirror; components for both live checks and one set by hand; an incident."""
    make_block(now - timedelta(seconds=2))
    network = make_component("Mainnet", is_group=True)
    uptime = make_component("Hedera Mainnet | Network Uptime", group=network)
    make_component(
        "Mirror Node REST API Public Mainnet",
        group=network,
        position=2,
        live_check=LiveCheck.MIRROR_FRESHNESS,
    )
    make_component("Database", position=2, live_check=LiveCheck.DATABASE)
    services.incident_open(
        name="Slow consensus",
        status="investigating",
        body="Looking.",
        component_statuses={uptime: ComponentStatus.DEGRADED_PERFORMANCE},
    )


def at(moment):
    return frozen_at(nanos_from_datetime(moment))


def shown_statuses(body) -> dict:
    return {component["name"]: component["status"] for component in body["components"]}


def test_the_routes_answer_from_the_last_snapshot_while_the_database_is_down(
    client, now, max_age, live_page, database_down
):
    before = client.get("/api/v2/summary.json").json()
    assert shown_statuses(before) == {
        "Mainnet": "degraded_performance",
        "Hedera Mainnet | Network Uptime": "degraded_performance",
        "Database": "operational",
        "Mirror Node REST API Public Mainnet": "operational",
    }
    assert before["status"] == {"indicator": "minor", "description": "Partially Degraded Service"}
    outage = now + MAX_AGE

    with database_down(), at(outage):
        during = {route: client.get(route) for route in STATUS_ROUTES}

    assert {route: response.status_code for route, response in during.items()} == dict.fromkeys(STATUS_ROUTES, 200)
    summary = during["/api/v2/summary.json"].json()
    assert shown_statuses(summary) == {
        "Mainnet": "major_outage",
        "Hedera Mainnet | Network Uptime": "degraded_performance",
        "Database": "major_outage",
        "Mirror Node REST API Public Mainnet": "major_outage",
    }
    assert summary["status"] == {"indicator": "major", "description": "Partial System Outage"}
    assert summary["page"] == {**before["page"], "updated_at": render(outage)}
    database = next(component for component in summary["components"] if component["name"] == "Database")
    assert database["updated_at"] == render(outage)
    assert [incident["name"] for incident in summary["incidents"]] == ["Slow consensus"]
    assert summary["incidents"][0]["components"][0]["status"] == "degraded_performance"
    assert during["/api/v2/status.json"].json()["status"] == summary["status"]
    assert during["/api/v2/status.json"]["Cache-Control"] == "public, max-age=10"


def test_the_database_is_tried_again_once_the_outage_snapshot_is_as_old_as_the_max_age(
    client, now, max_age, live_page, database_down
):
    client.get("/api/v2/summary.json")
    outage = now + MAX_AGE
    with database_down(), at(outage):
        client.get("/api/v2/summary.json")

    with at(outage + MAX_AGE - timedelta(milliseconds=1)):
        still_held = client.get("/api/v2/status.json").json()["status"]
    with at(outage + MAX_AGE):
        read_again = client.get("/api/v2/status.json").json()["status"]

    assert still_held == {"indicator": "major", "description": "Partial System Outage"}
    assert read_again == {"indicator": "minor", "description": "Partially Degraded Service"}


def test_a_database_that_stops_answering_is_an_outage_too(client, now, max_age, live_page, database_down):
    client.get("/api/v2/summary.json")

    with database_down(silent=True), at(now + MAX_AGE):
        response = client.get("/api/v2/status.json")

    assert (response.status_code, response.json()["status"]) == (
        200,
        {"indicator": "major", "description": "Partial System Outage"},
    )


def test_before_any_read_the_default_page_answers_with_its_live_components_down(client, now, database_down):
    page = Page.objects.get()
    ids = dict(Component.objects.values_list("name", "id"))

    with database_down():
        response = client.get("/api/v2/summary.json")

    assert response.status_code == 200
    body = response.json()
    assert body["page"] == {
        "id": page.id,
        "name": conf.page_name(),
        "url": conf.page_url(),
        "time_zone": "Etc/UTC",
        "updated_at": render(now),
    }
    assert [
        (component["id"], component["name"], component["status"], component["updated_at"])
        for component in body["components"]
    ] == [
        (ids["Mirror node freshness"], "Mirror node freshness", "major_outage", render(now)),
        (ids["Database"], "Database", "major_outage", render(now)),
    ]
    assert (body["incidents"], body["scheduled_maintenances"]) == ([], [])
    assert body["status"] == {"indicator": "critical", "description": "Major System Outage"}


def test_a_page_absent_when_last_read_stays_absent_while_the_database_is_down(
    client, now, max_age, no_page, database_down
):
    assert client.get("/api/v2/summary.json").status_code == 404

    with database_down(), at(now + MAX_AGE):
        response = client.get("/api/v2/summary.json")

    assert response.status_code == 404


def statements(queries) -> list[str]:
    """The statements run, less the savepoints of the test's transaction."""
    return [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]


def mirror_reads(queries) -> list[str]:
    return [sql for sql in statements(queries) if '"record_file"' in sql]


def test_the_live_checks_reading_younger_than_the_max_age_is_served_without_a_query(
    client, now, max_age, live_page, make_block
):
    first = client.get("/api/v2/components.json").json()
    newer_block_at = now + timedelta(seconds=1)
    make_block(newer_block_at)

    with at(now + MAX_AGE - timedelta(milliseconds=1)), CaptureQueriesContext(connection) as held:
        still_held = client.get("/api/v2/components.json").json()
    with at(now + MAX_AGE), CaptureQueriesContext(connection) as read_again:
        reading_again = client.get("/api/v2/components.json").json()

    assert (still_held, len(held)) == (first, 0)
    assert len(statements(read_again)) == len(mirror_reads(read_again)) == 1, "the newest block, nothing else"
    rest_api = next(
        component
        for component in reading_again["components"]
        if component["name"] == "Mirror Node REST API Public Mainnet"
    )
    assert rest_api["updated_at"] == render(newer_block_at)


def test_an_edit_shows_at_once_within_the_max_age(client, now, max_age, live_page):
    client.get("/api/v2/summary.json")
    Component.objects.filter(name="Database").update(name="Mirror database")

    with at(now + timedelta(milliseconds=1)):
        components = client.get("/api/v2/components.json").json()

    assert "Mirror database" in shown_statuses(components)


def test_a_clock_set_back_reads_the_mirror_again(client, now, max_age, live_page):
    client.get("/api/v2/summary.json")

    with at(now - timedelta(seconds=1)), CaptureQueriesContext(connection) as queries:
        client.get("/api/v2/components.json")

    assert len(mirror_reads(queries)) == 1


def test_while_one_request_reads_the_mirror_the_others_serve_the_snapshot_held(
    client, now, max_age, live_page
):
    before = client.get("/api/v2/components.json").json()

    with snapshots._reading, at(now + MAX_AGE), CaptureQueriesContext(connection) as queries:
        components = client.get("/api/v2/components.json").json()

    assert (components, len(queries)) == (before, 0)
