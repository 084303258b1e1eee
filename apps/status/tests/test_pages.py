from datetime import timedelta

import pytest

from apps.status import services
from apps.status.models import ComponentStatus

pytestmark = pytest.mark.django_db


def test_an_incident_s_shortlink_leads_to_its_page(client, page, make_component, now):
    network = make_component("Aurora demo network", is_group=True)
    uptime = make_component("Aurora | Network Uptime", group=network)
    incident = services.incident_open(
        name="Slow consensus",
        status="investigating",
        body="Transactions take minutes.",
        component_statuses={uptime: ComponentStatus.DEGRADED_PERFORMANCE},
    )
    shortlink = client.get("/api/v2/incidents.json").json()["incidents"][0]["shortlink"]

    response = client.get(shortlink.removeprefix(page.url))

    assert shortlink == f"{page.url}/incidents/{incident.id}"
    assert (response.status_code, response["Content-Type"]) == (200, "text/html; charset=utf-8")
    html = response.content.decode()
    assert "<h1>Slow consensus</h1>" in html
    assert "<dt>Incident</dt><dd>Investigating</dd>" in html
    assert "<dt>Impact</dt><dd>Minor</dd>" in html
    assert '<strong>Investigating</strong> <span class="when">2025-03-04 15:21:07 UTC</span>' in html
    assert "Transactions take minutes." in html
    assert "Aurora demo network - Aurora | Network Uptime: Operational → Degraded performance" in html


def test_a_maintenance_s_page_shows_its_window(client, page, now):
    maintenance = services.maintenance_schedule(
        name="Aurora upgrade to v0.69",
        body="About 40 minutes.",
        scheduled_for=now + timedelta(days=5),
        scheduled_until=now + timedelta(days=5, minutes=40),
    )

    html = client.get(f"/incidents/{maintenance.id}").content.decode()

    assert "<dt>Scheduled maintenance</dt><dd>Scheduled</dd>" in html
    assert "<dt>Scheduled</dt><dd>2025-03-09 15:21:07 UTC to 2025-03-09 16:01:07 UTC</dd>" in html


def test_times_read_in_the_page_s_time_zone(client, page, now):
    page.time_zone = "Asia/Singapore"
    page.save()
    incident = services.incident_open(name="Slow consensus", status="investigating", body="Looking.")

    html = client.get(f"/incidents/{incident.id}").content.decode()

    assert "<dt>Started</dt><dd>2025-03-04 23:21:07 +08</dd>" in html


def test_an_unknown_event_is_not_found(client, page):
    assert client.get("/incidents/nosuchevent0").status_code == 404
