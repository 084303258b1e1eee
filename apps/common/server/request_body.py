"""Request bodies read whole, within a time limit, before the application sees them.

granian calls the application as soon as a request's head is in; reading `wsgi.input` then
waits for as long as the client takes to send the body, and nothing in the application can
interrupt that read. So a client sending the head of a POST and one byte of its body held a
worker thread for as long as it kept the socket open. And Django reads a body by its
Content-Length: a chunked body read as empty.

`bodies_read_in_time(application)` reads the body of each request that has one before
calling `application`:

- a body of at most `settings.DATA_UPLOAD_MAX_MEMORY_SIZE` bytes, received within
  `settings.REQUEST_BODY_TIMEOUT` seconds, is handed over in memory (`wsgi.input` a
  `BytesIO`, CONTENT_LENGTH its length, whatever its framing);
- a body declared larger is not read: the route answers its 413 as before; a chunked one
  turning out larger is cut at the limit plus one byte, which the route refuses alike;
- a body not complete in time is answered 408 in the envelope, and the connection is
  closed. The thread reading it can neither answer nor stop reading, so the process's
  deadline thread answers, through the request's granian protocol
  (`apps.common.server.granian_protocol`), then shuts the connection's socket down, which ends the read.
  granian does not say which socket a request came on: the socket is the one of the
  client's address whose delivered bytes grew by about the answer's size just then
  (`_answered_connections`).

Under granian a request waits for its body on a side lane (`apps.common.server.lanes`), never on
a read's turn; one finding no side lane free is answered at once, its body unread: 503, or
a side route's own "too busy". A side route's request keeps its lane until it is answered.

Outside granian (the test client, a management command) a body is in memory already and
is read as it is.
"""

import contextlib
import heapq
import io
import itertools
import os
import socket
import struct
import threading
import time

import orjson
from django.conf import settings

from apps.common.api.exceptions import error_body
from apps.common.server.granian_protocol import GRANIAN_PROTOCOL, send_answer
from apps.common.server.lanes import (
    give_side_lane,
    holds_side_lane,
    side_route_of,
    take_side_lane,
)

__all__ = ("bodies_read_in_time",)

_TIMEOUT_BODY = orjson.dumps(error_body("Request timeout"))
_INCOMPLETE_BODY = orjson.dumps(error_body("Bad request"))
_BUSY_BODY = orjson.dumps(error_body("Service unavailable"))
_ENVELOPE_HEADERS = [
    ("Content-Type", "application/json; charset=utf-8"),
    ("X-Content-Type-Options", "nosniff"),
    ("Connection", "close"),
]


class _BodyWait:
    __slots__ = ("protocol", "client", "port", "ended", "timed_out")

    def __init__(self, protocol, client: str, port: str):
        self.protocol = protocol
        self.client = client
        self.port = port
        self.ended = False
        self.timed_out = False


class _Deadlines:
    """One thread per process answering 408 for the body waits past their deadline."""

    def __init__(self):
        self._condition = threading.Condition()
        self._heap: list[tuple[float, int, _BodyWait]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, environ: dict) -> _BodyWait:
        with self._condition:
            wait = _BodyWait(environ[GRANIAN_PROTOCOL], environ.get("REMOTE_ADDR", ""), environ.get("SERVER_PORT", ""))
            heapq.heappush(self._heap, (time.monotonic() + settings.REQUEST_BODY_TIMEOUT, next(self._order), wait))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="request-body-deadlines", daemon=True)
                self._thread.start()
            self._condition.notify()
            return wait

    def end(self, wait: _BodyWait) -> bool:
        """Marks the wait ended; False when its deadline had answered it already."""
        with self._condition:
            wait.ended = True
            return not wait.timed_out

    def _run(self) -> None:
        while True:
            with self._condition:
                while self._heap and self._heap[0][2].ended:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._condition.wait()
                    continue
                deadline, _, wait = self._heap[0]
                left = deadline - time.monotonic()
                if left > 0:
                    self._condition.wait(left)
                    continue
                heapq.heappop(self._heap)
                wait.timed_out = True
            _answer_and_close(wait)


_deadlines = _Deadlines()

# How long the socket of an answered connection is looked for, and how often.
_LOOK_SECONDS = 0.5
_LOOK_EVERY = 0.005
# What granian adds to an answer's body: its status line and headers.
_ANSWER_HEAD_BYTES = range(0, 512)
# struct tcp_info (linux/tcp.h): tcpi_bytes_acked, the bytes the peer has received.
_TCP_INFO_SIZE = 232
_BYTES_ACKED = struct.Struct("=Q")
_BYTES_ACKED_OFFSET = 120


def _answer_and_close(wait: _BodyWait) -> None:
    before = _client_connections(wait.client, wait.port)
    try:
        send_answer(wait.protocol, "408 Request Timeout", _ENVELOPE_HEADERS, _TIMEOUT_BODY)
        for connection in _answered_connections(before, len(_TIMEOUT_BODY)):
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
    finally:
        for connection in before:
            connection.close()


def _client_connections(client: str, port: str) -> dict[socket.socket, int]:
    """The process's connections from `client` to its `port` (duplicates of their
    descriptors, valid whatever becomes of the originals), with the bytes each delivered."""
    connections = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            if not os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                continue
            connection = socket.socket(fileno=os.dup(int(name)))
        except OSError:
            continue
        try:
            if (
                connection.type == socket.SOCK_STREAM
                and connection.family in (socket.AF_INET, socket.AF_INET6)
                and str(connection.getsockname()[1]) == port
                and connection.getpeername()[0] == client
            ):
                connections[connection] = _bytes_delivered(connection)
                continue
        except OSError:
            pass
        connection.close()
    return connections


def _answered_connections(before: dict[socket.socket, int], body_bytes: int) -> list[socket.socket]:
    """The connections of `before` that delivered an answer of a body of `body_bytes` since."""
    deadline = time.monotonic() + _LOOK_SECONDS
    while time.monotonic() < deadline:
        time.sleep(_LOOK_EVERY)
        answered = [
            connection
            for connection, delivered in before.items()
            if _delivered_since(connection, delivered) - body_bytes in _ANSWER_HEAD_BYTES
        ]
        if answered:
            return answered
    return []


def _delivered_since(connection: socket.socket, delivered: int) -> int:
    try:
        return _bytes_delivered(connection) - delivered
    except OSError:
        return -1


def _bytes_delivered(connection: socket.socket) -> int:
    info = connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCP_INFO_SIZE)
    return _BYTES_ACKED.unpack_from(info, _BYTES_ACKED_OFFSET)[0]


def bodies_read_in_time(application):
    def read_body_first(environ, start_response):
        side = side_route_of(environ.get("PATH_INFO", ""))
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        declared = environ.get("CONTENT_LENGTH")
        has_body = chunked or (declared and declared != "0")
        if not has_body and side is None:
            return application(environ, start_response)
        if GRANIAN_PROTOCOL in environ and not take_side_lane():
            if side is not None:
                start_response(side.busy_status, [*_ENVELOPE_HEADERS, ("Retry-After", "1")])
                return [side.busy_body]
            start_response("503 Service Unavailable", [*_ENVELOPE_HEADERS, ("Retry-After", "1")])
            return [_BUSY_BODY]
        lane_taken = holds_side_lane()
        try:
            if has_body and (refusal := _read_body(environ, chunked, declared)) is not None:
                status, body = refusal
                start_response(status, _ENVELOPE_HEADERS)
                return [body]
            if side is None and lane_taken:
                give_side_lane()  # the body is in: the request now takes a read turn
                lane_taken = False
            return application(environ, start_response)
        finally:
            if lane_taken:
                give_side_lane()

    return read_body_first


def _read_body(environ: dict, chunked: bool, declared: str) -> tuple[str, bytes] | None:
    """Reads the body into `environ`; the answer to give instead when it cannot."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    size = limit + 1 if chunked else _length(declared)
    if size is None or (not chunked and size > limit):
        environ["wsgi.input"] = io.BytesIO()  # the route refuses it by its declared length
        return None
    if GRANIAN_PROTOCOL not in environ:
        body = environ["wsgi.input"].read(size)
    else:
        wait = _deadlines.watch(environ)
        try:
            body = environ["wsgi.input"].read(size)
        finally:
            answered = not _deadlines.end(wait)
        if answered:
            # Answered 408 already; granian ignores a second answer.
            return "408 Request Timeout", _TIMEOUT_BODY
    if not chunked and len(body) < size:
        # The client closed the connection mid-body: nobody reads this answer.
        return "400 Bad Request", _INCOMPLETE_BODY
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    return None


def _length(declared: str) -> int | None:
    try:
        return int(declared)
    except ValueError:
        return None  # Django's reading of it stands
