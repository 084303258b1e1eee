from django.contrib import admin

from apps.common.admin import ReadOnlyModelAdmin
from apps.common.ledger.codecs import (
    format_entity_id,
    format_timestamp,
    parse_entity_id,
)
from apps.schedules.models import Schedule


@admin.register(Schedule)
class ScheduleAdmin(ReadOnlyModelAdmin):
    list_display = ("schedule", "creator", "payer", "created", "executed", "expires")
    search_fields = ("schedule_id",)
    search_help_text = "Schedule id or creator account id (0.0.1024)"
    ordering = ("-schedule_id",)
    list_per_page = 50

    @admin.display(description="schedule", ordering="schedule_id")
    def schedule(self, schedule):
        return format_entity_id(schedule.schedule_id)

    @admin.display(description="creator")
    def creator(self, schedule):
        return format_entity_id(schedule.creator_account_id)

    @admin.display(description="payer")
    def payer(self, schedule):
        return format_entity_id(schedule.payer_account_id)

    @admin.display(description="created", ordering="consensus_timestamp")
    def created(self, schedule):
        return format_timestamp(schedule.consensus_timestamp)

    @admin.display(description="executed")
    def executed(self, schedule):
        return format_timestamp(schedule.executed_timestamp)

    @admin.display(description="expires")
    def expires(self, schedule):
        return format_timestamp(schedule.expiration_time)

    def get_search_results(self, request, queryset, search_term):
        """An entity id selects the schedule of that id and the schedules that account created."""
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            entity_id = parse_entity_id(term, allow_evm_address=False).encoded
        except ValueError:
            return queryset.none(), False
        by_id = queryset.filter(schedule_id=entity_id)
        by_creator = queryset.filter(creator_account_id=entity_id)
        return by_id | by_creator, False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]
