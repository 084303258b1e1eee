"""Worker balancing: moves keep-alive connections off a saturated worker while a sibling idles.

Each worker process of the production server listens on a socket of its own
(SO_REUSEPORT), and the kernel gives a new connection to a worker by a hash of
its addresses, blind to load. A client holding a few keep-alive connections can
so have all of them on one worker: that worker then serves them at one core's
rate while the others idle, for as long as the connections live (in a side by
side benchmark, about one run in eight of four connections over two workers).

The workers of one server share a `LoadBoard`: a small file each maps, with one
slot per worker holding how busy it was over the last window (the share of the
window with a request in flight). A `WorkerBalancer` wraps the WSGI
application: it measures that share and, from a thread of its own, publishes it
every window. When its worker stayed saturated while a sibling idled for a few
windows in a row, it ends the worker's next response with `Connection: close`;
the client reconnects and the kernel hashes the new connection afresh, onto the
idle worker with the odds of one worker in N. It asks again after as many
windows while the imbalance lasts, and drops the request once it ends. Balanced
loads (every worker busy, or every worker idle) and one slow request never close
a connection.

A WSGI application may not set hop-by-hop headers (PEP 3333), and Django's
development server rejects them: only `scripts/run-server` (granian, whose HTTP
layer honours the header) turns this on, and only with more than one worker.
"""

import fcntl
import logging
import mmap
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable

__all__ = ("LoadBoard", "WorkerBalancer", "balanced")

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 0.05
# Windows in a row a worker must be saturated beside an idle sibling before it closes a
# connection: more than a slow request lasts, little against the seconds a connection lives.
IMBALANCED_WINDOWS = 3
# A slot not refreshed for this long belongs to a worker that is gone.
STALE_AFTER_NS = 1_000_000_000
SATURATED = 0.8
IDLE = 0.25

# pid, last refresh (CLOCK_MONOTONIC ns, one clock for every process of the host),
# busy share of the last window in parts per million.
_SLOT = struct.Struct("<qqq")
_SLOTS = 64


class LoadBoard:
    """The busy shares of one server's workers, in a file every worker maps."""

    def __init__(self, path: str, *, clock: Callable[[], int] = time.monotonic_ns):
        self._clock = clock
        size = _SLOT.size * _SLOTS
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            # Two workers starting together must not take the same slot.
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            if os.fstat(descriptor).st_size < size:
                os.ftruncate(descriptor, size)
            self._map = mmap.mmap(descriptor, size)
            self.slot = self._claim()
        finally:
            # Explicitly: the mapping keeps a duplicate of the descriptor, and with it the lock.
            fcntl.flock(descriptor, fcntl.LOCK_UN)
            os.close(descriptor)

    def _claim(self) -> int | None:
        """The first slot no live worker refreshes (None: more workers than slots)."""
        for slot in range(_SLOTS):
            if not self._is_live(slot):
                self.publish(0.0, slot=slot)
                return slot
        return None

    def _is_live(self, slot: int) -> bool:
        _, refreshed, _ = _SLOT.unpack_from(self._map, slot * _SLOT.size)
        # A refresh from the future was written before the host restarted.
        return 0 <= self._clock() - refreshed < STALE_AFTER_NS and refreshed != 0

    def publish(self, busy_share: float, *, slot: int | None = None) -> None:
        slot = self.slot if slot is None else slot
        if slot is not None:
            _SLOT.pack_into(self._map, slot * _SLOT.size, os.getpid(), self._clock(), round(busy_share * 1e6))

    def sibling_shares(self) -> list[float]:
        """The busy shares the other live workers published last."""
        return [
            _SLOT.unpack_from(self._map, slot * _SLOT.size)[2] / 1e6
            for slot in range(_SLOTS)
            if slot != self.slot and self._is_live(slot)
        ]


def _closing(start_response: Callable) -> Callable:
    def start_closing_response(status, headers, exc_info=None):
        headers.append(("Connection", "close"))
        return start_response(status, headers, exc_info)

    return start_closing_response


class WorkerBalancer:
    """The WSGI application of one worker, measured and published on a `LoadBoard`."""

    def __init__(self, application: Callable, board: LoadBoard, *, clock: Callable[[], int] = time.monotonic_ns):
        self._application = application
        self._board = board
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight = 0
        self._busy_since = 0
        self._busy_ns = 0
        self._window_start = clock()
        self._imbalanced_windows = 0
        self._close_next = False

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        with self._lock:
            if not self._in_flight:
                self._busy_since = self._clock()
            self._in_flight += 1
            close = self._close_next
            if close:
                self._close_next = False
                self._imbalanced_windows = 0
        try:
            return self._application(environ, _closing(start_response) if close else start_response)
        finally:
            with self._lock:
                self._in_flight -= 1
                if not self._in_flight:
                    self._busy_ns += self._clock() - self._busy_since

    def end_window(self) -> None:
        """Publishes the closing window's busy share; asks for a close while the imbalance lasts."""
        with self._lock:
            now = self._clock()
            busy_ns = self._busy_ns + (now - self._busy_since if self._in_flight else 0)
            if self._in_flight:
                self._busy_since = now
            self._busy_ns = 0
            window_ns, self._window_start = now - self._window_start, now
        share = min(busy_ns / window_ns, 1.0) if window_ns > 0 else 0.0
        self._board.publish(share)
        imbalanced = share >= SATURATED and any(sibling <= IDLE for sibling in self._board.sibling_shares())
        with self._lock:
            self._imbalanced_windows = self._imbalanced_windows + 1 if imbalanced else 0
            self._close_next = self._imbalanced_windows >= IMBALANCED_WINDOWS

    def start(self) -> "WorkerBalancer":
        """Ends a window every WINDOW_SECONDS from a daemon thread."""

        def run() -> None:
            while True:
                time.sleep(WINDOW_SECONDS)
                self.end_window()

        threading.Thread(target=run, name="worker-balancer", daemon=True).start()
        return self


def balanced(application: Callable, board_path: str) -> Callable:
    """`application` balanced on the board at `board_path`; as it is when the board cannot be
    opened (the worker then serves, unbalanced, rather than fail to start)."""
    try:
        board = LoadBoard(board_path)
    except OSError as error:
        logger.warning("Worker balancing is off: the load board %s cannot be opened (%s)", board_path, error)
        return application
    return WorkerBalancer(application, board).start()
