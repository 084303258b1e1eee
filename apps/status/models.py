"""The status page's own tables, authored in the Django admin.

One `Page` holds leaf and group `Component`s, `Incident`s and scheduled `Maintenance`s.
Incidents and maintenances change status only by an update row (see `services`), along
`INCIDENT_TRANSITIONS` and `MAINTENANCE_TRANSITIONS`; a repeated status is a further update
in the same state.
"""

import secrets
import string
from collections.abc import Mapping
from typing import ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models

from apps.status.rollup import incident_impact
from apps.status.timestamps import current_time

__all__ = (
    "ACTIVE_MAINTENANCE_STATUSES",
    "INCIDENT_TRANSITIONS",
    "LIVE_STATUSES_SET_BY_HAND",
    "MAINTENANCE_TRANSITIONS",
    "UNRESOLVED_INCIDENT_STATUSES",
    "AffectedComponent",
    "Component",
    "ComponentStatus",
    "Event",
    "EventUpdate",
    "Incident",
    "IncidentAffectedComponent",
    "IncidentImpact",
    "IncidentStatus",
    "IncidentUpdate",
    "LiveCheck",
    "Maintenance",
    "MaintenanceAffectedComponent",
    "MaintenanceImpact",
    "MaintenanceStatus",
    "MaintenanceUpdate",
    "Page",
    "new_id",
)

ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 12


def new_id() -> str:
    """A Statuspage-like id: 12 random lowercase base-36 characters."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def validate_time_zone(value: str) -> None:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"{value!r} is not an IANA time zone, e.g. Etc/UTC.") from None


class ComponentStatus(models.TextChoices):
    OPERATIONAL = "operational", "Operational"
    DEGRADED_PERFORMANCE = "degraded_performance", "Degraded performance"
    PARTIAL_OUTAGE = "partial_outage", "Partial outage"
    MAJOR_OUTAGE = "major_outage", "Major outage"
    UNDER_MAINTENANCE = "under_maintenance", "Under maintenance"


class LiveCheck(models.TextChoices):
    MIRROR_FRESHNESS = "mirror_freshness", "Mirror freshness (age of the newest block)"
    DATABASE = "database", "Database reachability"


class IncidentStatus(models.TextChoices):
    INVESTIGATING = "investigating", "Investigating"
    IDENTIFIED = "identified", "Identified"
    MONITORING = "monitoring", "Monitoring"
    RESOLVED = "resolved", "Resolved"
    POSTMORTEM = "postmortem", "Postmortem"


class MaintenanceStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    IN_PROGRESS = "in_progress", "In progress"
    VERIFYING = "verifying", "Verifying"
    COMPLETED = "completed", "Completed"


class IncidentImpact(models.TextChoices):
    NONE = "none", "None"
    MINOR = "minor", "Minor"
    MAJOR = "major", "Major"
    CRITICAL = "critical", "Critical"


class MaintenanceImpact(models.TextChoices):
    NONE = "none", "None"
    MINOR = "minor", "Minor"
    MAJOR = "major", "Major"
    CRITICAL = "critical", "Critical"
    MAINTENANCE = "maintenance", "Maintenance"


UNRESOLVED_INCIDENT_STATUSES = (
    IncidentStatus.INVESTIGATING,
    IncidentStatus.IDENTIFIED,
    IncidentStatus.MONITORING,
)
ACTIVE_MAINTENANCE_STATUSES = (MaintenanceStatus.IN_PROGRESS, MaintenanceStatus.VERIFYING)
# A live check sets the status, except that a maintenance window mutes it.
LIVE_STATUSES_SET_BY_HAND = (ComponentStatus.OPERATIONAL, ComponentStatus.UNDER_MAINTENANCE)

# Status before an update (None: not opened yet) -> statuses the update may set.
INCIDENT_TRANSITIONS: Mapping[str | None, frozenset[str]] = {
    None: frozenset(UNRESOLVED_INCIDENT_STATUSES),
    IncidentStatus.INVESTIGATING: frozenset(
        {
            IncidentStatus.INVESTIGATING,
            IncidentStatus.IDENTIFIED,
            IncidentStatus.MONITORING,
            IncidentStatus.RESOLVED,
        }
    ),
    IncidentStatus.IDENTIFIED: frozenset(
        {IncidentStatus.IDENTIFIED, IncidentStatus.MONITORING, IncidentStatus.RESOLVED}
    ),
    IncidentStatus.MONITORING: frozenset({IncidentStatus.MONITORING, IncidentStatus.RESOLVED}),
    IncidentStatus.RESOLVED: frozenset({IncidentStatus.POSTMORTEM}),
    IncidentStatus.POSTMORTEM: frozenset(),
}
MAINTENANCE_TRANSITIONS: Mapping[str | None, frozenset[str]] = {
    None: frozenset({MaintenanceStatus.SCHEDULED}),
    MaintenanceStatus.SCHEDULED: frozenset({MaintenanceStatus.SCHEDULED, MaintenanceStatus.IN_PROGRESS}),
    MaintenanceStatus.IN_PROGRESS: frozenset(
        {MaintenanceStatus.IN_PROGRESS, MaintenanceStatus.VERIFYING, MaintenanceStatus.COMPLETED}
    ),
    MaintenanceStatus.VERIFYING: frozenset({MaintenanceStatus.VERIFYING, MaintenanceStatus.COMPLETED}),
    MaintenanceStatus.COMPLETED: frozenset(),
}


class StatuspageModel(models.Model):
    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_id, editable=False)
    created_at = models.DateTimeField(default=current_time, editable=False)
    updated_at = models.DateTimeField(default=current_time, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        # Not auto_now: that reads Django's clock, and tests freeze the service clock.
        self.updated_at = current_time()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "updated_at"}
        super().save(*args, **kwargs)


class Page(StatuspageModel):
    name = models.CharField(max_length=255)
    url = models.URLField(help_text="The human status page; incident shortlinks point into it.")
    time_zone = models.CharField(
        max_length=64,
        default="Etc/UTC",
        validators=[validate_time_zone],
        help_text="IANA name; timestamps are rendered with its offset.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                models.Value(True),
                name="status_page_single_row",
                violation_error_message="There is one status page; edit it instead.",
            )
        ]

    def __str__(self):
        return self.name


class Component(StatuspageModel):
    name = models.CharField(max_length=255)
    description = models.TextField(blank=True)
    status = models.CharField(
        max_length=32,
        choices=ComponentStatus.choices,
        default=ComponentStatus.OPERATIONAL,
        help_text="Groups show their worst component's status; live components show their"
        " check's unless set under maintenance.",
    )
    group = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
        limit_choices_to={"is_group": True},
    )
    is_group = models.BooleanField("group", default=False)
    position = models.PositiveIntegerField(
        default=1, validators=[MinValueValidator(1)], help_text="1-based, within its group."
    )
    showcase = models.BooleanField(default=True)
    start_date = models.DateField(null=True, blank=True)
    only_show_if_degraded = models.BooleanField(default=False)
    live_check = models.CharField(
        max_length=32,
        blank=True,
        choices=[("", "None: status set by hand"), *LiveCheck.choices],
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="status_component_position_from_1"
            ),
            models.CheckConstraint(
                condition=models.Q(is_group=False) | models.Q(group__isnull=True, live_check=""),
                name="status_component_group_top_level_by_hand",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_live(self) -> bool:
        return bool(self.live_check)

    def clean(self):
        errors = {}
        if self.is_group and self.group_id is not None:
            errors["group"] = "A group cannot sit inside another group."
        if self.is_group and self.live_check:
            errors["live_check"] = "A group's status comes from its components; bind one of them instead."
        if not self.is_group and not self._state.adding and self.children.exists():
            errors["is_group"] = "This group still holds components; move them out first."
        if not self.is_group:
            try:
                self.validate_status_change(self.status)
            except ValidationError as error:
                errors["status"] = error.messages
        if errors:
            raise ValidationError(errors)

    def validate_status_change(self, status: str) -> None:
        """Refuses a hand-set status that would not show."""
        if self.is_group:
            raise ValidationError(f"{self.name} is a group; its status is its components' worst.")
        if self.live_check and status not in LIVE_STATUSES_SET_BY_HAND:
            raise ValidationError(
                f"{self.name} follows a live check ({self.get_live_check_display().lower()}), which sets"
                " its status automatically: by hand it can only be put under maintenance, pausing the"
                " check, or back to operational."
            )


class Event(StatuspageModel):
    """What incidents and scheduled maintenances share."""

    transitions: ClassVar[Mapping[str | None, frozenset[str]]]
    status: str

    name = models.CharField(max_length=255)
    started_at = models.DateTimeField(default=current_time)
    monitoring_at = models.DateTimeField(null=True, blank=True, editable=False)
    resolved_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        abstract = True

    def __str__(self):
        return self.name

    def validate_next_status(self, status: str) -> None:
        allowed = self.transitions[self.current_status]
        if status in allowed:
            return
        labels = dict(self._meta.get_field("status").choices)
        move = (
            f"open as {labels.get(status, status)}"
            if self.current_status is None
            else f"go from {labels[self.current_status]} to {labels.get(status, status)}"
        )
        allowed_labels = ", ".join(label for value, label in labels.items() if value in allowed) or "nothing"
        raise ValidationError(
            f"{self._meta.verbose_name_plural.capitalize()} cannot {move} (allowed: {allowed_labels}).",
            code="invalid_transition",
        )

    @property
    def current_status(self) -> str | None:
        return None if self._state.adding else self.status


class Incident(Event):
    transitions = INCIDENT_TRANSITIONS

    status = models.CharField(max_length=32, choices=IncidentStatus.choices, editable=False)
    impact = models.CharField(
        max_length=16,
        blank=True,
        choices=[("", "Derived from affected components"), *IncidentImpact.choices],
    )

    @property
    def shown_impact(self) -> str:
        """The impact set, else derived from the worst status any update gave a component."""
        return self.impact or incident_impact(
            affected.new_status
            for update in self.updates.all()
            for affected in update.affected_components.all()
        )


class Maintenance(Event):
    transitions = MAINTENANCE_TRANSITIONS

    status = models.CharField(max_length=32, choices=MaintenanceStatus.choices, editable=False)
    impact = models.CharField(
        max_length=16, choices=MaintenanceImpact.choices, default=MaintenanceImpact.MAINTENANCE
    )
    scheduled_for = models.DateTimeField()
    scheduled_until = models.DateTimeField()

    class Meta:
        verbose_name = "scheduled maintenance"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scheduled_until__gt=models.F("scheduled_for")),
                name="status_maintenance_ends_after_start",
            )
        ]

    @property
    def shown_impact(self) -> str:
        return self.impact

    def clean(self):
        if self.scheduled_for and self.scheduled_until and self.scheduled_until <= self.scheduled_for:
            raise ValidationError({"scheduled_until": "A maintenance must end after it starts."})


class EventUpdate(StatuspageModel):
    body = models.TextField()
    display_at = models.DateTimeField(default=current_time)
    deliver_notifications = models.BooleanField(default=True)

    class Meta:
        abstract = True

    def __str__(self):
        return f"{self.get_status_display()} at {self.display_at:%Y-%m-%d %H:%M}"


class IncidentUpdate(EventUpdate):
    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="updates")
    status = models.CharField(max_length=32, choices=IncidentStatus.choices)


class MaintenanceUpdate(EventUpdate):
    maintenance = models.ForeignKey(Maintenance, on_delete=models.CASCADE, related_name="updates")
    status = models.CharField(max_length=32, choices=MaintenanceStatus.choices)


class AffectedComponent(models.Model):
    component = models.ForeignKey(Component, on_delete=models.CASCADE, related_name="+")
    old_status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    new_status = models.CharField(max_length=32, choices=ComponentStatus.choices)

    class Meta:
        abstract = True


class IncidentAffectedComponent(AffectedComponent):
    update = models.ForeignKey(IncidentUpdate, on_delete=models.CASCADE, related_name="affected_components")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=("update", "component"), name="status_incident_update_component_once"
            )
        ]


class MaintenanceAffectedComponent(AffectedComponent):
    update = models.ForeignKey(
        MaintenanceUpdate, on_delete=models.CASCADE, related_name="affected_components"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=("update", "component"), name="status_maintenance_update_component_once"
            )
        ]
