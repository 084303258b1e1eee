"""Query parameters of `/schedules`."""

from apps.common.codecs import EvmAddressType, parse_entity_id
from apps.common.filters import OperatorFilter
from apps.common.filtersets import ListFilterSet

__all__ = ("ScheduleFilterSet", "parse_schedule_entity_id")


def parse_schedule_entity_id(text: str) -> int:
    """An entity id, or an EVM address that spells one (long-zero)."""
    return parse_entity_id(text, evm_address_type=EvmAddressType.NUM_ALIAS).encoded


class ScheduleFilterSet(ListFilterSet):
    # Every value is its own ANDed condition, equalities included, as the upstream builds them.
    account_id = OperatorFilter(
        param="account.id", field_name="creator_account_id", parser=parse_schedule_entity_id, merge_equals=False
    )
    schedule_id = OperatorFilter(
        param="schedule.id", field_name="schedule_id", parser=parse_schedule_entity_id, merge_equals=False
    )

    ordering_fields = ("schedule_id",)
