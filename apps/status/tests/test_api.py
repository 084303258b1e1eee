import importlib
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml
from django.test import override_settings
from django.urls import clear_url_caches
from jsonschema import Draft202012Validator

from apps.common.clock import frozen_at
from apps.status import services
from apps.status.models import (
    Component,
    Incident,
    IncidentAffectedComponent,
    IncidentUpdate,
    LiveCheck,
    Maintenance,
    MaintenanceAffectedComponent,
    MaintenanceUpdate,
    Page,
)
from apps.status.timestamps import nanos_from_datetime

pytestmark = pytest.mark.django_db

REFERENCE = json.loads((Path(__file__).parent / "reference_summary.json").read_text())
ROUTES = {
    "/api/v2/summary.json": ["page", "components", "incidents", "scheduled_maintenances", "status"],
    "/api/v2/status.json": ["page", "status"],
    "/api/v2/components.json": ["page", "components"],
    "/api/v2/incidents.json": ["page", "incidents"],
    "/api/v2/incidents/unresolved.json": ["page", "incidents"],
    "/api/v2/scheduled-maintenances.json": ["page", "scheduled_maintenances"],
    "/api/v2/scheduled-maintenances/upcoming.json": ["page", "scheduled_maintenances"],
    "/api/v2/scheduled-maintenances/active.json": ["page", "scheduled_maintenances"],
}
NOT_FOUND = {"_status": {"messages": [{"message": "Not found"}]}}


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def ours(document):
    """The reference with the one intended difference: shortlinks lead to the page itself."""
    text = json.dumps(document, ensure_ascii=False)
    return json.loads(text.replace("https://stspg.io/", "https://status.hedera.com/incidents/"))


def compact(document) -> bytes:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.fixture
def reference_page(no_page, now):
    """The rows behind the reference `summary.json`, with its ids and times."""
    page = REFERENCE["page"]
    Page.objects.bulk_create(
        [
            Page(
                id=page["id"],
                name=page["name"],
                url=page["url"],
                time_zone=page["time_zone"],
                updated_at=at(page["updated_at"]),
            )
        ]
    )
    Component.objects.bulk_create(
        [
            Component(
                id=component["id"],
                name=component["name"],
                status=component["status"],
                created_at=at(component["created_at"]),
                updated_at=at(component["updated_at"]),
                position=component["position"],
                description=component["description"] or "",
                showcase=component["showcase"],
                start_date=component["start_date"],
                group_id=component["group_id"],
                is_group=component["group"],
                only_show_if_degraded=component["only_show_if_degraded"],
            )
            for component in REFERENCE["components"]
        ]
    )
    _create_events(Incident, IncidentUpdate, IncidentAffectedComponent, "incident", REFERENCE["incidents"])
    _create_events(
        Maintenance,
        MaintenanceUpdate,
        MaintenanceAffectedComponent,
        "maintenance",
        REFERENCE["scheduled_maintenances"],
    )


def _create_events(event_model, update_model, affected_model, event_field, events):
    for event in events:
        fields = {"scheduled_for", "scheduled_until"} & event.keys()
        event_model.objects.bulk_create(
            [
                event_model(
                    id=event["id"],
                    name=event["name"],
                    status=event["status"],
                    impact=event["impact"],
                    created_at=at(event["created_at"]),
                    updated_at=at(event["updated_at"]),
                    started_at=at(event["started_at"]),
                    monitoring_at=event["monitoring_at"] and at(event["monitoring_at"]),
                    resolved_at=event["resolved_at"] and at(event["resolved_at"]),
                    **{field: at(event[field]) for field in fields},
                )
            ]
        )
        for update in event["incident_updates"]:
            update_model.objects.bulk_create(
                [
                    update_model(
                        id=update["id"],
                        status=update["status"],
                        body=update["body"],
                        created_at=at(update["created_at"]),
                        updated_at=at(update["updated_at"]),
                        display_at=at(update["display_at"]),
                        deliver_notifications=update["deliver_notifications"],
                        **{f"{event_field}_id": event["id"]},
                    )
                ]
            )
            affected_model.objects.bulk_create(
                affected_model(
                    update_id=update["id"],
                    component_id=affected["code"],
                    old_status=affected["old_status"],
                    new_status=affected["new_status"],
                )
                for affected in update["affected_components"] or ()
            )


def test_summary_is_the_reference_byte_for_byte(client, reference_page):
    response = client.get("/api/v2/summary.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.content == compact(ours(REFERENCE))


@pytest.mark.parametrize(("route", "keys"), ROUTES.items())
def test_every_route_is_public_cacheable_and_keyed_as_statuspage(client, reference_page, route, keys):
    response = client.get(route)

    assert response.status_code == 200
    assert list(response.json()) == keys
    assert response.json()["page"] == REFERENCE["page"]
    assert response["Cache-Control"] == "public, max-age=10"


def test_every_answer_matches_its_schema_in_our_openapi_document(client, reference_page):
    document = yaml.safe_load(client.get("/api/v1/docs/openapi.yml").content)
    for route in ROUTES:
        response = client.get(route)
        body = document["paths"][route]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        # The document as the root, so the body schema's `$ref`s into its components resolve.
        validator = Draft202012Validator({**document, **body}, format_checker=Draft202012Validator.FORMAT_CHECKER)
        assert not [error.message for error in validator.iter_errors(response.json())], route


def test_status(client, reference_page):
    assert client.get("/api/v2/status.json").json()["status"] == {
        "indicator": "minor",
        "description": "Partially Degraded Service",
    }


def test_components(client, reference_page):
    assert client.get("/api/v2/components.json").json()["components"] == REFERENCE["components"]


def test_incidents_include_the_resolved(client, reference_page):
    Incident.objects.create(name="Yesterday's", status="resolved", created_at=at("2025-03-03T10:00:00Z"))

    incidents = client.get("/api/v2/incidents.json").json()["incidents"]

    assert [incident["name"] for incident in incidents] == [REFERENCE["incidents"][0]["name"], "Yesterday's"]
    assert incidents[0] == ours(REFERENCE)["incidents"][0]
    assert incidents[1]["incident_updates"] == []
    assert incidents[1]["components"] == []


def test_unresolved_incidents_leave_out_resolved_and_postmortem(client, reference_page):
    Incident.objects.create(name="Resolved", status="resolved")
    Incident.objects.create(name="Postmortem", status="postmortem")
    Incident.objects.create(name="Monitoring", status="monitoring")

    incidents = client.get("/api/v2/incidents/unresolved.json").json()["incidents"]

    assert [incident["name"] for incident in incidents] == ["Monitoring", REFERENCE["incidents"][0]["name"]]


def create_maintenance(name, status, start):
    return Maintenance.objects.create(
        name=name, status=status, scheduled_for=start, scheduled_until=start + timedelta(minutes=40)
    )


def test_maintenance_routes_filter_by_status(client, reference_page, now):
    create_maintenance("Done", "completed", now - timedelta(days=2))
    create_maintenance("Under way", "in_progress", now - timedelta(minutes=10))
    create_maintenance("Checking", "verifying", now - timedelta(minutes=50))
    upcoming_reference = REFERENCE["scheduled_maintenances"][0]["name"]

    def names(route):
        return [each["name"] for each in client.get(route).json()["scheduled_maintenances"]]

    assert names("/api/v2/scheduled-maintenances.json") == [
        upcoming_reference,
        "Under way",
        "Checking",
        "Done",
    ]
    assert names("/api/v2/scheduled-maintenances/upcoming.json") == [upcoming_reference]
    assert names("/api/v2/scheduled-maintenances/active.json") == ["Checking", "Under way"]
    assert names("/api/v2/summary.json") == ["Checking", "Under way", upcoming_reference]


def test_a_maintenance_renders_as_an_incident_with_its_window(client, reference_page):
    maintenance = client.get("/api/v2/scheduled-maintenances/upcoming.json").json()["scheduled_maintenances"][
        0
    ]

    assert maintenance == ours(REFERENCE)["scheduled_maintenances"][0]
    assert list(maintenance)[-3:] == ["components", "scheduled_for", "scheduled_until"]


def test_incidents_json_holds_the_50_most_recent(client, page, now):
    Incident.objects.bulk_create(
        Incident(name=f"Incident {minute}", status="resolved", created_at=now - timedelta(minutes=minute))
        for minute in range(51)
    )

    incidents = client.get("/api/v2/incidents.json").json()["incidents"]

    assert [incident["name"] for incident in incidents] == [f"Incident {minute}" for minute in range(50)]


def test_unresolved_incidents_are_not_limited(client, page, now):
    Incident.objects.bulk_create(Incident(name=f"Incident {n}", status="investigating") for n in range(51))

    assert len(client.get("/api/v2/incidents/unresolved.json").json()["incidents"]) == 51


def test_scheduled_maintenances_json_holds_the_50_most_recent(client, page, now):
    Maintenance.objects.bulk_create(
        Maintenance(
            name=f"Maintenance {day}",
            status="completed",
            scheduled_for=now - timedelta(days=day),
            scheduled_until=now - timedelta(days=day) + timedelta(hours=1),
        )
        for day in range(51)
    )

    maintenances = client.get("/api/v2/scheduled-maintenances.json").json()["scheduled_maintenances"]

    assert [maintenance["name"] for maintenance in maintenances] == [
        f"Maintenance {day}" for day in range(50)
    ]


def test_an_empty_page_answers_empty_lists(client, page):
    body = client.get("/api/v2/summary.json").json()

    assert body == {
        "page": {
            "id": "mhrzb3d64wsj",
            "name": "Hedera",
            "url": "https://status.hedera.com",
            "time_zone": "Etc/UTC",
            "updated_at": "2025-03-04T15:21:07.512Z",
        },
        "components": [],
        "incidents": [],
        "scheduled_maintenances": [],
        "status": {"indicator": "none", "description": "All Systems Operational"},
    }


def test_timestamps_carry_the_page_time_zone_offset(client, page):
    Page.objects.update(time_zone="America/Tijuana")

    assert client.get("/api/v2/status.json").json()["page"]["updated_at"] == "2025-03-04T07:21:07.512-08:00"


def test_a_live_component_goes_degraded_when_the_newest_block_is_old(
    client, page, now, make_component, make_block
):
    make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)
    make_block(now - timedelta(seconds=5))

    assert client.get("/api/v2/components.json").json()["components"][0]["status"] == "operational"
    assert client.get("/api/v2/status.json").json()["status"]["indicator"] == "none"

    make_block(now - timedelta(seconds=4))
    later = now + timedelta(seconds=90)
    with frozen_at(nanos_from_datetime(later)):
        component = client.get("/api/v2/components.json").json()["components"][0]
        status = client.get("/api/v2/status.json").json()["status"]

    assert (component["status"], component["updated_at"]) == (
        "degraded_performance",
        "2025-03-04T15:22:03.512Z",
    )
    assert status == {"indicator": "minor", "description": "Partially Degraded Service"}


def test_without_a_page_the_routes_answer_not_found(client, no_page):
    response = client.get("/api/v2/summary.json")

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


@pytest.mark.parametrize(
    "route",
    ["/api/v2/nothing.json", "/api/v2/summary.json/", "/api/v2/incidents/resolved.json", "/api/v2/summary"],
)
def test_unknown_paths_answer_the_not_found_envelope(client, reference_page, route):
    response = client.get(route)

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


def test_the_routes_are_read_only(client, reference_page):
    response = client.post("/api/v2/summary.json", data={}, content_type="application/json")

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


@pytest.fixture
def status_prefix():
    def reload_urlconf():
        import apps.status.api.urls
        import mirror.urls

        importlib.reload(apps.status.api.urls)
        importlib.reload(mirror.urls)
        clear_url_caches()

    with override_settings(STATUS_API_PREFIX="status/api/v2/"):
        reload_urlconf()
        yield
    reload_urlconf()


def test_the_prefix_is_a_setting(client, reference_page, status_prefix):
    assert client.get("/status/api/v2/status.json").status_code == 200
    assert client.get("/api/v2/status.json").status_code == 404


def test_summary_reads_the_page_in_a_few_queries_however_much_it_holds(
    client, reference_page, make_component, django_assert_max_num_queries
):
    component = make_component("Mirror Node REST API Public Testnet")
    for n in range(5):
        incident = services.incident_open(
            name=f"Incident {n}",
            status="investigating",
            body="Looking.",
            component_statuses={component: None},
        )
        services.incident_post_update(incident=incident, status="identified", body="Found.")

    # One query per table: page (with the latest event edits and the newest block), components,
    # then incidents and maintenances, each with their updates and affected components.
    with django_assert_max_num_queries(8):
        assert client.get("/api/v2/summary.json").status_code == 200
