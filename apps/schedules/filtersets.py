"""Query parameters of `/schedules`."""

from apps.common.ledger.codecs import (
    format_entity_id,
    parse_id_or_any_address,
    parse_query_entity_id,
)
from apps.common.query.filters import WITH_ANY_OPERATOR, OperatorFilter
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pagination import Anchor

__all__ = ("ScheduleFilterSet",)


class ScheduleFilterSet(ListFilterSet):
    # Every value is its own ANDed condition, equalities included, as the upstream builds them.
    account_id = OperatorFilter(
        param="account.id",
        field_name="creator_account_id",
        parser=parse_query_entity_id,
        merge_equals=False,
        description=f"The id of the account that created the schedule, {WITH_ANY_OPERATOR}. Each value is one more "
        "condition.",
    )
    schedule_id = OperatorFilter(
        param="schedule.id",
        field_name="schedule_id",
        parser=parse_query_entity_id,
        merge_equals=False,
        description=f"The schedule's id, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )

    ordering_fields = ("schedule_id",)
    pagination = (Anchor("schedule.id", "schedule_id", format=format_entity_id, parse=parse_id_or_any_address),)
