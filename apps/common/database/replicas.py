"""API reads on streaming replicas of the primary, chosen per request, around the ones that fail or lag.

`MIRROR_DATABASE_REPLICAS` (comma-separated URLs) makes one database alias per replica,
`replica_0`, `replica_1`, ... (mirror/settings.py). Without it nothing here runs: an API
request reads `default` as it always did.

With replicas, each `/api/` request (`routed`, wrapped around the API middleware chain once,
when the handler loads) is served on one replica, chosen in turn among those in use: for the
request's length this thread's `default` alias is a connection to that replica, so every
statement of the request, through the ORM or `statement_cursor`, takes it. Everything else
reads and writes the primary: the admin site and its sessions and login attempts, the
status page's edits, the health probes and the management commands are not `/api/` requests.

A replica is out of use
- for `BACK_OFF_SECONDS` after it refused a connection, dropped one or did not answer in time;
- while the database watch of its server finds it unresponsive (`apps.common.database.watch`):
  a frozen replica is found so within a fraction of a second, the round trips waiting on it
  are ended, and their requests served again elsewhere (below);
- while its lag (below) is past `settings.REPLICA_MAX_LAG` seconds, or could not be read.
With none in use, requests read the primary.

Pages: a request following `links.next` (its query has a range bound) reads one of the
replicas that had replayed the most WAL at the lag watch's last reading. The page before
may have come from any replica in use; a replica behind it might lack rows that page's
replica had, and a keyset walk on it would skip them (newest first) or stop short of
them (oldest first). Moving to a replica at least as far along never skips or repeats a
row: keys only grow, and the next page starts past the last row given. The watch's view
is at most LAG_INTERVAL_SECONDS old: two replicas that close may still be within that
window of each other, which a replay pause or a replica far behind never is.

The stream poller and the streams' replays read the freshest replicas alike
(`reading_a_replica`): a poll continues from its cursor as a page from the one before.

A request whose replica failed it (its connection could not be made, or broke) is served once
more, on the next replica in use or on the primary: API requests only read, and their answer
has not gone out yet, so a dead replica costs a request time, never an error.

Each process's `LagWatch` thread reads every replica's lag each `LAG_INTERVAL_SECONDS`:
`now() - pg_last_xact_replay_timestamp()` while the WAL it received is not all replayed, 0
once it is (an idle primary writes nothing, and the last replayed commit ages without
the replica being behind; a replica behind that has replayed no commit since it started
counts from its start). Readiness reports it; `/metrics` exports it with whether each
replica is in use.
"""

import itertools
import logging
import re
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from apps.common import observability
from apps.common.database.watch import DatabaseWatch, connection_parameters, watch_of

__all__ = (
    "REPLICA_ALIAS_PREFIX",
    "lag_watch",
    "read_on_primary",
    "reading_a_replica",
    "replica_aliases",
    "replica_states",
    "routed",
)

logger = logging.getLogger(__name__)

REPLICA_ALIAS_PREFIX = "replica_"
BACK_OFF_SECONDS = 5.0
LAG_INTERVAL_SECONDS = 0.5
# A range bound (`gt:`, `lte:`, ...) in a query: every `links.next` has one (apps/common/query/pagination.py).
_RANGE_BOUND = re.compile(r"=(?:g|l)te?(?::|%3a)", re.IGNORECASE)
# What a request answers when its database failed it.
SERVICE_UNAVAILABLE = 503
# Bytes of WAL replayed (written, for a server that is no replica), and seconds behind.
LAG_SQL = (
    "select (coalesce(pg_last_wal_replay_lsn(), pg_current_wal_lsn()) - '0/0'::pg_lsn)::float8,"
    " case when pg_last_wal_receive_lsn() is null or pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() then 0"
    " else extract(epoch from now() - coalesce(pg_last_xact_replay_timestamp(), pg_postmaster_start_time())) end::float8"
)


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith(REPLICA_ALIAS_PREFIX)]


@dataclass
class ReplicaState:
    alias: str
    # The watch over its server, which finds it unresponsive within a fraction of a second.
    watch: DatabaseWatch
    # Seconds behind the primary; None until read, or when it could not be read.
    lag: float | None = None
    # Bytes of WAL replayed, as last read.
    replayed: float | None = None
    out_until: float = 0.0

    def in_use(self, now: float) -> bool:
        return (
            now >= self.out_until
            and self.lag is not None
            and self.lag <= settings.REPLICA_MAX_LAG
            and not self.watch.unresponsive
        )


class Replicas:
    def __init__(self, aliases: list[str]):
        self.states = {alias: ReplicaState(alias, watch_of(connections[alias])) for alias in aliases}
        self._turns = itertools.count()

    def choose(self, *, continuation: bool = False, excluding: str | None = None) -> str | None:
        """The next replica in use (other than `excluding`), one of the freshest for a
        `continuation`; None: read the primary."""
        now = time.monotonic()
        usable = [state for state in self.states.values() if state.in_use(now)]
        if continuation and usable:
            freshest = max(state.replayed for state in usable)
            usable = [state for state in usable if state.replayed == freshest]
        usable = [state.alias for state in usable if state.alias != excluding]
        if not usable:
            return None
        return usable[next(self._turns) % len(usable)]

    def back_off(self, alias: str, reason: object) -> None:
        self.states[alias].out_until = time.monotonic() + BACK_OFF_SECONDS
        logger.warning("replica %s out of use for %g s: %s", alias, BACK_OFF_SECONDS, reason)


_replicas: Replicas | None = None


def replica_states() -> list[ReplicaState]:
    """Each replica's lag and state in this process (empty without replicas)."""
    return list(_replicas.states.values()) if _replicas is not None else []


# Paths whose requests read the primary all the same (`read_on_primary`).
_primary_paths: tuple[str, ...] = ()


def read_on_primary(path_prefix: str) -> None:
    """Requests for paths beginning with `path_prefix` read the primary: an app whose reads
    must see its own latest writes declares so when it loads (the status page's, whose cache
    trusts a read after an edit to see it)."""
    global _primary_paths
    if path_prefix not in _primary_paths:
        _primary_paths = (*_primary_paths, path_prefix)


def routed(get_response):
    """`get_response` serving each request on a replica (the module's docstring); starts this
    process's lag watch."""
    global _replicas
    if _replicas is None:
        _replicas = Replicas(replica_aliases())
        lag_watch.start()
    replicas = _replicas

    def get_response_on_replica(request):
        if request.path_info.startswith(_primary_paths):
            return get_response(request)
        continuation = _RANGE_BOUND.search(request.META.get("QUERY_STRING", "")) is not None
        alias = replicas.choose(continuation=continuation)
        if alias is None:
            return get_response(request)
        response, failure = _served_on(alias, get_response, request)
        if failure is None:
            return response
        replicas.back_off(alias, failure)
        retry_alias = replicas.choose(continuation=continuation, excluding=alias)
        if retry_alias is None:
            return get_response(request)
        response, failure = _served_on(retry_alias, get_response, request)
        if failure is not None:
            replicas.back_off(retry_alias, failure)
        return response

    return get_response_on_replica


@contextmanager
def reading_a_replica(*, close: bool = False):
    """This thread reads one of the freshest replicas in use within the block (the primary
    when none is, or without replicas): for the stream poller and the streams' replays, which
    continue from a cursor as a page does from the one before. A replica whose connection
    fails in the block is backed off; a statement failing on a sound connection backs off
    nothing. With `close`, the connection read is closed at the block's end, for a thread that
    may not run again for long."""
    replicas = _replicas
    alias = replicas.choose(continuation=True) if replicas is not None else None
    if alias is None:
        try:
            yield
        finally:
            if close:
                connections[DEFAULT_DB_ALIAS].close()
        return
    replica, primary = _connection_to(alias), connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = replica
    try:
        yield
    except DatabaseError:
        if (failure := _connection_failure(replica)) is not None:
            replicas.back_off(alias, failure)
        raise
    finally:
        connections[DEFAULT_DB_ALIAS] = primary
        if close:
            replica.close()
        else:
            replica.close_if_unusable_or_obsolete()


def _served_on(alias: str, get_response, request):
    """The response to `request` with `alias` as this thread's `default`, and what broke the
    replica's connection if it broke (None if it served)."""
    replica, primary = _connection_to(alias), connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = replica
    try:
        response = get_response(request)
    finally:
        connections[DEFAULT_DB_ALIAS] = primary
    failure = _connection_failure(replica) if response.status_code == SERVICE_UNAVAILABLE else None
    # What `close_old_connections` does for the connections Django holds, at the request's end.
    replica.close_if_unusable_or_obsolete()
    return response, failure


_held = threading.local()


def _connection_to(alias: str):
    """This thread's connection to the replica `alias`, named `default` as the connection it
    stands in for: Django compares the names (a subquery `.using("default")` must be of the
    connection it runs on), and django-cachalot keys the status page's queries by it."""
    held = _held.__dict__
    replica = held.get(alias)
    if replica is None:
        replica = held[alias] = connections.create_connection(alias)
        replica.alias = DEFAULT_DB_ALIAS
    return replica


def _connection_failure(replica) -> str | None:
    """Why the replica's connection failed (it is then closed), or None if it did not: a
    statement can fail on a sound connection (a statement timeout, say)."""
    client = replica.connection
    if client is not None and not client.closed and not client.broken:
        return None
    # Refused, or dropped: the next request on this replica connects afresh.
    with suppress(Exception):
        replica.close()
    return "its connection failed" if client is None else "its connection broke"


class LagWatch:
    """Reads each replica's lag on a connection of its own, in a daemon thread."""

    def __init__(self):
        self._thread: threading.Thread | None = None
        self._connections: dict[str, psycopg.Connection] = {}

    def start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="replica-lag-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            for state in replica_states():
                try:
                    self._read_lag(state)
                except Exception:  # the watch must outlive anything a reading raises
                    logger.exception("replica %s: the lag watch failed a turn", state.alias)
            time.sleep(LAG_INTERVAL_SECONDS)

    def _read_lag(self, state: ReplicaState) -> None:
        try:
            connection = self._connections.get(state.alias)
            if connection is None or connection.closed:
                connection = self._connections[state.alias] = _lag_connection(state.alias)
            state.replayed, state.lag = connection.execute(LAG_SQL).fetchone()
        except psycopg.Error as error:
            if state.lag is not None:
                logger.warning("replica %s: its lag could not be read: %s", state.alias, error)
            state.lag = state.replayed = None
            connection = self._connections.pop(state.alias, None)
            if connection is not None:
                connection.close()


def _lag_connection(alias: str) -> psycopg.Connection:
    parameters = connection_parameters(alias)
    # A frozen replica must not hold the watch: its lag is then unknown, and it is not used.
    parameters["connect_timeout"] = max(1, int(LAG_INTERVAL_SECONDS * 4))
    connection = psycopg.connect(**parameters, autocommit=True)
    wait = connection.wait

    def wait_at_most(gen, *args, **kwargs):
        kwargs["timeout"] = LAG_INTERVAL_SECONDS * 4
        return wait(gen, *args, **kwargs)

    connection.wait = wait_at_most
    return connection


lag_watch = LagWatch()


def _export_states() -> None:
    now = time.monotonic()
    for state in replica_states():
        observability.set_replica_gauges(state.alias, state.lag, state.in_use(now))


observability.before_scrape(_export_states)
