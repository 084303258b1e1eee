"""The page as this process last read it, so the status routes read no database between
edits and outlive the database.

Each process holds one snapshot: the page's content, read through cachalot
(apps/status/caching.py), with the edit stamp of the status tables it is valid for, and a
reading of the mirror for the live checks. A request compares the stamp with the shared
cache's, one cache read: an edit made in any process moves it, and the request reads the
page again, so an edit shows at once; requests arriving meanwhile wait for that read. The
reading is taken again once older than `STATUS_SNAPSHOT_MAX_AGE` seconds (5) of the service
clock, a query on the mirror's tables only and only for a page with live components; requests
arriving during that read serve the snapshot held. A warm request thus costs no query.

When the page's read fails (the database refuses, times out or drops the connection) the last
content read is served again with the live components, those bound to the database
reachability and mirror freshness checks, in `major_outage` from that moment, and the page
status rolled up from them; the read is tried again after the same age. Before any read has
succeeded, the default page built from settings stands in, both of its live components down:
the routes exist to show an outage, so they answer one rather than a 503.

A page absent when last read stays absent (404) until an edit.
"""

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from django.db import DatabaseError

from apps.status import caching, conf, selectors
from apps.status.default_page import default_content
from apps.status.live_checks import read_mirror, unreachable_reading
from apps.status.selectors import PageContent, PageSnapshot
from apps.status.timestamps import current_time

__all__ = ("current_snapshot", "forget")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Held:
    content: PageContent | None
    # The edit stamp `content` is valid for; None when it stands in for a read that failed.
    stamp: float | None
    snapshot: PageSnapshot | None
    read_at: datetime

    def serves(self, stamp: float, now: datetime) -> bool:
        return self.stamp in (stamp, None) and self.is_fresh(now)

    def is_fresh(self, now: datetime) -> bool:
        # A clock set back counts as stale, so a snapshot can never be held forever.
        return self.read_at <= now < self.read_at + conf.snapshot_max_age()


_held: Held | None = None
_reading = threading.Lock()


def current_snapshot() -> PageSnapshot | None:
    """The snapshot to serve; None when the page was absent when last read."""
    global _held
    now = current_time()
    stamp = caching.edit_stamp()
    held = _held
    if held is not None and held.serves(stamp, now):
        return held.snapshot
    # An edit (or nothing held yet) is waited for; a reading of the mirror is not.
    edited = held is None or held.stamp not in (stamp, None)
    if not _reading.acquire(blocking=edited):
        return held.snapshot
    try:
        if _held is None or not _held.serves(stamp, now):
            _held = _read(previous=_held, stamp=stamp, now=now)
        return _held.snapshot
    finally:
        _reading.release()


def forget() -> None:
    """Drops the snapshot held, as a new process starts: the next request reads."""
    global _held
    _held = None


def _read(*, previous: Held | None, stamp: float, now: datetime) -> Held:
    if previous is not None and previous.stamp == stamp:
        content, valid_for = previous.content, stamp
    else:
        try:
            content, valid_for = caching.read_unedited(selectors.page_content)
        except DatabaseError as error:
            reason = " ".join(str(error).split())  # psycopg's messages span lines
            logger.warning("status page served from memory, the database is unreachable: %s", reason)
            content = default_content(at=now) if previous is None else previous.content
            reading = unreachable_reading(now)
            snapshot = None if content is None else selectors.page_snapshot(content=content, reading=reading)
            return Held(content=content, stamp=None, snapshot=snapshot, read_at=now)
    if content is None:
        return Held(content=None, stamp=valid_for, snapshot=None, read_at=now)
    reading = read_mirror() if content.has_live_components else None
    snapshot = selectors.page_snapshot(content=content, reading=reading)
    return Held(content=content, stamp=valid_for, snapshot=snapshot, read_at=now)
