"""Notices a database server that stopped answering, so that requests stop waiting on it.

A frozen server (its processes stopped, its storage stalled, its network lost) answers
nothing and cancels nothing: every request would wait out its round-trip timeout, holding
the worker, and the health probe and the status page would queue behind it.

Each server process watches every database server it connects to, the primary and each
read replica alike, with one `DatabaseWatch` per server (`watch_of`; `start()`, called by
`mirror.wsgi`, sets them going). Every round trip of a request registers itself with its
server's watch while it waits (`apps.common.database.connections`). When one has waited
`settings.DATABASE_PROBE_AFTER` seconds, the watch asks that server `select 1` on a
connection of its own, and again every as long while round trips keep waiting. A live
server answers it however long the request's own statement runs; a probe unanswered for
`settings.DATABASE_PROBE_TIMEOUT` seconds makes the server *unresponsive*:

- the round trips waiting on it are ended (their sockets shut down): each request fails
  with `UNRESPONSIVE`, which answers 503 on the primary, and on a replica has the request
  served again elsewhere (`apps.common.database.replicas`);
- until a probe is answered again, a connection or statement meant for that server fails
  at once (`refuse_while_unresponsive`), and the routes that need no database (liveness,
  the status page's snapshot, kept list answers) answer as usual;
- the watch probes again every `DATABASE_PROBE_RETRY` seconds, reconnecting as needed.

Each watch runs in a thread of its own: probing a frozen replica must not delay the
verdict on the primary. Without `start()` (management commands, the test client) nothing is
ever declared unresponsive, and a round trip is bounded by
`settings.DATABASE_ROUND_TRIP_TIMEOUT` only.
"""

import logging
import os
import socket
import threading
import time
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

__all__ = (
    "UNRESPONSIVE",
    "DatabaseWatch",
    "connecting_to",
    "connection_parameters",
    "start",
    "watch_of",
    "watched_connecting",
)

logger = logging.getLogger(__name__)

UNRESPONSIVE = "the database does not answer"
# Keys Django adds to a connection's parameters for its own cursors and adapters.
_DJANGO_ONLY_PARAMETERS = ("context", "cursor_factory", "prepare_threshold")


class DatabaseWatch:
    """The watch over one database server, probed with `parameters`, named in logs as `name`."""

    def __init__(self, name: str, parameters: dict):
        self.name = name
        self.parameters = parameters
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
            self._thread = threading.Thread(target=self._run, name=f"database-watch {self.name}", daemon=True)
            self._thread.start()

    def refuse_while_unresponsive(self) -> None:
        if self.unresponsive:
            raise psycopg.OperationalError(UNRESPONSIVE)

    def _run(self) -> None:
        # Connected ahead: a probe needing to connect first could only be slower.
        self._connect()
        tick = min(settings.DATABASE_PROBE_AFTER, settings.DATABASE_PROBE_RETRY) / 2
        while True:
            time.sleep(tick)
            try:
                self._look()
            except Exception:  # the watch must outlive anything a probe raises
                logger.exception("the watch of %s failed a turn", self.name)

    def _look(self) -> None:
        now = time.monotonic()
        if self.unresponsive:
            self._end_waits()
            if now - self._last_probe >= settings.DATABASE_PROBE_RETRY and self._probe():
                self.unresponsive = False
                logger.warning("%s answers again", self.name)
            return
        probe_after = settings.DATABASE_PROBE_AFTER
        oldest = min((began for began, _ in list(self.waits.values())), default=now)
        if now - oldest < probe_after or now - self._last_probe < probe_after:
            return
        if not self._probe():
            self.unresponsive = True
            logger.error(
                "%s does not answer: a probe got no answer within %g s; its requests fail until one does",
                self.name,
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
            self._probe_connection = _probe_connection(self.parameters)
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
    return _own_parameters(connections[alias])


def _own_parameters(connection) -> dict:
    parameters = connection.get_connection_params()
    for name in _DJANGO_ONLY_PARAMETERS:
        parameters.pop(name, None)
    return parameters


def _probe_connection(parameters: dict) -> psycopg.Connection:
    probe = psycopg.connect(**parameters, autocommit=True)
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


# (host, port, database) -> its watch. Written under the lock, read without it.
_watches: dict[tuple, DatabaseWatch] = {}
_watches_lock = threading.Lock()
_started = False


def _server(settings_dict: dict) -> tuple:
    return settings_dict["HOST"], settings_dict["PORT"], settings_dict["NAME"]


def watch_of(connection) -> DatabaseWatch:
    """The watch over the server of `connection` (a Django connection): one per server, shared
    by every alias that connects to it (the API's and the admin's, say)."""
    server = _server(connection.settings_dict)
    found = _watches.get(server)
    if found is not None:
        return found
    with _watches_lock:
        found = _watches.get(server)
        if found is None:
            primary = server == _server(connections.settings[DEFAULT_DB_ALIAS])
            name = "the database" if primary else f"the database {server[2]} at {server[0] or 'localhost'}:{server[1]}"
            found = _watches[server] = DatabaseWatch(name, _own_parameters(connection))
            if _started:
                found.start()
    return found


def start() -> None:
    """Starts this process's watches, the primary's at once and each other's as it is first
    connected to (once; a server process calls it as it loads)."""
    global _started
    with _watches_lock:
        _started = True
        for each in _watches.values():
            each.start()
    watch_of(connections[DEFAULT_DB_ALIAS]).start()


_connecting_to = threading.local()


@contextmanager
def connecting_to(server_watch: DatabaseWatch):
    """A connection attempt in the block is shown to `server_watch`."""
    _connecting_to.watch = server_watch
    try:
        yield
    finally:
        _connecting_to.watch = None


def watched_connecting(gen):
    """psycopg's connection generator, its socket shown to the watch of the server it connects
    to (`connecting_to`) while it waits: a server frozen before it accepted the connection ends
    the attempt as it ends a query.

    Each step may replace the socket (libpq retries), so the one shown is taken off before
    the next step runs: the watch never shuts down a descriptor the attempt has closed."""
    server_watch = getattr(_connecting_to, "watch", None)
    if server_watch is None:
        return (yield from gen)
    token = object()
    began = time.monotonic()
    answer = None
    waits, ending = server_watch.waits, server_watch.ending
    try:
        while True:
            with ending:
                waits.pop(token, None)
            try:
                descriptor, wait = gen.send(answer)
            except StopIteration as done:
                return done.value
            waits[token] = (began, descriptor)
            answer = yield descriptor, wait
    finally:
        with ending:
            waits.pop(token, None)
