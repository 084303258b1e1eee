import json
from io import StringIO
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db.models import F

from apps.status.management.commands import seedstatus
from apps.status.models import (
    Component,
    Incident,
    IncidentAffectedComponent,
    IncidentUpdate,
    Maintenance,
    MaintenanceUpdate,
    Page,
)

pytestmark = pytest.mark.django_db

DEMO_LEDGER = Path(settings.BASE_DIR) / "fixtures" / "demo.json"

MODELS = (
    Page,
    Component,
    Incident,
    IncidentUpdate,
    IncidentAffectedComponent,
    Maintenance,
    MaintenanceUpdate,
)
DATED_MODELS = (Page, Component, Incident, IncidentUpdate, Maintenance, MaintenanceUpdate)


def seed(*args) -> str:
    out = StringIO()
    call_command("seedstatus", *args, stdout=out)
    return out.getvalue()


def test_seeds_the_demo_network(now, settings):
    seed()

    page = Page.objects.get()
    assert (page.name, page.url) == (settings.STATUS_PAGE_NAME, settings.STATUS_PAGE_URL), (
        "migrate's page, kept"
    )
    top_level = Component.objects.filter(group=None).order_by("position")
    assert list(top_level.values_list("name", "position", "is_group")) == [
        ("Mirror node freshness", 1, False),
        ("Database", 2, False),
        ("Aurora demo network", 3, True),
    ]
    assert list(
        Component.objects.filter(group__name="Aurora demo network")
        .order_by("position")
        .values_list("name", flat=True)
    ) == [
        "Aurora (v0.68) | Network Uptime",
        "Node 0.0.3 - Frankfurt",
        "Node 0.0.4 - Singapore",
        "Node 0.0.5 - Virginia",
    ]
    assert list(
        Component.objects.exclude(live_check="").order_by("name").values_list("name", "live_check")
    ) == [
        ("Database", "database"),
        ("Mirror node freshness", "mirror_freshness"),
    ]
    incident = Incident.objects.get()
    assert (incident.status, incident.shown_impact, incident.updates.count()) == ("resolved", "major", 4)
    assert sorted(Maintenance.objects.values_list("name", "status")) == [
        ("Aurora upgrade to v0.68", "completed"),
        ("Aurora upgrade to v0.69", "scheduled"),
    ]
    assert not Component.objects.exclude(status="operational").exists(), "resolving returned them"


def test_the_demo_network_is_the_demo_ledger_s():
    """The names come from `fixtures/demo.json`: its address book and its blocks' software."""
    ledger = json.loads(DEMO_LEDGER.read_text())
    nodes = [
        (
            f"Node 0.0.{entry['node_account_id']} - {entry['description'].rpartition(' - ')[2]}",
            entry["description"].rpartition(" - ")[0],
        )
        for entry in sorted(ledger["address_book_entry"], key=lambda entry: entry["node_id"])
    ]
    versions = {
        f"{block['software_version_major']}.{block['software_version_minor']}"
        for block in ledger["record_file"]
    }

    assert nodes == list(seedstatus.NODES)
    assert versions == {seedstatus.VERSION}
    assert {entry["description"].split()[0] for entry in ledger["address_book_entry"]} == {"Aurora"}


def test_the_seeded_page_serves(client, now):
    seed()

    body = client.get("/api/v2/summary.json").json()

    assert [maintenance["name"] for maintenance in body["scheduled_maintenances"]] == [
        "Aurora upgrade to v0.69"
    ]
    assert body["incidents"] == []
    # No blocks in the test database: the live mirror component is down.
    assert body["status"] == {"indicator": "major", "description": "Partial System Outage"}


def test_no_seeded_row_is_updated_before_it_was_created(client, now, make_block):
    make_block(now)
    seed()

    for model in DATED_MODELS:
        assert not model.objects.filter(updated_at__lt=F("created_at")).exists(), model.__name__
    served = [
        *client.get("/api/v2/components.json").json()["components"],
        *client.get("/api/v2/incidents.json").json()["incidents"],
        *client.get("/api/v2/scheduled-maintenances.json").json()["scheduled_maintenances"],
    ]
    for record in served:
        for update in record.get("incident_updates", ()):
            assert update["created_at"] <= update["updated_at"], update
        assert record["created_at"] <= record["updated_at"], record


def test_the_seeded_shortlinks_lead_to_served_pages(client, now):
    seed()

    events = [
        *client.get("/api/v2/incidents.json").json()["incidents"],
        *client.get("/api/v2/scheduled-maintenances.json").json()["scheduled_maintenances"],
    ]

    assert len(events) == 3
    for event in events:
        url = urlsplit(event["shortlink"])
        assert f"{url.scheme}://{url.netloc}" == Page.objects.get().url
        page = client.get(url.path)
        assert page.status_code == 200, event["shortlink"]
        assert event["name"] in page.content.decode()


def test_seeding_again_changes_nothing(now):
    seed()
    counts = [model.objects.count() for model in MODELS]

    assert seed().strip() == "already seeded"
    assert [model.objects.count() for model in MODELS] == counts


def test_without_a_page_it_seeds_one_named_by_the_settings(now, no_page, settings):
    seed()

    assert Page.objects.values_list("name", "url").get() == (
        settings.STATUS_PAGE_NAME,
        settings.STATUS_PAGE_URL,
    )
    assert list(Component.objects.filter(group=None).values_list("name", flat=True)) == [
        "Aurora demo network"
    ]
