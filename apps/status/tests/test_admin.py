import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from apps.common.clock import frozen_at
from apps.status import services
from apps.status.admin import LIVE_CHECK_MARK
from apps.status.models import (
    Component,
    ComponentStatus,
    Incident,
    LiveCheck,
    Maintenance,
)
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db

ADMIN_PAGES = [
    "/admin/status/",
    "/admin/status/page/",
    "/admin/status/component/",
    "/admin/status/component/add/",
    "/admin/status/incident/",
    "/admin/status/incident/add/",
    "/admin/status/maintenance/",
    "/admin/status/maintenance/add/",
]


def no_inline_rows(prefix: str = "updates") -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": "0",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def incident_form(**fields) -> dict:
    return {
        "name": "Elevated REST API latency",
        "impact": "",
        "started_at_0": "2025-03-04",
        "started_at_1": "15:05:01",
        "update_status": "",
        "update_body": "",
        "component_status": "",
        **no_inline_rows(),
        **fields,
    }


def maintenance_form(now, **fields) -> dict:
    start = now + timedelta(days=8)
    return {
        "name": "Mainnet upgrade to v0.59",
        "impact": "maintenance",
        "scheduled_for_0": f"{start:%Y-%m-%d}",
        "scheduled_for_1": "17:00:00",
        "scheduled_until_0": f"{start:%Y-%m-%d}",
        "scheduled_until_1": "17:40:00",
        "update_status": "scheduled",
        "update_body": "About 40 minutes of disruption.",
        "component_status": "",
        **no_inline_rows(),
        **fields,
    }


def status_of(client) -> dict:
    return client.get("/api/v2/status.json").json()["status"]


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_the_admin_requires_a_login(client, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_the_admin_opens_for_staff(admin_client, page, url):
    assert admin_client.get(url).status_code == 200


def test_the_json_routes_need_no_login(client, page):
    assert client.get("/api/v2/summary.json").status_code == 200


def test_opening_an_incident_posts_its_first_update(admin_client, now, make_component):
    rest_api = make_component("Mirror Node REST API Public Mainnet")

    response = admin_client.post(
        "/admin/status/incident/add/",
        incident_form(
            update_status="investigating",
            update_body="We are investigating elevated response times.",
            affected_components=[rest_api.id],
            component_status="degraded_performance",
        ),
    )

    assert response.status_code == 302
    incident = Incident.objects.get()
    assert response["Location"] == "/admin/status/incident/"
    assert (incident.status, incident.shown_impact, incident.started_at.isoformat()) == (
        "investigating",
        "minor",
        "2025-03-04T15:05:01+00:00",
    )
    assert incident.updates.get().body == "We are investigating elevated response times."
    assert Component.objects.get().status == "degraded_performance"


def test_an_incident_opens_with_an_update(admin_client, now):
    response = admin_client.post("/admin/status/incident/add/", incident_form())

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Incident.objects.exists()


def test_posting_an_update_from_the_change_form(admin_client, now):
    incident = services.incident_open(name="Stalled", status="investigating", body="Looking.")

    response = admin_client.post(
        f"/admin/status/incident/{incident.id}/change/",
        incident_form(name="Stalled", update_status="identified", update_body="Found it."),
    )

    assert response.status_code == 302
    assert list(incident.updates.order_by("created_at").values_list("status", flat=True)) == [
        "investigating",
        "identified",
    ]


def test_editing_without_an_update_posts_none(admin_client, now):
    incident = services.incident_open(name="Stalled", status="investigating", body="Looking.")

    admin_client.post(
        f"/admin/status/incident/{incident.id}/change/", incident_form(name="Consensus stalled")
    )

    incident.refresh_from_db()
    assert (incident.name, incident.updates.count()) == ("Consensus stalled", 1)


def test_a_refused_transition_shows_on_the_form(admin_client, now):
    incident = services.incident_open(name="Stalled", status="investigating", body="Looking.")
    services.incident_post_update(incident=incident, status="resolved", body="Fixed.")

    response = admin_client.post(
        f"/admin/status/incident/{incident.id}/change/",
        incident_form(name="Stalled", update_status="investigating", update_body="It is back."),
    )

    assert response.status_code == 200
    assert (
        "Incidents cannot go from Resolved to Investigating (allowed: Postmortem)."
        in response.content.decode()
    )
    assert Incident.objects.get().status == "resolved"


def test_the_form_says_which_statuses_may_follow(admin_client, now):
    incident = services.incident_open(name="Stalled", status="monitoring", body="Watching.")

    response = admin_client.get(f"/admin/status/incident/{incident.id}/change/")

    assert "Allowed next: Monitoring, Resolved." in response.content.decode()


def test_the_update_form_marks_the_live_components_and_says_why(admin_client, page, make_component):
    make_component("Aurora | Network Uptime")
    make_component("Mirror node REST API", position=2, live_check=LiveCheck.MIRROR_FRESHNESS)

    form = admin_client.get("/admin/status/incident/add/").content.decode()

    assert "Aurora | Network Uptime</label>" in form
    assert f"Mirror node REST API {LIVE_CHECK_MARK}</label>" in form
    assert (
        f"Components marked {LIVE_CHECK_MARK} follow a check of this service, which sets their status" in form
    )


def test_an_incident_lists_a_live_component_and_leaves_its_status_to_the_check(
    admin_client, now, make_component, make_block
):
    make_block(now)
    uptime = make_component("Aurora | Network Uptime")
    rest_api = make_component("Mirror node REST API", position=2, live_check=LiveCheck.MIRROR_FRESHNESS)

    response = admin_client.post(
        "/admin/status/incident/add/",
        incident_form(
            update_status="investigating",
            update_body="Transactions are slow to show.",
            affected_components=[uptime.id, rest_api.id],
            component_status="major_outage",
        ),
        follow=True,
    )

    assert response.status_code == 200
    assert (
        "Listed as affected but left to their live check, which sets their status, rather than set"
        " to Major outage: Mirror node REST API." in response.content.decode()
    )
    affected = Incident.objects.get().updates.get().affected_components
    assert sorted(affected.values_list("component__name", "old_status", "new_status")) == [
        ("Aurora | Network Uptime", "operational", "major_outage"),
        ("Mirror node REST API", "operational", "operational"),
    ]
    assert Component.objects.get(id=rest_api.id).status == "operational"


def test_a_live_component_set_by_hand_says_why_it_is_refused(admin_client, page, make_component):
    rest_api = make_component("Mirror node REST API", live_check=LiveCheck.MIRROR_FRESHNESS)

    response = admin_client.post(
        f"/admin/status/component/{rest_api.id}/change/",
        {"name": rest_api.name, "position": "1", "status": "major_outage", "live_check": "mirror_freshness"},
    )

    assert response.status_code == 200
    assert (
        "Mirror node REST API follows a live check (mirror freshness (age of the newest block)), which"
        " sets its status automatically: by hand it can only be put under maintenance, pausing the"
        " check, or back to operational." in response.content.decode()
    )


def test_the_update_form_ticks_the_incident_s_components(admin_client, now, make_component):
    uptime = make_component("Aurora | Network Uptime")
    node = make_component("Node 0.0.4 - Singapore", position=2)
    make_component("Node 0.0.5 - Virginia", position=3)
    incident = services.incident_open(
        name="Slow consensus",
        status="investigating",
        body="Looking.",
        component_statuses={
            uptime: ComponentStatus.DEGRADED_PERFORMANCE,
            node: ComponentStatus.PARTIAL_OUTAGE,
        },
    )

    form = admin_client.get(f"/admin/status/incident/{incident.id}/change/").content.decode()

    ticked = re.findall(r'<input type="checkbox" name="affected_components" value="(\w+)"[^>]* checked', form)
    assert sorted(ticked) == sorted([uptime.id, node.id])


@pytest.mark.parametrize(
    "resolving",
    [
        pytest.param({"component_status": ""}, id="components ticked, status unchanged"),
        pytest.param({"component_status": "operational"}, id="components ticked, operational"),
        pytest.param({"component_status": "operational", "affected_components": []}, id="none ticked"),
    ],
)
def test_resolving_an_incident_returns_its_components_to_operational(
    admin_client, client, page, make_component, make_block, now, resolving
):
    make_block(now)
    uptime = make_component("Aurora | Network Uptime")
    make_component("Mirror node freshness", position=2, live_check=LiveCheck.MIRROR_FRESHNESS)
    incident = services.incident_open(
        name="Slow consensus",
        status="investigating",
        body="Looking.",
        component_statuses={uptime: ComponentStatus.DEGRADED_PERFORMANCE},
    )
    assert status_of(client) == {"indicator": "minor", "description": "Partially Degraded Service"}
    form = admin_client.get(f"/admin/status/incident/{incident.id}/change/").context["adminform"].form

    ticked = [component.id for component in form["affected_components"].initial]

    response = admin_client.post(
        f"/admin/status/incident/{incident.id}/change/",
        incident_form(
            **{
                "name": "Slow consensus",
                "update_status": "resolved",
                "update_body": "Fixed.",
                "affected_components": ticked,
                **resolving,
            }
        ),
    )

    assert response.status_code == 302
    assert Component.objects.get(id=uptime.id).status == "operational"
    assert status_of(client) == {"indicator": "none", "description": "All Systems Operational"}
    summary = client.get("/api/v2/summary.json").json()
    assert summary["incidents"] == []


def test_logging_in_opening_and_resolving_an_incident(client, page, make_component, make_block, now):
    make_block(now)
    uptime = make_component("Aurora | Network Uptime")
    get_user_model().objects.create_superuser("root", "root@example.com", "a long enough password")

    logged_in = client.post("/admin/login/", {"username": "root", "password": "a long enough password"})
    opened = client.post(
        "/admin/status/incident/add/",
        incident_form(
            update_status="investigating",
            update_body="Transactions are slow to reach consensus.",
            affected_components=[uptime.id],
            component_status="partial_outage",
        ),
    )
    incident = Incident.objects.get()
    degraded = status_of(client)
    with frozen_at(nanos_from_datetime(now + timedelta(minutes=30))):
        resolved = client.post(
            f"/admin/status/incident/{incident.id}/change/",
            incident_form(name=incident.name, update_status="resolved", update_body="Fixed."),
        )

    assert (logged_in.status_code, opened.status_code, resolved.status_code) == (302, 302, 302)
    assert degraded == {"indicator": "major", "description": "Partial System Outage"}
    assert status_of(client) == {"indicator": "none", "description": "All Systems Operational"}
    updates = client.get("/api/v2/incidents.json").json()["incidents"][0]["incident_updates"]
    assert [(update["status"], update["affected_components"]) for update in updates] == [
        (
            "resolved",
            [
                {
                    "code": uptime.id,
                    "name": uptime.name,
                    "old_status": "partial_outage",
                    "new_status": "operational",
                }
            ],
        ),
        (
            "investigating",
            [
                {
                    "code": uptime.id,
                    "name": uptime.name,
                    "old_status": "operational",
                    "new_status": "partial_outage",
                }
            ],
        ),
    ]


def test_scheduling_a_maintenance(admin_client, now):
    response = admin_client.post("/admin/status/maintenance/add/", maintenance_form(now))

    assert response.status_code == 302
    maintenance = Maintenance.objects.get()
    assert (maintenance.status, maintenance.updates.get().status) == ("scheduled", "scheduled")


def test_a_maintenance_cannot_open_in_progress(admin_client, now):
    response = admin_client.post(
        "/admin/status/maintenance/add/", maintenance_form(now, update_status="in_progress")
    )

    assert response.status_code == 200
    assert (
        "Scheduled maintenances cannot open as In progress (allowed: Scheduled)." in response.content.decode()
    )
    assert not Maintenance.objects.exists()


def test_the_component_list_shows_which_components_are_live(admin_client, now, make_component, make_block):
    make_block(now - timedelta(minutes=10))
    make_component("Hedera Mainnet | Network Uptime")
    make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)

    content = admin_client.get("/admin/status/component/").content.decode()

    assert content.count('alt="True"') == 1
    assert "Mirror freshness (age of the newest block)" in content
    assert '<td class="field-shown_status">Major outage</td>' in content
    assert '<td class="field-shown_status">Operational</td>' in content


def test_a_component_breaking_a_rule_shows_on_the_form(admin_client, no_page, now):
    response = admin_client.post(
        "/admin/status/component/add/",
        {
            "name": "Mainnet",
            "is_group": "on",
            "position": "1",
            "status": "operational",
            "live_check": "database",
        },
    )

    assert response.status_code == 200
    assert "bind one of them instead" in response.content.decode()
    assert not Component.objects.exists()


def test_a_second_page_cannot_be_added(admin_client, page):
    assert admin_client.get("/admin/status/page/add/").status_code == 403
