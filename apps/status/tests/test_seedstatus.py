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


def test_seeds_a_page_for_the_three_networks(now, settings):
    seed()

    page = Page.objects.get()
    assert (page.name, page.url) == (settings.STATUS_PAGE_NAME, settings.STATUS_PAGE_URL), (
        "migrate's page, kept"
    )
    top_level = Component.objects.filter(group=None).order_by("position")
    assert list(top_level.values_list("name", "position")) == [
        ("Mirror node freshness", 1),
        ("Database", 2),
        ("Mainnet", 3),
        ("Testnet", 4),
        ("Previewnet", 5),
    ]
    groups = Component.objects.filter(is_group=True).order_by("position")
    assert [(group.name, sorted(group.children.values_list("name", flat=True))) for group in groups] == [
        ("Mainnet", ["Hedera Mainnet (v0.64) | Network Uptime", "Mirror Node REST API Public Mainnet"]),
        ("Testnet", ["Hedera Testnet (v0.65) | Network Uptime", "Mirror Node REST API Public Testnet"]),
        (
            "Previewnet",
            ["Hedera Previewnet (v0.66) | Network Uptime", "Mirror Node REST API Public Previewnet"],
        ),
    ]
    assert list(
        Component.objects.exclude(live_check="").order_by("name").values_list("name", "live_check")
    ) == [
        ("Database", "database"),
        ("Mirror Node REST API Public Mainnet", "mirror_freshness"),
        ("Mirror node freshness", "mirror_freshness"),
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


def test_without_a_page_it_seeds_the_demo_page(now, no_page):
    seed()

    assert Page.objects.values_list("name", "url").get() == ("Hedera", "https://status.hedera.com")
    assert list(Component.objects.filter(group=None).order_by("position").values_list("name", flat=True)) == [
        "Mainnet",
        "Testnet",
        "Previewnet",
    ]


def test_the_served_network_is_an_option(now):
    seed("--network", "testnet")

    assert Component.objects.get(live_check="mirror_freshness", group__isnull=False).name == (
        "Mirror Node REST API Public Testnet"
    )
