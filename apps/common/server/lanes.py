"""A server worker's threads, by what their requests wait on.

`scripts/run-server` gives each worker MIRROR_THREADS threads for reads, which wait on the
database, and MIRROR_SIDE_THREADS more, the side lanes, for requests that wait on something
else: the rest of their body (`apps.common.server.request_body`) or a contract executor's answer
(`apps.contracts.evm.pool`).

- `ThreadLanes` keeps reads to their number of threads at once: more only took turns at
  the interpreter lock. A read arriving with every turn held is run by a thread holding
  one. The routes that wait on the side (declared by their app with `side_route`) take no
  read turn.
- A side wait takes one of `side_lanes` without waiting (`take_side_lane`; a side route's
  request holds it from its body to its answer); a request finding none free is answered
  at once, a side route's with its own "too busy". So side waits never hold more threads
  than the side lanes, and the reads always keep theirs (and granian, which sends the 408
  of an unfinished body only while some thread is not reading one, always has such a
  thread).
- While nothing waits on the side, the side threads stand by out of granian's sight
  (`_SideLanes`), so that granian hands every request to the read threads.
"""

import threading
from collections import deque
from collections.abc import Callable
from re import Pattern
from typing import NamedTuple

from django.conf import settings

from apps.common.server.granian_protocol import GRANIAN_PROTOCOL, send_answer

__all__ = (
    "SideRoute",
    "ThreadLanes",
    "give_side_lane",
    "holds_side_lane",
    "side_route",
    "side_route_of",
    "take_side_lane",
)

_holder = threading.local()


class _SideLanes:
    """The side lanes of a worker, and the threads standing by for them.

    granian hands a request to any of its idle threads, so a worker's side threads, idle
    while nothing waits on the side, would be handed reads, taking turns at the interpreter
    lock with the read threads. A thread granian gave a request while the read threads were
    all busy answers it (a read through a turn's holder, `ThreadLanes`) and stands by, out of
    granian's sight, for as long as the side lanes need no thread: granian keeps handing
    requests to the read threads alone.
    A side wait taking a lane sends one standing-by thread back to granian, which the
    reads then have while the waiting thread is away."""

    def __init__(self, lanes: int):
        self._lanes = lanes
        self._taken = 0
        self._standing_by = 0
        self._leaving = 0
        self._condition = threading.Condition(threading.Lock())

    def take(self) -> bool:
        with self._condition:
            if self._taken == self._lanes:
                return False
            self._taken += 1
            # The threads away from granian, standing by or waiting on the side, stay within
            # the side lanes: the read threads' number faces granian.
            if self._standing_by - self._leaving > self._lanes - self._taken:
                self._leaving += 1
                self._condition.notify()
            return True

    def give(self) -> None:
        with self._condition:
            self._taken -= 1

    def stand_by(self) -> None:
        """Returns at once when the side lanes want no more threads standing by; otherwise
        once a side wait wants this thread back at granian."""
        with self._condition:
            if self._standing_by >= self._lanes - self._taken:
                return
            self._standing_by += 1
            while not self._leaving:
                self._condition.wait()
            self._leaving -= 1
            self._standing_by -= 1


# None with MIRROR_SIDE_THREADS=0: no side lanes, every wait on a read's thread as it comes.
side_lanes = _SideLanes(settings.SIDE_THREADS) if settings.SIDE_THREADS else None


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
    if side_lanes is not None and not side_lanes.take():
        return False
    _holder.lane = True
    return True


def give_side_lane() -> None:
    _holder.lane = False
    if side_lanes is not None:
        side_lanes.give()


def holds_side_lane() -> bool:
    return getattr(_holder, "lane", False)


class ThreadLanes:
    """The WSGI application with the side routes apart from the reads' turns. Side requests
    skip `reads_application` (the worker balancer: a worker waiting on the side is not busy).

    A read finding every turn held is handed to a thread holding one, which runs it after its
    own and answers it through granian (`send_answer`). Waiting for a turn instead, each read
    granian gave the side thread cost a hand-over of the turn to a sleeping thread, which on
    busy cores sat idle until the thread was scheduled; the holder is running already.

    A thread granian gave a read or a kept answer while every read thread was busy already
    is one too many facing granian: once its request is answered, it stands by
    (`_SideLanes.stand_by`). Outside granian (no protocol object) every thread answers its
    own request, returning it."""

    def __init__(
        self, application: Callable, reads_application: Callable, reads: int, answer_at_once: Callable | None = None
    ):
        self._application = application
        self._reads_application = reads_application
        self._answer_at_once = answer_at_once
        self._reads = reads
        self._free_turns = reads
        self._inside = 0
        self._handed: deque[_HandedRead] = deque()
        self._lock = threading.Lock()

    def __call__(self, environ: dict, start_response: Callable):
        if side_route_of(environ.get("PATH_INFO", "")) is not None:
            return self._application(environ, start_response)
        with self._lock:
            self._inside += 1
            surplus = self._inside > self._reads
        try:
            status, headers, body, sent = self._answer(environ)
        finally:
            with self._lock:
                self._inside -= 1
        if surplus and side_lanes is not None and (protocol := environ.get(GRANIAN_PROTOCOL)) is not None:
            if not sent:
                send_answer(protocol, status, headers, body)
            side_lanes.stand_by()
        start_response(status, headers)
        return [body]

    def _answer(self, environ: dict) -> tuple[str, list, bytes, bool]:
        """The request's answer, and whether it was sent through granian already."""
        # An answer kept whole (the list-route cache) waits on nothing: it takes no turn.
        if self._answer_at_once is not None and (kept := self._answer_at_once(environ)) is not None:
            return (*kept, False)
        with self._lock:
            if self._free_turns:
                self._free_turns -= 1
                handed = None
            else:
                handed = _HandedRead(environ)
                self._handed.append(handed)
        if handed is not None:
            return (*handed.answer(), GRANIAN_PROTOCOL in environ)
        try:
            own = self._run(environ)
        except BaseException:
            self._run_handed_reads(None)
            raise
        return (*own, self._run_handed_reads((environ, own)))

    def _run(self, environ: dict) -> tuple[str, list, bytes]:
        started = []
        result = self._reads_application(environ, lambda status, headers, exc_info=None: started.extend((status, headers)))
        try:
            body = result[0] if isinstance(result, list) and len(result) == 1 else b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return started[0], started[1], body

    def _run_handed_reads(self, own: tuple[dict, tuple] | None) -> bool:
        """Runs the reads handed to this thread's turn, then gives the turn back. The thread's
        own answer is sent first, rather than held while the handed reads run; True if it was."""
        sent = False
        while True:
            with self._lock:
                if not self._handed:
                    self._free_turns += 1
                    return sent
                handed = self._handed.popleft()
            if own is not None and not sent and (protocol := own[0].get(GRANIAN_PROTOCOL)) is not None:
                send_answer(protocol, *own[1])
                sent = True
            try:
                handed.answered_with(self._run(handed.environ))
            except BaseException as error:  # noqa: BLE001  (raised again on the read's own thread)
                handed.failed_with(error)


class _HandedRead:
    __slots__ = ("environ", "_done", "_answer", "_error")

    def __init__(self, environ: dict):
        self.environ = environ
        self._done = threading.Lock()
        self._done.acquire()
        self._answer = None
        self._error = None

    def answered_with(self, answer: tuple[str, list, bytes]) -> None:
        if (protocol := self.environ.get(GRANIAN_PROTOCOL)) is not None:
            send_answer(protocol, *answer)
        self._answer = answer
        self._done.release()

    def failed_with(self, error: BaseException) -> None:
        self._error = error
        self._done.release()

    def answer(self) -> tuple[str, list, bytes]:
        """Waits until the read has run; its answer (under granian, sent already)."""
        self._done.acquire()
        if self._error is not None:
            raise self._error
        return self._answer
