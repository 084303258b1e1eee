"""django-cachalot on the status page's tables: the status routes read none of them again
until an edit, which the next answer shows, in this process and in the server's others."""

import re
import time
from datetime import timedelta

import pytest
from cachalot.utils import UncachableQuery
from django.db import DEFAULT_DB_ALIAS, connection
from django.test.utils import CaptureQueriesContext

from apps.blocks.models import RecordFile
from apps.common.clock import frozen_at
from apps.common.database.roles import ADMIN_DATABASE
from apps.status import caching, services
from apps.status.models import Component, ComponentStatus, LiveCheck
from apps.status.tests.conftest import STATUS_ROUTES
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db


NEWEST_BLOCK = 'SELECT MAX("record_file"."consensus_end") AS "newest" FROM "record_file"'


def statements(queries) -> list[str]:
    """The statements run, less the savepoints of the test's transaction."""
    return [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]


def status_table_reads(queries) -> list[str]:
    return [sql for sql in statements(queries) if re.search(r'"status_\w+"', sql)]


@pytest.fixture
def authored_page(page, now, make_component, make_block):
    """A page with a component set by hand and a live one, an incident and a maintenance."""
    make_block(now)
    uptime = make_component("Aurora | Network Uptime")
    make_component("Mirror node freshness", position=2, live_check=LiveCheck.MIRROR_FRESHNESS)
    services.incident_open(
        name="Slow consensus",
        status="investigating",
        body="Looking.",
        component_statuses={uptime: ComponentStatus.DEGRADED_PERFORMANCE},
    )
    services.maintenance_schedule(
        name="Aurora upgrade to v0.69",
        body="About 40 minutes.",
        scheduled_for=now + timedelta(days=5),
        scheduled_until=now + timedelta(days=5, minutes=40),
    )


@pytest.mark.parametrize("route", STATUS_ROUTES)
def test_a_second_request_reads_only_the_newest_block(client, authored_page, route):
    """The live checks' reading is taken anew on every request here (max age 0): that one query
    on the mirror's tables; none on the status page's."""
    first = client.get(route).json()

    with CaptureQueriesContext(connection) as second_queries:
        second = client.get(route).json()

    assert statements(second_queries) == [NEWEST_BLOCK]
    assert second == first


@pytest.mark.parametrize("route", STATUS_ROUTES)
def test_within_the_max_age_a_second_request_makes_no_query(client, authored_page, settings, route):
    settings.STATUS_SNAPSHOT_MAX_AGE = 5
    client.get(route)

    with CaptureQueriesContext(connection) as second_queries:
        client.get(route)

    assert statements(second_queries) == []


def test_a_page_without_live_components_reads_nothing_again(client, page, make_component):
    make_component("Aurora | Network Uptime")
    first_queries = CaptureQueriesContext(connection)
    with first_queries:
        client.get("/api/v2/summary.json")

    with CaptureQueriesContext(connection) as second_queries:
        client.get("/api/v2/summary.json")

    assert status_table_reads(first_queries) and NEWEST_BLOCK not in statements(first_queries)
    assert statements(second_queries) == []


def test_an_admin_edit_shows_in_the_next_answer(admin_client, client, authored_page, settings):
    settings.STATUS_SNAPSHOT_MAX_AGE = 5
    uptime = Component.objects.get(name="Aurora | Network Uptime")
    client.get("/api/v2/summary.json")

    edited = admin_client.post(
        f"/admin/status/component/{uptime.id}/change/",
        {"name": "Aurora consensus", "position": "1", "status": "partial_outage", "live_check": ""},
    )
    with CaptureQueriesContext(connection) as read_again:
        summary = client.get("/api/v2/summary.json").json()
    with CaptureQueriesContext(connection) as held:
        client.get("/api/v2/summary.json")

    assert edited.status_code == 302
    assert {"name": "Aurora consensus", "status": "partial_outage"}.items() <= summary["components"][
        0
    ].items()
    assert summary["status"] == {"indicator": "minor", "description": "Minor Service Outage"}
    assert status_table_reads(read_again)
    assert statements(held) == []


def test_an_incident_opened_in_the_admin_shows_in_the_next_answer(
    admin_client, client, authored_page, settings, now
):
    settings.STATUS_SNAPSHOT_MAX_AGE = 5
    client.get("/api/v2/incidents/unresolved.json")

    with frozen_at(nanos_from_datetime(now + timedelta(seconds=1))):
        opened = admin_client.post(
            "/admin/status/incident/add/",
            {
                "name": "Blocks arrive late",
                "impact": "",
                "started_at_0": "2025-03-04",
                "started_at_1": "15:21:08",
                "update_status": "investigating",
                "update_body": "Looking.",
                "component_status": "",
                "updates-TOTAL_FORMS": "0",
                "updates-INITIAL_FORMS": "0",
            },
        )
    incidents = client.get("/api/v2/incidents/unresolved.json").json()["incidents"]

    assert opened.status_code == 302
    assert [incident["name"] for incident in incidents] == ["Blocks arrive late", "Slow consensus"]


def test_the_mirror_tables_are_never_served_from_the_cache(client, page, make_component, make_block, now):
    """The importer writes blocks outside Django: the live check must see them all the same."""
    make_block(now - timedelta(minutes=10))
    make_component("Mirror node freshness", live_check=LiveCheck.MIRROR_FRESHNESS)
    stale = client.get("/api/v2/components.json").json()["components"][0]["status"]

    make_block(now)
    with connection.cursor() as cursor:  # as the importer would, the ORM unaware
        cursor.execute("update record_file set consensus_end = consensus_end + 1")
    fresh = client.get("/api/v2/components.json").json()["components"][0]["status"]

    assert (stale, fresh) == ("major_outage", "operational")


def test_queries_outside_the_status_routes_reads_are_not_cached(page):
    for query in (RecordFile.objects.all().query, Component.objects.all().query):
        with pytest.raises(UncachableQuery):
            caching.query_cache_key(query.get_compiler(DEFAULT_DB_ALIAS))


def test_an_edit_during_a_read_leaves_a_stamp_that_calls_for_another_read(page, make_component):
    uptime = make_component("Aurora | Network Uptime")

    def read_while_edited():
        components = list(Component.objects.using(DEFAULT_DB_ALIAS).all())
        Component.objects.filter(id=uptime.id).update(name="Aurora consensus")
        return components

    components, stamp = caching.read_unedited(read_while_edited)

    assert [component.name for component in components] == ["Aurora | Network Uptime"]
    assert caching.edit_stamp() != stamp
    assert caching.read_unedited(lambda: list(Component.objects.using(DEFAULT_DB_ALIAS).all()))[0][
        0
    ].name == ("Aurora consensus")


@pytest.mark.django_db(transaction=True, databases=[DEFAULT_DB_ALIAS, ADMIN_DATABASE])
def test_an_edit_on_the_admin_s_connection_invalidates_the_api_s_reads(client, settings):
    """Under the server the admin writes as its own role, on its own connection."""
    settings.DATABASE_ROUTERS = ["apps.common.database.roles.AdminRouter"]
    settings.STATUS_SNAPSHOT_MAX_AGE = 5
    client.get("/api/v2/components.json")
    database = Component.objects.get(name="Database")

    database.description = "The mirror's PostgreSQL."
    database.save()
    components = client.get("/api/v2/components.json").json()["components"]

    assert database._state.db == ADMIN_DATABASE
    assert {component["name"]: component["description"] for component in components}["Database"] == (
        "The mirror's PostgreSQL."
    )


@pytest.mark.django_db(transaction=True)
def test_an_edit_in_one_process_shows_in_every_worker_of_the_server(
    start_production_server, status_cache_dir
):
    """Two workers, each holding its snapshot for 5 s: an edit made elsewhere (here, in the
    test's process) shows in the next answer of either, through the cache they share."""
    server = start_production_server(
        MIRROR_WORKERS="2", MIRROR_STATUS_SNAPSHOT_MAX_AGE="5", MIRROR_STATUS_CACHE_DIR=status_cache_dir
    )
    assert server.get_when_served("/api/v2/components.json").status == 200
    for _ in range(20):
        server.get("/api/v2/components.json")
    database = Component.objects.get(name="Database")

    database.description = "The mirror's PostgreSQL."
    database.save()
    answers = [server.get("/api/v2/components.json").json()["components"] for _ in range(20)]

    descriptions = {
        next(component["description"] for component in components if component["name"] == "Database")
        for components in answers
    }
    assert descriptions == {"The mirror's PostgreSQL."}


@pytest.mark.django_db(transaction=True)
def test_without_redis_another_host_s_edit_shows_once_its_stamps_expire(
    start_production_server, status_cache_dir, tmp_path
):
    """A host of its own (its own status cache) sees the edit once the live checks' age has
    passed, its stamps expiring then; never later."""
    server = start_production_server(
        MIRROR_STATUS_SNAPSHOT_MAX_AGE="1", MIRROR_STATUS_CACHE_DIR=str(tmp_path / "another-host")
    )
    assert server.get_when_served("/api/v2/components.json").status == 200
    database = Component.objects.get(name="Database")

    database.description = "The mirror's PostgreSQL."
    database.save()
    edited_at = time.monotonic()
    while True:
        components = server.get("/api/v2/components.json").json()["components"]
        if {component["name"]: component["description"] for component in components}["Database"] == (
            "The mirror's PostgreSQL."
        ):
            break
        assert time.monotonic() - edited_at < 5, "the other host never read the edit"
        time.sleep(0.1)
