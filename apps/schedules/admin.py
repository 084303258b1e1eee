"""Read-only admin for schedules; the search box takes a schedule id or the id of the account that created schedules."""

from django.contrib import admin

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    display_entity_id,
    display_timestamp,
    entity_link,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_entity_id
from apps.schedules.models import Schedule


@admin.register(Schedule)
class ScheduleAdmin(MirrorModelAdmin):
    page_kinds = ("SCHEDULE",)
    list_display = (
        column("schedule_id", display_entity_id, description="schedule", sortable=True),
        column("creator_account_id", display_entity_id, description="creator"),
        column("payer_account_id", display_entity_id, description="payer"),
        column("consensus_timestamp", display_timestamp, description="created", sortable=True),
        column("executed_timestamp", display_timestamp, description="executed"),
        column("expiration_time", display_timestamp, description="expires"),
    )
    search_fields = ("schedule_id",)
    search_help_text = "Schedule id or creator account id (0.0.1024)"
    ordering = ("-schedule_id",)
    column_displays = {
        "schedule_id": display_entity_id,
        "consensus_timestamp": timestamp_link("TRANSACTION"),
        "creator_account_id": entity_link("ACCOUNT"),
        "executed_timestamp": timestamp_link("TRANSACTION"),
        "expiration_time": display_timestamp,
        "payer_account_id": entity_link("ACCOUNT"),
    }

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
