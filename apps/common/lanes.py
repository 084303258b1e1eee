"""A server worker's threads, by what their requests wait on.

`scripts/run-server` gives each worker MIRROR_THREADS threads for reads, which wait on the
database, and MIRROR_SIDE_THREADS more, the side lanes, for requests that wait on something
else: the rest of their body (`apps.common.request_body`) or a contract executor's answer
(`apps.contracts.evm.pool`).

- `ThreadLanes` keeps reads to their number of threads at once (`Turns`): more only took
  turns at the interpreter lock. The routes that wait on the side (declared by their app
  with `side_route`) take no read turn.
- A side wait takes one of `side_lanes` without waiting; a request finding none free is
  answered at once. So side waits never hold more threads than the side lanes, and the
  reads always keep theirs (and granian, which sends the 408 of an unfinished body only
  while some thread is not reading one, always has such a thread).
"""

import threading
from collections import deque
from collections.abc import Callable
from re import Pattern

from django.conf import settings

__all__ = ("ThreadLanes", "Turns", "side_lanes", "side_route")

side_lanes = threading.BoundedSemaphore(settings.SIDE_THREADS)
# (path prefix, pattern of the whole path): the prefix keeps the check to a string
# comparison for every other request.
_side_routes: list[tuple[str, Pattern]] = []


def side_route(prefix: str, path: Pattern) -> None:
    """Declares the paths starting with `prefix` and matching `path` as waiting on the side."""
    _side_routes.append((prefix, path))


class ThreadLanes:
    """The WSGI application with the side routes apart from the reads' turns. Side requests
    skip `reads_application` (the worker balancer: a worker waiting on the side is not busy)."""

    def __init__(self, application: Callable, reads_application: Callable, reads: int):
        self._application = application
        self._reads_application = reads_application
        self._read_turns = Turns(reads)

    def __call__(self, environ: dict, start_response: Callable):
        path = environ.get("PATH_INFO", "")
        for prefix, pattern in _side_routes:
            if path.startswith(prefix) and pattern.fullmatch(path):
                return self._application(environ, start_response)
        self._read_turns.take()
        try:
            return self._reads_application(environ, start_response)
        finally:
            self._read_turns.give()


class Turns:
    """A semaphore that hands a released turn to the longest waiter: a thread that just gave
    one up, and takes the interpreter lock first, cannot take it back ahead of the others
    (with a plain semaphore it did, again and again, and some reads waited long)."""

    def __init__(self, turns: int):
        self._free = turns
        self._waiters: deque[threading.Lock] = deque()
        self._lock = threading.Lock()

    def take(self) -> None:
        with self._lock:
            if self._free:
                self._free -= 1
                return
            handed = threading.Lock()
            handed.acquire()
            self._waiters.append(handed)
        handed.acquire()

    def give(self) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._free += 1
