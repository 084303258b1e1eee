"""Notices a database that stopped answering, so that requests stop waiting on it.

A frozen server (its processes stopped, its storage stalled, its network lost) answers
nothing and cancels nothing: every request would wait out its round-trip timeout, holding
the worker, and the health probe and the status page would queue behind it.

Each server process runs one watch (`start()`, called by `mirror.wsgi`). Every round trip
of a request registers itself while it waits (`apps.common.database.connections`). When one has waited
`settings.DATABASE_PROBE_AFTER` seconds, the watch asks the server `select 1` on a
connection of its own, and again every as long while round trips keep waiting. A live
server answers it however long the request's own statement runs; a probe unanswered for
`settings.DATABASE_PROBE_TIMEOUT` seconds makes the database *unresponsive*:

- the round trips waiting are ended (their sockets shut down): each request answers 503;
- until a probe is answered again, a request that would connect or send a statement
  answers 503 at once (`refuse_while_unresponsive`), and the routes that need no database
  (liveness, the status page's snapshot, kept list answers) answer as usual;
- the watch probes again every `DATABASE_PROBE_RETRY` seconds, reconnecting as needed.

Without a started watch (management commands, the test client) nothing is ever declared
unresponsive, and a round trip is bounded by `settings.DATABASE_ROUND_TRIP_TIMEOUT` only.
"""

import logging
import os
import socket
import threading
import time

import psycopg
from django.conf import settings
from django.db import connections

__all__ = ("UNRESPONSIVE", "connection_parameters", "refuse_while_unresponsive", "start", "watch", "watched_connecting")

logger = logging.getLogger(__name__)

UNRESPONSIVE = "the database does not answer"
# Keys Django adds to a connection's parameters for its own cursors and adapters.
_DJANGO_ONLY_PARAMETERS = ("context", "cursor_factory", "prepare_threshold")


class DatabaseWatch:
    def __init__(self):
        # Read without a lock on every round trip: a plain attribute, written by the watch only.
        self.unresponsive = False
        # client connection -> (monotonic time its wait began, its socket's descriptor)
        self.waits: dict[object, tuple[float, int]] = {}
        # Held while a wait is taken off, and while the watch shuts sockets down: a socket is
        # shut down only while its wait is registered, so never after its descriptor was reused.
        self.ending = threading.Lock()
        self._probe_connection: psycopg.Connection | None = None
        self._connecting: threading.Thread | None = None
        self._last_probe = 0.0
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if not self.running:
            self._thread = threading.Thread(target=self._run, name="database-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        # Connected ahead: a probe needing to connect first could only be slower.
        self._connect()
        tick = min(settings.DATABASE_PROBE_AFTER, settings.DATABASE_PROBE_RETRY) / 2
        while True:
            time.sleep(tick)
            try:
                self._look()
            except Exception:  # the watch must outlive anything a probe raises
                logger.exception("the database watch failed a turn")

    def _look(self) -> None:
        now = time.monotonic()
        if self.unresponsive:
            self._end_waits()
            if now - self._last_probe >= settings.DATABASE_PROBE_RETRY and self._probe():
                self.unresponsive = False
                logger.warning("the database answers again")
            return
        probe_after = settings.DATABASE_PROBE_AFTER
        oldest = min((began for began, _ in list(self.waits.values())), default=now)
        if now - oldest < probe_after or now - self._last_probe < probe_after:
            return
        if not self._probe():
            self.unresponsive = True
            logger.error(
                "%s: a probe got no answer within %g s; requests answer 503 until one does",
                UNRESPONSIVE,
                settings.DATABASE_PROBE_TIMEOUT,
            )
            self._end_waits()

    def _probe(self) -> bool:
        self._last_probe = time.monotonic()
        probe = self._connected_probe()
        if probe is None:
            return False
        try:
            probe.execute("select 1")
            return True
        except psycopg.Error:
            self._discard_probe_connection()
            return False

    def _connected_probe(self) -> psycopg.Connection | None:
        """The probe's connection; None unless connected within the probe's timeout.

        Connecting to a frozen server waits out the connect timeout: that happens in a thread
        of its own (one at a time), whose connection a later probe uses."""
        if self._probe_connection is not None and not self._probe_connection.closed:
            return self._probe_connection
        if self._connecting is None or not self._connecting.is_alive():
            self._connecting = threading.Thread(target=self._connect, name="database-watch-connect", daemon=True)
            self._connecting.start()
        self._connecting.join(settings.DATABASE_PROBE_TIMEOUT)
        return self._probe_connection

    def _connect(self) -> None:
        try:
            self._probe_connection = _probe_connection()
        except psycopg.Error:
            pass

    def _discard_probe_connection(self) -> None:
        probe, self._probe_connection = self._probe_connection, None
        if probe is not None and not probe.closed:
            _shut_down(probe.pgconn.socket)
            probe.close()

    def _end_waits(self) -> None:
        with self.ending:
            for _, descriptor in list(self.waits.values()):
                _shut_down(descriptor)


def connection_parameters(alias: str) -> dict:
    """psycopg's parameters for a connection of one's own to the database of `alias`."""
    parameters = connections[alias].get_connection_params()
    for name in _DJANGO_ONLY_PARAMETERS:
        parameters.pop(name, None)
    return parameters


def _probe_connection() -> psycopg.Connection:
    probe = psycopg.connect(**connection_parameters("default"), autocommit=True)
    wait = probe.wait

    def wait_at_most_probe_timeout(gen, *args, **kwargs):
        kwargs["timeout"] = settings.DATABASE_PROBE_TIMEOUT
        return wait(gen, *args, **kwargs)

    probe.wait = wait_at_most_probe_timeout
    return probe


def _shut_down(descriptor: int) -> None:
    """Ends whatever waits on the socket: a blocked read returns as if the server had closed it."""
    try:
        with socket.socket(fileno=os.dup(descriptor)) as duplicate:
            duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


watch = DatabaseWatch()


def start() -> None:
    """Starts this process's watch (once; a server process calls it as it loads)."""
    watch.start()


def refuse_while_unresponsive() -> None:
    if watch.unresponsive:
        raise psycopg.OperationalError(UNRESPONSIVE)


def watched_connecting(gen):
    """psycopg's connection generator, its socket shown to the watch while it waits: a
    server frozen before it accepted the connection ends the attempt as it ends a query.

    Each step may replace the socket (libpq retries), so the one shown is taken off before
    the next step runs: the watch never shuts down a descriptor the attempt has closed."""
    token = object()
    began = time.monotonic()
    answer = None
    try:
        while True:
            with watch.ending:
                watch.waits.pop(token, None)
            try:
                descriptor, wait = gen.send(answer)
            except StopIteration as done:
                return done.value
            watch.waits[token] = (began, descriptor)
            answer = yield descriptor, wait
    finally:
        with watch.ending:
            watch.waits.pop(token, None)
