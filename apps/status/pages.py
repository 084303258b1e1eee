"""The human page of an event, where its shortlink leads: `<page url>/incidents/<id>`, the path
Statuspage gives incidents and scheduled maintenances alike. The default page's URL is this
service's own (`STATUS_PAGE_URL`), so its shortlinks resolve here; a page whose URL names
another site leads there."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.http import Http404
from django.shortcuts import render

from apps.status import caching, selectors
from apps.status.models import ComponentStatus, Incident

__all__ = ("event_page",)


def event_page(request, event_id: str):
    found, _ = caching.read_unedited(lambda: selectors.event_with_page(event_id))
    if found is None:
        raise Http404
    page, event = found
    time_zone = ZoneInfo(page.time_zone)

    def when(value: datetime | None) -> str | None:
        return None if value is None else f"{value.astimezone(time_zone):%Y-%m-%d %H:%M:%S %Z}"

    updates = [
        {
            "status": update.get_status_display(),
            "at": when(update.display_at),
            "body": update.body,
            "components": [
                (
                    affected.component.name
                    if affected.component.group is None
                    else f"{affected.component.group.name} - {affected.component.name}",
                    ComponentStatus(affected.old_status).label,
                    ComponentStatus(affected.new_status).label,
                )
                for affected in update.affected_components.all()
            ],
        }
        for update in event.updates.all()
    ]
    is_incident = isinstance(event, Incident)
    return render(
        request,
        "status/event.html",
        {
            "page": page,
            "event": event,
            "kind": "Incident" if is_incident else "Scheduled maintenance",
            "impact": event.shown_impact,
            "started_at": when(event.started_at) if is_incident else None,
            "scheduled": None if is_incident else (when(event.scheduled_for), when(event.scheduled_until)),
            "resolved_at": when(event.resolved_at),
            "updates": updates,
        },
    )
