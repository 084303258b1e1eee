"""One poller per process, fanning each feed's new rows out to every open stream of it.

The importer sends no notification, so a thread reads each feed that has a
subscriber past its cursor every poll interval (feeds.py: index range scans),
renders each new row once and hands the events to every subscriber of the feed:
the database load is one read per open feed per interval, whatever the number
of subscribers. A database failure is logged and retried with a growing pause;
cursors are kept, so nothing is skipped once it answers again.

The cut between replay and live is exact: a subscriber learns the feed's cursor
under the same lock that advances it and fans out, so every event past that
cursor reaches its queue and everything up to it is the replay's.
"""

import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from django.db import close_old_connections, connection

from apps.common.database.replicas import reading_a_replica
from apps.streams.feeds import PAGE_SIZE, Event, Feed, StreamRequest

__all__ = ("Hub", "Subscriber")

logger = logging.getLogger("apps.streams")
MAX_BACKOFF_SECONDS = 10.0


class Subscriber:
    """An open stream's end of the hub; its methods run on the stream's event loop."""

    def __init__(self, request: StreamRequest, *, capacity: int):
        self.request = request
        self.capacity = capacity
        self.loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[int] = self.loop.create_future()
        self.pending: deque[Event] = deque()
        self.wake = asyncio.Event()
        self.dropped = False

    def start(self, cursor: int) -> None:
        if not self.ready.done():
            self.ready.set_result(cursor)

    def deliver(self, events: list[Event]) -> None:
        if self.dropped:
            return
        wanted = [event for event in events if self.request.wants(event.row)]
        if len(self.pending) + len(wanted) > self.capacity:
            # A client that reads too slowly is let go rather than buffered for without limit.
            self.dropped = True
            self.pending.clear()
        else:
            self.pending.extend(wanted)
        self.wake.set()


@dataclass
class _FeedState:
    cursor: int | None = None
    subscribers: set[Subscriber] = field(default_factory=set)


class Hub:
    def __init__(self, *, interval: float):
        self.interval = interval
        self._lock = threading.Lock()
        self._feeds: dict[Feed, _FeedState] = {}
        self._woken = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def subscribe(self, subscriber: Subscriber) -> None:
        """Called on the subscriber's loop; `subscriber.ready` gives the cursor to replay up to."""
        with self._lock:
            state = self._feeds.get(subscriber.request.feed)
            if state is None:
                state = self._feeds[subscriber.request.feed] = _FeedState()
                # A new feed is read at once, so its first stream starts without waiting a poll.
                self._woken.set()
            state.subscribers.add(subscriber)
            if state.cursor is not None:
                subscriber.start(state.cursor)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stream-poller", daemon=True)
                self._thread.start()

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            state = self._feeds.get(subscriber.request.feed)
            if state is not None:
                state.subscribers.discard(subscriber)
                if not state.subscribers:
                    del self._feeds[subscriber.request.feed]

    def stop(self) -> None:
        """Ends the poller (its database connection closes with it)."""
        with self._lock:
            self._stopped = True
            thread = self._thread
        self._woken.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        try:
            self._poll_until_stopped()
        finally:
            connection.close()

    def _poll_until_stopped(self) -> None:
        backoff = self.interval
        while not self._stopped:
            started = time.monotonic()
            self._woken.clear()
            try:
                close_old_connections()
                with reading_a_replica():
                    behind = self._poll()
                backoff = self.interval
            except Exception:
                logger.warning("stream poll failed; retrying in %.1f s", backoff, exc_info=True)
                connection.close()
                self._woken.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
                continue
            if behind:
                continue
            with self._lock:
                idle = not self._feeds
            if idle:
                self._woken.wait()
            else:
                self._woken.wait(max(0.0, self.interval - (time.monotonic() - started)))

    def _poll(self) -> bool:
        """One read of every open feed; True when some feed has more rows waiting."""
        with self._lock:
            feeds = [(feed, state.cursor) for feed, state in self._feeds.items()]
        behind = False
        for feed, cursor in feeds:
            if cursor is None:
                self._advance(feed, None, feed.latest(), [])
                continue
            events = feed.events_after(cursor)
            if events:
                behind |= len(events) == PAGE_SIZE
                self._advance(feed, cursor, events[-1].timestamp, events)
        return behind

    def _advance(self, feed: Feed, cursor: int | None, new_cursor: int, events: list[Event]) -> None:
        with self._lock:
            state = self._feeds.get(feed)
            # Gone, or closed and opened again since it was read: the new one starts afresh.
            if state is None or state.cursor != cursor:
                return
            state.cursor = new_cursor
            for subscriber in state.subscribers:
                try:
                    if events:
                        subscriber.loop.call_soon_threadsafe(subscriber.deliver, events)
                    else:
                        subscriber.loop.call_soon_threadsafe(subscriber.start, new_cursor)
                except RuntimeError:
                    # Its loop has closed: the stream is gone with it.
                    pass
