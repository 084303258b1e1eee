"""The page `migrate` creates when there is none. The test database was built by `migrate`,
so it holds that page from the start."""

import pytest
from django.core.management import call_command

from apps.status.models import Component, Page

pytestmark = pytest.mark.django_db

DEFAULT_COMPONENTS = [
    ("Mirror node freshness", "mirror_freshness", 1, None, False),
    ("Database", "database", 2, None, False),
]


def components() -> list[tuple]:
    return list(
        Component.objects.order_by("position").values_list(
            "name", "live_check", "position", "group", "is_group"
        )
    )


def migrate():
    call_command("migrate", verbosity=0)


def test_migrate_creates_a_page_with_the_live_components(settings):
    page = Page.objects.get()

    assert (page.name, page.url, page.time_zone) == (
        settings.STATUS_PAGE_NAME,
        settings.STATUS_PAGE_URL,
        "Etc/UTC",
    )
    assert components() == DEFAULT_COMPONENTS


def test_the_routes_answer_with_no_authoring(client, settings, now, make_block):
    make_block(now)

    body = client.get("/api/v2/summary.json").json()

    assert body["page"]["name"] == settings.STATUS_PAGE_NAME
    assert [(component["name"], component["status"]) for component in body["components"]] == [
        ("Mirror node freshness", "operational"),
        ("Database", "operational"),
    ]
    assert body["status"] == {"indicator": "none", "description": "All Systems Operational"}


def test_the_name_and_url_are_settings(settings, no_page):
    settings.STATUS_PAGE_NAME = "Testnet mirror"
    settings.STATUS_PAGE_URL = "https://status.example.com"

    migrate()

    assert Page.objects.values_list("name", "url").get() == ("Testnet mirror", "https://status.example.com")
    assert components() == DEFAULT_COMPONENTS


def test_the_ids_follow_from_the_page_url(settings, no_page):
    migrate()
    first = [Page.objects.get().id, *Component.objects.order_by("position").values_list("id", flat=True)]
    Component.objects.all().delete()
    Page.objects.all().delete()
    settings.STATUS_PAGE_URL = "https://status.example.com"
    migrate()
    second = [Page.objects.get().id, *Component.objects.order_by("position").values_list("id", flat=True)]

    assert len(set(first) | set(second)) == 6
    assert all(len(each) == 12 and each.isalnum() and each.islower() for each in first + second)


def test_migrate_leaves_an_edited_page_alone(settings):
    Page.objects.update(name="Hedera")
    Component.objects.filter(name="Database").delete()
    settings.STATUS_PAGE_NAME = "Another name"

    migrate()

    assert Page.objects.values_list("name", flat=True).get() == "Hedera"
    assert components() == DEFAULT_COMPONENTS[:1]


def test_migrate_leaves_an_authored_page_alone(page, make_component):
    make_component("Mainnet uptime")

    migrate()

    assert Page.objects.get() == page
    assert list(Component.objects.values_list("name", flat=True)) == ["Mainnet uptime"]


def test_the_admin_edits_the_default_page(admin_client, now):
    page = Page.objects.get()

    response = admin_client.post(
        f"/admin/status/page/{page.id}/change/",
        {"name": "Hedera", "url": "https://status.hedera.com", "time_zone": "Etc/UTC"},
    )

    assert response.status_code == 302
    assert admin_client.get("/api/v2/status.json").json()["page"]["name"] == "Hedera"


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_gets_the_page_back():
    Component.objects.all().delete()

    call_command("flush", interactive=False, verbosity=0)

    assert components() == DEFAULT_COMPONENTS
