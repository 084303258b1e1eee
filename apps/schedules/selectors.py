from collections import defaultdict

from django.db.models import QuerySet

from apps.accounts.models import Entity
from apps.schedules.models import Schedule
from apps.transactions.models import TransactionSignature

__all__ = ("is_final", "schedule_get", "schedule_queryset", "with_entities_and_signatures")

NANOS_PER_SECOND = 1_000_000_000
# A schedule without an expiration time expires this long after its creation.
IMPLICIT_EXPIRY_NS = 31 * 60 * NANOS_PER_SECOND
# Past its expiration time a schedule may still execute for this long.
EXPIRY_GRACE_NS = 60 * NANOS_PER_SECOND

_SCHEDULE_COLUMNS = (
    "consensus_timestamp",
    "creator_account_id",
    "executed_timestamp",
    "expiration_time",
    "payer_account_id",
    "schedule_id",
    "transaction_body",
    "wait_for_expiry",
)


def schedule_queryset() -> QuerySet:
    return Schedule.objects.values(*_SCHEDULE_COLUMNS)


def with_entities_and_signatures(schedules: list[dict]) -> list[dict]:
    """Each schedule with its entity's `admin_key`, `deleted` and `memo` (None without an entity row)
    and its `signatures` in consensus order: two reads for the whole page."""
    ids = [schedule["schedule_id"] for schedule in schedules]
    entities = {
        entity["id"]: entity for entity in Entity.objects.filter(id__in=ids).values("id", "deleted", "key", "memo")
    }
    signatures = defaultdict(list)
    for signature in (
        TransactionSignature.objects.filter(entity_id__in=ids)
        .order_by("entity_id", "consensus_timestamp")
        .values("entity_id", "consensus_timestamp", "public_key_prefix", "signature", "type")
    ):
        signatures[signature["entity_id"]].append(signature)
    empty = {"deleted": None, "key": None, "memo": None}
    return [
        {
            **schedule,
            **{
                name: value
                for name, value in entities.get(schedule["schedule_id"], empty).items()
                if name != "id"
            },
            "signatures": signatures[schedule["schedule_id"]],
        }
        for schedule in schedules
    ]


def schedule_get(*, schedule_id: int) -> dict | None:
    schedule = schedule_queryset().filter(schedule_id=schedule_id).first()
    return None if schedule is None else with_entities_and_signatures([schedule])[0]


def is_final(schedule: dict, *, now: int) -> bool:
    """Whether the schedule can no longer change: executed, deleted or expired."""
    if schedule["executed_timestamp"] is not None or schedule["deleted"]:
        return True
    if schedule["expiration_time"] is None:
        return now >= schedule["consensus_timestamp"] + IMPLICIT_EXPIRY_NS
    return now >= schedule["expiration_time"] + EXPIRY_GRACE_NS
