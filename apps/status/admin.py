"""Authoring the status page. Incidents and maintenances change status only by posting an
update from their form, which goes through `services` and its state machines.

The update's components are checkboxes, those of the event ticked. A component following a
live check is marked so: an update lists it, but a status its check sets (degraded or an
outage) would not show, so it keeps the check's and the author is told; Under maintenance
and Operational it takes.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models

from apps.status import services
from apps.status.live_checks import effective_state, read_mirror
from apps.status.models import (
    LIVE_STATUSES_SET_BY_HAND,
    Component,
    ComponentStatus,
    Event,
    Incident,
    IncidentUpdate,
    Maintenance,
    MaintenanceUpdate,
    Page,
)

__all__ = ("ComponentAdmin", "IncidentAdmin", "MaintenanceAdmin", "PageAdmin")

UPDATE_FIELDS = ("update_status", "update_body", "affected_components", "component_status")
LIVE_CHECK_MARK = "(live check — set automatically)"


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ("name", "url", "time_zone", "updated_at")
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def has_add_permission(self, request):
        return super().has_add_permission(request) and not Page.objects.exists()


@admin.register(Component)
class ComponentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "group",
        "position",
        "status",
        "is_live",
        "live_check",
        "shown_status",
        "updated_at",
    )
    list_filter = ("is_group", "live_check", "status", "group")
    search_fields = ("name",)
    ordering = ("group__name", "is_group", "position", "name")
    fields = (
        "name",
        "description",
        "is_group",
        "group",
        "position",
        "status",
        "live_check",
        "showcase",
        "start_date",
        "only_show_if_degraded",
    )

    @admin.display(boolean=True, description="live")
    def is_live(self, component):
        return component.is_live

    @admin.display(description="showing")
    def shown_status(self, component):
        if component.is_group:
            return "(its components' worst)"
        status, _ = effective_state(component, read_mirror() if component.is_live else None)
        return ComponentStatus(status).label


class ComponentChoiceField(forms.ModelMultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def label_from_instance(self, component: Component) -> str:
        name = component.name if component.group is None else f"{component.group.name} - {component.name}"
        return f"{name} {LIVE_CHECK_MARK}" if component.is_live else name


class EventForm(forms.ModelForm):
    """The event's own fields plus the update to post with this save."""

    update_status = forms.ChoiceField(label="status", required=False)
    update_body = forms.CharField(label="message", required=False, widget=forms.Textarea(attrs={"rows": 3}))
    affected_components = ComponentChoiceField(
        queryset=Component.objects.filter(is_group=False)
        .select_related("group")
        .order_by("group__name", "position"),
        required=False,
        help_text=f"Components marked {LIVE_CHECK_MARK} follow a check of this service, which sets"
        " their status: the update lists them, and of the statuses below they take only Under"
        " maintenance (pausing the check) and Operational.",
    )
    component_status = forms.ChoiceField(
        choices=[("", "Unchanged"), *ComponentStatus.choices],
        required=False,
        help_text="What the ticked components become. Resolving an incident or completing a"
        " maintenance returns the components it affected to Operational, except those given a"
        " status here.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        event: Event = self.instance
        if event.current_status is not None:
            self.fields["affected_components"].initial = services.affected_components(event)
        labels = dict(event._meta.get_field("status").choices)
        allowed = [
            label for value, label in labels.items() if value in event.transitions[event.current_status]
        ]
        field = self.fields["update_status"]
        field.choices = [("", "No update"), *labels.items()]
        field.required = event.current_status is None
        field.help_text = f"Allowed next: {', '.join(allowed) or 'nothing, this is final'}."

    def clean(self):
        cleaned = super().clean()
        status = cleaned.get("update_status")
        if not status:
            return cleaned
        if not cleaned.get("update_body"):
            self.add_error("update_body", "Say what changed.")
        try:
            self.instance.validate_next_status(status)
        except ValidationError as error:
            self.add_error("update_status", error)
        return cleaned

    def component_statuses(self) -> dict[Component, str | None]:
        """None, for a component left unchanged, and for a live one its check would override."""
        new_status = self.cleaned_data["component_status"] or None
        left = self.left_to_their_checks()
        return {
            component: None if component in left else new_status
            for component in self.cleaned_data["affected_components"]
        }

    def left_to_their_checks(self) -> list[Component]:
        new_status = self.cleaned_data["component_status"]
        if not new_status or new_status in LIVE_STATUSES_SET_BY_HAND:
            return []
        return [component for component in self.cleaned_data["affected_components"] if component.is_live]


class UpdateInline(admin.TabularInline):
    fields = ("status", "body", "display_at", "affected")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-display_at", "-created_at")

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("affected_components__component")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="affected components")
    def affected(self, update):
        return "; ".join(
            f"{each.component.name}: {each.get_old_status_display()} → {each.get_new_status_display()}"
            for each in update.affected_components.all()
        )


class IncidentUpdateInline(UpdateInline):
    model = IncidentUpdate


class MaintenanceUpdateInline(UpdateInline):
    model = MaintenanceUpdate


class EventAdmin(admin.ModelAdmin):
    form = EventForm
    event_fields: tuple[str, ...]
    list_filter = ("status", "impact")
    search_fields = ("name",)
    readonly_fields = ("status", "created_at", "updated_at", "monitoring_at", "resolved_at")

    def get_fieldsets(self, request, obj=None):
        post = "Open with" if obj is None else "Post an update"
        return (
            (None, {"fields": self.event_fields + self.readonly_fields}),
            (post, {"fields": UPDATE_FIELDS}),
        )

    def save_model(self, request, obj, form, change):
        if change:
            obj.save()
            if form.cleaned_data["update_status"]:
                self.post_update(obj, form)
                self.tell_of_live_components(request, form)
            return
        opened = self.open(obj, form)
        obj.pk = opened.pk
        obj.refresh_from_db()
        self.tell_of_live_components(request, form)

    def tell_of_live_components(self, request, form: EventForm) -> None:
        if left := form.left_to_their_checks():
            names = ", ".join(component.name for component in left)
            status = ComponentStatus(form.cleaned_data["component_status"]).label
            self.message_user(
                request,
                f"Listed as affected but left to their live check, which sets their status, rather"
                f" than set to {status}: {names}. By hand a live component takes only Under"
                " maintenance or Operational.",
                messages.WARNING,
            )


@admin.register(Incident)
class IncidentAdmin(EventAdmin):
    list_display = ("name", "status", "impact", "started_at", "updated_at")
    inlines = (IncidentUpdateInline,)
    ordering = ("-created_at",)
    event_fields = ("name", "impact", "started_at")

    def open(self, incident: Incident, form: EventForm) -> Incident:
        return services.incident_open(
            name=incident.name,
            impact=incident.impact,
            started_at=incident.started_at,
            status=form.cleaned_data["update_status"],
            body=form.cleaned_data["update_body"],
            component_statuses=form.component_statuses(),
        )

    def post_update(self, incident: Incident, form: EventForm) -> None:
        services.incident_post_update(
            incident=incident,
            status=form.cleaned_data["update_status"],
            body=form.cleaned_data["update_body"],
            component_statuses=form.component_statuses(),
        )


@admin.register(Maintenance)
class MaintenanceAdmin(EventAdmin):
    list_display = ("name", "status", "impact", "scheduled_for", "scheduled_until")
    inlines = (MaintenanceUpdateInline,)
    ordering = ("-scheduled_for",)
    event_fields = ("name", "impact", "scheduled_for", "scheduled_until")

    def open(self, maintenance: Maintenance, form: EventForm) -> Maintenance:
        # The form has refused any first status but Scheduled, the only one a maintenance opens with.
        return services.maintenance_schedule(
            name=maintenance.name,
            impact=maintenance.impact,
            scheduled_for=maintenance.scheduled_for,
            scheduled_until=maintenance.scheduled_until,
            body=form.cleaned_data["update_body"],
            component_statuses=form.component_statuses(),
        )

    def post_update(self, maintenance: Maintenance, form: EventForm) -> None:
        services.maintenance_post_update(
            maintenance=maintenance,
            status=form.cleaned_data["update_status"],
            body=form.cleaned_data["update_body"],
            component_statuses=form.component_statuses(),
        )
