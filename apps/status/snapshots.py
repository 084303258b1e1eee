"""The page as this process last read it, so the status routes outlive the database.

Each process holds one snapshot in memory and serves it for `STATUS_SNAPSHOT_MAX_AGE`
seconds (5) of the service clock; the first request after that reads the database again,
while requests arriving during that read serve the snapshot held. A warm request thus
costs no query, and a page is at most that old, well inside the routes' `max-age=10`.

When the read fails (the database refuses, times out or drops the connection) the last
content read is served again with the live components, those bound to the database
reachability and mirror freshness checks, in `major_outage` from that moment, and the page
status rolled up from them; the next read is tried after the same age. Before any read has
succeeded, the default page built from settings stands in, both of its live components
down: the routes exist to show an outage, so they answer one rather than a 503.

A page absent when last read stays absent (404) until a read finds one.
"""

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from django.db import DatabaseError

from apps.status import conf, selectors
from apps.status.default_page import default_content
from apps.status.live_checks import unreachable_reading
from apps.status.selectors import PageContent, PageSnapshot
from apps.status.timestamps import current_time

__all__ = ("current_snapshot", "forget")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Held:
    content: PageContent | None
    snapshot: PageSnapshot | None
    read_at: datetime

    def is_fresh(self, now: datetime) -> bool:
        # A clock set back counts as stale, so a snapshot can never be held forever.
        return self.read_at <= now < self.read_at + conf.snapshot_max_age()


_held: Held | None = None
_reading = threading.Lock()


def current_snapshot() -> PageSnapshot | None:
    """The snapshot to serve; None when the page was absent when last read."""
    global _held
    held = _held
    now = current_time()
    if held is not None and held.is_fresh(now):
        return held.snapshot
    # One read at a time; with nothing held yet there is nothing else to serve, so wait.
    if not _reading.acquire(blocking=held is None):
        return held.snapshot
    try:
        if _held is held:
            _held = _read(previous=held, now=now)
        return _held.snapshot
    finally:
        _reading.release()


def forget() -> None:
    """Drops the snapshot held, as a new process starts: the next request reads."""
    global _held
    _held = None


def _read(*, previous: Held | None, now: datetime) -> Held:
    try:
        content = selectors.page_content()
    except DatabaseError as error:
        reason = " ".join(str(error).split())  # psycopg's messages span lines
        logger.warning("status page served from memory, the database is unreachable: %s", reason)
        content = default_content(at=now) if previous is None else previous.content
        reading = unreachable_reading(now)
    else:
        reading = None if content is None else content.mirror
    snapshot = None if content is None else selectors.page_snapshot(content=content, reading=reading)
    return Held(content=content, snapshot=snapshot, read_at=now)
