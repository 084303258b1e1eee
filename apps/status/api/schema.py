"""The component schemas of the status API (`/api/v2/*.json`, Statuspage's v2 shapes), for our
OpenAPI document (`apps.common.api.openapi`). The upstream has no such routes: the names are ours."""

from apps.common.api.openapi import (
    array,
    boolean,
    integer,
    nullable,
    obj,
    ref,
    register_responses,
    register_schemas,
    string,
)

TIME = string(format="date-time")
COMPONENT_STATUSES = ["operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"]
EVENT_FIELDS = (
    "id", "name", "status", "created_at", "updated_at", "monitoring_at", "resolved_at", "impact", "shortlink",
    "started_at", "page_id", "incident_updates", "components",
)


def event(*, statuses: list[str], **extra) -> dict:
    """An incident, or a maintenance with its window (`extra`)."""
    return obj(
        required=(*EVENT_FIELDS, *extra),
        id=string(),
        name=string(),
        status=string(enum=statuses),
        created_at=TIME,
        updated_at=TIME,
        monitoring_at=nullable(TIME),
        resolved_at=nullable(TIME),
        impact=string(),
        shortlink=string(),
        started_at=TIME,
        page_id=string(),
        incident_updates=array(ref("StatusIncidentUpdate")),
        components=array(ref("StatusComponent")),
        **extra,
    )


def body(**content) -> dict:
    return obj(required=("page", *content), page=ref("StatusPage"), **content)


register_schemas(
    StatusPage=obj(
        required=("id", "name", "url", "time_zone", "updated_at"),
        id=string(),
        name=string(),
        url=string(),
        time_zone=string(),
        updated_at=TIME,
    ),
    StatusComponent=obj(
        required=(
            "id", "name", "status", "created_at", "updated_at", "position", "description", "showcase", "start_date",
            "group_id", "page_id", "group", "only_show_if_degraded",
        ),
        id=string(),
        name=string(),
        status=string(enum=COMPONENT_STATUSES),
        created_at=TIME,
        updated_at=TIME,
        position=integer(minimum=1),
        description=nullable(string()),
        showcase=boolean(),
        start_date=nullable(string(format="date")),
        group_id=nullable(string()),
        page_id=string(),
        group=boolean(),
        only_show_if_degraded=boolean(),
        components=array(string()),  # a group's children
    ),
    StatusIncidentUpdate=obj(
        required=(
            "id", "status", "body", "incident_id", "created_at", "updated_at", "display_at", "affected_components",
            "deliver_notifications", "custom_tweet", "tweet_id",
        ),
        id=string(),
        status=string(),
        body=string(),
        incident_id=string(),
        created_at=TIME,
        updated_at=TIME,
        display_at=TIME,
        affected_components=nullable(
            array(
                obj(
                    required=("code", "name", "old_status", "new_status"),
                    code=string(),
                    name=string(),
                    old_status=string(),
                    new_status=string(),
                )
            )
        ),
        deliver_notifications=boolean(),
        custom_tweet=nullable(string()),
        tweet_id=nullable(string()),
    ),
    StatusIncident=event(statuses=["investigating", "identified", "monitoring", "resolved", "postmortem"]),
    StatusMaintenance=event(
        statuses=["scheduled", "in_progress", "verifying", "completed"], scheduled_for=TIME, scheduled_until=TIME
    ),
    StatusIndicator=obj(
        required=("indicator", "description"),
        indicator=string(enum=["none", "minor", "major", "critical", "maintenance"]),
        description=string(),
    ),
    StatusSummaryResponse=body(
        components=array(ref("StatusComponent")),
        incidents=array(ref("StatusIncident")),
        scheduled_maintenances=array(ref("StatusMaintenance")),
        status=ref("StatusIndicator"),
    ),
    StatusIndicatorResponse=body(status=ref("StatusIndicator")),
    StatusComponentsResponse=body(components=array(ref("StatusComponent"))),
    StatusIncidentsResponse=body(incidents=array(ref("StatusIncident"))),
    StatusMaintenancesResponse=body(scheduled_maintenances=array(ref("StatusMaintenance"))),
)

register_responses(
    {
        "GET /api/v2/summary.json": "StatusSummaryResponse",
        "GET /api/v2/status.json": "StatusIndicatorResponse",
        "GET /api/v2/components.json": "StatusComponentsResponse",
        "GET /api/v2/incidents.json": "StatusIncidentsResponse",
        "GET /api/v2/incidents/unresolved.json": "StatusIncidentsResponse",
        "GET /api/v2/scheduled-maintenances.json": "StatusMaintenancesResponse",
        "GET /api/v2/scheduled-maintenances/upcoming.json": "StatusMaintenancesResponse",
        "GET /api/v2/scheduled-maintenances/active.json": "StatusMaintenancesResponse",
    }
)
