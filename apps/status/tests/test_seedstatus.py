from io import StringIO

import pytest
from django.core.management import call_command

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

MODELS = (
    Page,
    Component,
    Incident,
    IncidentUpdate,
    IncidentAffectedComponent,
    Maintenance,
    MaintenanceUpdate,
)


def seed(*args) -> str:
    out = StringIO()
    call_command("seedstatus", *args, stdout=out)
    return out.getvalue()


def test_seeds_a_page_for_the_three_networks(now):
    seed()

    groups = Component.objects.filter(is_group=True).order_by("position")
    assert [(group.name, sorted(group.children.values_list("name", flat=True))) for group in groups] == [
        ("Mainnet", ["Hedera Mainnet (v0.64) | Network Uptime", "Mirror Node REST API Public Mainnet"]),
        ("Testnet", ["Hedera Testnet (v0.65) | Network Uptime", "Mirror Node REST API Public Testnet"]),
        (
            "Previewnet",
            ["Hedera Previewnet (v0.66) | Network Uptime", "Mirror Node REST API Public Previewnet"],
        ),
    ]
    assert list(Component.objects.exclude(live_check="").values_list("name", "live_check")) == [
        ("Mirror Node REST API Public Mainnet", "mirror_freshness")
    ]
    incident = Incident.objects.get()
    assert (incident.status, incident.shown_impact, incident.updates.count()) == ("resolved", "minor", 4)
    assert sorted(Maintenance.objects.values_list("name", "status")) == [
        ("Mainnet upgrade to v0.64", "completed"),
        ("Testnet upgrade to v0.66", "scheduled"),
    ]
    assert not Component.objects.exclude(status="operational").exists()


def test_the_seeded_page_serves(client, now):
    seed()

    body = client.get("/api/v2/summary.json").json()

    assert [maintenance["name"] for maintenance in body["scheduled_maintenances"]] == [
        "Testnet upgrade to v0.66"
    ]
    assert body["incidents"] == []
    # No blocks in the test database: the live mirror component is down.
    assert body["status"] == {"indicator": "major", "description": "Partial System Outage"}


def test_seeding_again_changes_nothing(now):
    seed()
    counts = [model.objects.count() for model in MODELS]

    assert seed().strip() == "already seeded"
    assert [model.objects.count() for model in MODELS] == counts


def test_the_served_network_is_an_option(now):
    seed("--network", "testnet")

    assert Component.objects.get(live_check="mirror_freshness").name == "Mirror Node REST API Public Testnet"
