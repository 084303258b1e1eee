"""Live checks: a component bound to one shows this service's health, not a hand-set status.

- `mirror_freshness`: the age of the newest block (`record_file.consensus_end`) against
  `STATUS_FRESHNESS_DEGRADED_AFTER` (60 s, then `degraded_performance`) and
  `STATUS_FRESHNESS_OUTAGE_AFTER` (300 s, then `major_outage`); no block at all is a
  `major_outage`.
- `database`: `operational` while the mirror tables can be read.
An unreadable database is a `major_outage` for both. A component set `under_maintenance` by
hand keeps that status, so a maintenance window does not show as an outage.

A live component's `updated_at` is when its reading became true, if later than its own
edit: the newest block while fresh, the moment a threshold was crossed, or the reading
itself for the database check and for a mirror without blocks.
"""

from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

from django.db import DatabaseError, connections, router, transaction
from django.db.models import Max

from apps.blocks.models import RecordFile
from apps.common.clock import now_ns
from apps.common.database.replicas import reading_a_replica
from apps.status import conf
from apps.status.models import Component, ComponentStatus, LiveCheck
from apps.status.timestamps import datetime_from_nanos

__all__ = (
    "LiveState",
    "MirrorReading",
    "effective_state",
    "live_state",
    "read_mirror",
    "unreachable_reading",
)


@dataclass(frozen=True, slots=True)
class MirrorReading:
    taken_at: datetime
    database_reachable: bool
    newest_block_at: datetime | None


@dataclass(frozen=True, slots=True)
class LiveState:
    status: str
    since: datetime


def read_mirror() -> MirrorReading:
    taken_at = datetime_from_nanos(now_ns())
    # In a transaction, a savepoint, so a failed read leaves it usable; else one round trip.
    using = router.db_for_read(RecordFile)
    try:
        # The freshest replica in use, when there are replicas: the page itself reads the primary.
        with reading_a_replica(), (
            transaction.atomic(using=using) if connections[using].in_atomic_block else nullcontext()
        ):
            newest = RecordFile.objects.aggregate(newest=Max("consensus_end"))["newest"]
    except DatabaseError:
        return unreachable_reading(taken_at)
    newest_block_at = None if newest is None else datetime_from_nanos(newest)
    return MirrorReading(taken_at=taken_at, database_reachable=True, newest_block_at=newest_block_at)


def unreachable_reading(taken_at: datetime) -> MirrorReading:
    return MirrorReading(taken_at=taken_at, database_reachable=False, newest_block_at=None)


def live_state(check: str, reading: MirrorReading) -> LiveState:
    if not reading.database_reachable:
        return LiveState(ComponentStatus.MAJOR_OUTAGE, reading.taken_at)
    if check == LiveCheck.DATABASE:
        return LiveState(ComponentStatus.OPERATIONAL, reading.taken_at)
    newest = reading.newest_block_at
    if newest is None:
        return LiveState(ComponentStatus.MAJOR_OUTAGE, reading.taken_at)
    outage_at = newest + conf.freshness_outage_after()
    degraded_at = newest + conf.freshness_degraded_after()
    if reading.taken_at >= outage_at:
        return LiveState(ComponentStatus.MAJOR_OUTAGE, outage_at)
    if reading.taken_at >= degraded_at:
        return LiveState(ComponentStatus.DEGRADED_PERFORMANCE, degraded_at)
    return LiveState(ComponentStatus.OPERATIONAL, min(newest, reading.taken_at))


def effective_state(component: Component, reading: MirrorReading | None) -> tuple[str, datetime]:
    """The (status, updated_at) a leaf component shows; `reading` is needed for live ones only."""
    if not component.is_live or component.status == ComponentStatus.UNDER_MAINTENANCE:
        return component.status, component.updated_at
    state = live_state(component.live_check, reading)
    return state.status, max(component.updated_at, state.since)
