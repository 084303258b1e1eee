from collections import defaultdict

from django.db.models import QuerySet

from apps.accounts.models import Entity
from apps.common.database import column_names, statement_cursor
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
    """One schedule as `with_entities_and_signatures` gives it, read in one statement."""
    with statement_cursor() as cursor:
        cursor.execute(_SCHEDULE_WITH_ENTITY_AND_SIGNATURES, [schedule_id])
        names = column_names(cursor)
        row = cursor.fetchone()
    if row is None:
        return None
    schedule = dict(zip(names, row))
    signature_columns = [schedule.pop(f"{column}s") for column in _SIGNATURE_COLUMNS]
    schedule["signatures"] = [
        dict(zip(_SIGNATURE_COLUMNS, values)) for values in zip(*(column or () for column in signature_columns))
    ]
    return schedule


_SIGNATURE_COLUMNS = ("consensus_timestamp", "public_key_prefix", "signature", "type")
# The signatures as parallel arrays, aggregated in the order the page's signature read gives them.
_SCHEDULE_WITH_ENTITY_AND_SIGNATURES = (
    f"select {', '.join(f's.{column}' for column in _SCHEDULE_COLUMNS)}, e.deleted, e.key, e.memo,"
    f" {', '.join(f'signature.{column}s' for column in _SIGNATURE_COLUMNS)}"
    " from schedule s left join entity e on e.id = s.schedule_id"
    " left join lateral ("
    f"  select {', '.join(f'array_agg(t.{column}) as {column}s' for column in _SIGNATURE_COLUMNS)}"
    f"  from (select {', '.join(_SIGNATURE_COLUMNS)} from transaction_signature"
    "   where entity_id = s.schedule_id order by entity_id, consensus_timestamp) t"
    " ) signature on true"
    " where s.schedule_id = %s"
)


def is_final(schedule: dict, *, now: int) -> bool:
    """Whether the schedule can no longer change: executed, deleted or expired."""
    if schedule["executed_timestamp"] is not None or schedule["deleted"]:
        return True
    if schedule["expiration_time"] is None:
        return now >= schedule["consensus_timestamp"] + IMPLICIT_EXPIRY_NS
    return now >= schedule["expiration_time"] + EXPIRY_GRACE_NS
