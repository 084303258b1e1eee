"""Statuspage v2 shapes, key for key in the order Statuspage serves them.

Timestamps render with millisecond precision in the page's time zone (`Z` for UTC). Every
serializer reads the request's `PageSnapshot` from `context["snapshot"]`.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from rest_framework import serializers

from apps.status.models import Event, EventUpdate

__all__ = (
    "ComponentSerializer",
    "IncidentSerializer",
    "MaintenanceSerializer",
    "PageSerializer",
    "PageStatusSerializer",
)


def render_time(value: datetime | None, time_zone: str) -> str | None:
    if value is None:
        return None
    return value.astimezone(ZoneInfo(time_zone)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class SnapshotSerializer(serializers.BaseSerializer):
    @property
    def snapshot(self):
        return self.context["snapshot"]

    def time(self, value: datetime | None) -> str | None:
        return render_time(value, self.snapshot.page.time_zone)


class PageSerializer(SnapshotSerializer):
    def to_representation(self, snapshot):
        page = snapshot.page
        return {
            "id": page.id,
            "name": page.name,
            "url": page.url,
            "time_zone": page.time_zone,
            "updated_at": self.time(snapshot.updated_at),
        }


class ComponentSerializer(SnapshotSerializer):
    def to_representation(self, component):
        data = {
            "id": component.id,
            "name": component.name,
            "status": component.shown_status,
            "created_at": self.time(component.created_at),
            "updated_at": self.time(component.shown_updated_at),
            "position": component.position,
            "description": component.description or None,
            "showcase": component.showcase,
            "start_date": component.start_date.isoformat() if component.start_date else None,
            "group_id": component.group_id,
            "page_id": self.snapshot.page.id,
            "group": component.is_group,
            "only_show_if_degraded": component.only_show_if_degraded,
        }
        if component.is_group:
            data["components"] = component.child_ids
        return data


class IncidentSerializer(SnapshotSerializer):
    def to_representation(self, event):
        updates = list(event.updates.all())
        affected_ids = {
            affected.component_id for update in updates for affected in update.affected_components.all()
        }
        components = [component for component in self.snapshot.components if component.id in affected_ids]
        return {
            "id": event.id,
            "name": event.name,
            "status": event.status,
            "created_at": self.time(event.created_at),
            "updated_at": self.time(event.updated_at),
            "monitoring_at": self.time(event.monitoring_at),
            "resolved_at": self.time(event.resolved_at),
            "impact": event.shown_impact,
            # Where Statuspage's stspg.io shortlinks lead: the event on the human page.
            "shortlink": f"{self.snapshot.page.url.rstrip('/')}/incidents/{event.id}",
            "started_at": self.time(event.started_at),
            "page_id": self.snapshot.page.id,
            "incident_updates": [self.update(event, update) for update in updates],
            "components": ComponentSerializer(components, many=True, context=self.context).data,
        }

    def update(self, event: Event, update: EventUpdate) -> dict:
        affected = [
            {
                "code": each.component_id,
                "name": self.display_name(each.component_id),
                "old_status": each.old_status,
                "new_status": each.new_status,
            }
            for each in update.affected_components.all()
        ]
        return {
            "id": update.id,
            "status": update.status,
            "body": update.body,
            "incident_id": event.id,
            "created_at": self.time(update.created_at),
            "updated_at": self.time(update.updated_at),
            "display_at": self.time(update.display_at),
            "affected_components": affected or None,
            "deliver_notifications": update.deliver_notifications,
            "custom_tweet": None,
            "tweet_id": None,
        }

    def display_name(self, component_id: str) -> str:
        """Statuspage's "Group - Component" for a grouped component."""
        component = self.snapshot.component_by_id[component_id]
        if component.group_id is None:
            return component.name
        return f"{self.snapshot.component_by_id[component.group_id].name} - {component.name}"


class MaintenanceSerializer(IncidentSerializer):
    def to_representation(self, maintenance):
        return {
            **super().to_representation(maintenance),
            "scheduled_for": self.time(maintenance.scheduled_for),
            "scheduled_until": self.time(maintenance.scheduled_until),
        }


class PageStatusSerializer(serializers.BaseSerializer):
    def to_representation(self, status):
        return {"indicator": status.indicator, "description": status.description}
