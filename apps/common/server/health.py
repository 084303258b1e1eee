"""Health probes for an orchestrator, outside `/api/`.

- `/health/liveness`: 200 while the process answers requests; it reads nothing, so a
  database outage never gets a healthy worker restarted.
- `/health/readiness`: 200 when the database answers and, if
  `settings.READINESS_MAX_BLOCK_AGE` (seconds) is set, the newest block
  (`record_file.consensus_end`) is at most that old; else 503 with the reason, so a
  load balancer stops sending traffic to an instance that cannot serve current data.
  With read replicas it lists each one's lag in seconds (null while unknown) and whether
  API requests read it: a replica lagging or down does not make the instance unready, as
  the primary serves in its place (apps/common/database/replicas.py).
"""

from time import monotonic

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse

from apps.common.clock import now_ns
from apps.common.database.replicas import replica_states

__all__ = ("liveness", "readiness")

NANOS_PER_SECOND = 10**9


def liveness(request) -> JsonResponse:
    return _answer(200, "ok")


def readiness(request) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            # The primary key's last entry: one index probe whatever the table's size.
            cursor.execute("select max(consensus_end) from record_file")
            (newest_block_ns,) = cursor.fetchone()
    except DatabaseError:
        return _readiness_answer(503, "error", reason="database unavailable")
    max_age = settings.READINESS_MAX_BLOCK_AGE
    if not max_age:
        return _readiness_answer(200, "ok")
    if newest_block_ns is None:
        return _readiness_answer(503, "error", reason="no block")
    age = (now_ns() - newest_block_ns) / NANOS_PER_SECOND
    if age > max_age:
        return _readiness_answer(503, "error", reason=f"newest block is {age:.0f} s old (limit {max_age:g} s)")
    return _readiness_answer(200, "ok")


def _readiness_answer(status: int, text: str, **details: str) -> JsonResponse:
    if states := replica_states():
        now = monotonic()
        details["replicas"] = [
            {"name": state.alias, "lag": state.lag, "in_use": state.in_use(now)} for state in states
        ]
    return _answer(status, text, **details)


def _answer(status: int, text: str, **details: str) -> JsonResponse:
    response = JsonResponse({"status": text, **details}, status=status)
    response["Cache-Control"] = "no-store"
    return response
