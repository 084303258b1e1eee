from collections import defaultdict

from django.db.models import QuerySet

from apps.accounts.models import Entity
from apps.common.database.connections import column_names, statement_cursor
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.schedules import sql
from apps.schedules.models import Schedule
from apps.transactions.models import TransactionSignature

__all__ = ("is_final", "schedule_get", "schedule_list", "schedule_queryset", "with_entities_and_signatures")

NANOS_PER_SECOND = 1_000_000_000
# A schedule without an expiration time expires this long after its creation.
IMPLICIT_EXPIRY_NS = 31 * 60 * NANOS_PER_SECOND
# Past its expiration time a schedule may still execute for this long.
EXPIRY_GRACE_NS = 60 * NANOS_PER_SECOND


def schedule_queryset() -> QuerySet:
    return Schedule.objects.values(*sql.SCHEDULE_COLUMNS)


def schedule_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/schedules`, each with its entity and signatures."""
    return with_entities_and_signatures(_SCHEDULE_PAGES.rows(criteria))


_SCHEDULE_PAGES = CompiledPages(lambda criteria: narrow(schedule_queryset(), criteria))


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
        cursor.execute(sql.SCHEDULE_WITH_ENTITY_AND_SIGNATURES, [schedule_id])
        names = column_names(cursor)
        row = cursor.fetchone()
    if row is None:
        return None
    schedule = dict(zip(names, row))
    signature_columns = [schedule.pop(f"{column}s") for column in sql.SIGNATURE_COLUMNS]
    schedule["signatures"] = [
        dict(zip(sql.SIGNATURE_COLUMNS, values)) for values in zip(*(column or () for column in signature_columns))
    ]
    return schedule


def is_final(schedule: dict, *, now: int) -> bool:
    """Whether the schedule can no longer change: executed, deleted or expired."""
    if schedule["executed_timestamp"] is not None or schedule["deleted"]:
        return True
    if schedule["expiration_time"] is None:
        return now >= schedule["consensus_timestamp"] + IMPLICIT_EXPIRY_NS
    return now >= schedule["expiration_time"] + EXPIRY_GRACE_NS
