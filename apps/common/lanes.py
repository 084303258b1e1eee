"""A server worker's threads, by what their requests wait on.

`scripts/run-server` gives each worker MIRROR_THREADS threads for reads, which wait on the
database, and MIRROR_SIDE_THREADS more, the side lanes, for requests that wait on something
else: the rest of their body (`apps.common.request_body`) or a contract executor's answer
(`apps.contracts.evm.pool`).

- `ThreadLanes` keeps reads to their number of threads at once (`Turns`): more only took
  turns at the interpreter lock. The routes that wait on the side (declared by their app
  with `side_route`) take no read turn.
- A side wait takes one of `side_lanes` without waiting (`take_side_lane`; a side route's
  request holds it from its body to its answer); a request finding none free is answered
  at once, a side route's with its own "too busy". So side waits never hold more threads than the side lanes, and the
  reads always keep theirs (and granian, which sends the 408 of an unfinished body only
  while some thread is not reading one, always has such a thread).
"""

import threading
from collections import deque
from collections.abc import Callable
from re import Pattern
from typing import NamedTuple

from django.conf import settings

__all__ = (
    "SideRoute",
    "ThreadLanes",
    "Turns",
    "give_side_lane",
    "holds_side_lane",
    "side_route",
    "side_route_of",
    "take_side_lane",
)

# None with MIRROR_SIDE_THREADS=0: no side lanes, every wait on a read's thread as it comes.
side_lanes = threading.BoundedSemaphore(settings.SIDE_THREADS) if settings.SIDE_THREADS else None
_holder = threading.local()


class SideRoute(NamedTuple):
    # A string comparison keeps the check cheap for every other request.
    prefix: str
    path: Pattern
    # The answer when no side lane is free: the route's own "too busy".
    busy_status: str
    busy_body: bytes


_side_routes: list[SideRoute] = []


def side_route(route: SideRoute) -> None:
    """Declares the paths starting with `route.prefix` and matching `route.path` as waiting
    on the side: they take a side lane, held for the whole request, and no read turn."""
    _side_routes.append(route)


def side_route_of(path: str) -> SideRoute | None:
    for route in _side_routes:
        if path.startswith(route.prefix) and route.path.fullmatch(path):
            return route
    return None


def take_side_lane() -> bool:
    """Takes a side lane for this thread, if one is free (`give_side_lane` gives it back)."""
    if side_lanes is not None and not side_lanes.acquire(blocking=False):
        return False
    _holder.lane = True
    return True


def give_side_lane() -> None:
    _holder.lane = False
    if side_lanes is not None:
        side_lanes.release()


def holds_side_lane() -> bool:
    return getattr(_holder, "lane", False)


class ThreadLanes:
    """The WSGI application with the side routes apart from the reads' turns. Side requests
    skip `reads_application` (the worker balancer: a worker waiting on the side is not busy)."""

    def __init__(
        self, application: Callable, reads_application: Callable, reads: int, answer_at_once: Callable | None = None
    ):
        self._application = application
        self._reads_application = reads_application
        self._read_turns = Turns(reads)
        self._answer_at_once = answer_at_once

    def __call__(self, environ: dict, start_response: Callable):
        if side_route_of(environ.get("PATH_INFO", "")) is not None:
            return self._application(environ, start_response)
        # An answer kept whole (the list-route cache) waits on nothing: it takes no turn, so a
        # read landing on the side thread does not wait for one either.
        if self._answer_at_once is not None and (answer := self._answer_at_once(environ, start_response)):
            return answer
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
