"""Connections that give up on a database that stops answering, and read JSON fast.

The server cancels a statement past `statement_timeout`, but a server that is
frozen (stopped process, stalled storage, lost network) cancels nothing, and
psycopg would wait for its answer forever, holding the worker. Every
connection therefore gives up on a round trip after
`settings.DATABASE_ROUND_TRIP_TIMEOUT` seconds: it is closed and the request
answers 503; the next request connects afresh. Under the server, the watch of the
connection's database server ends such a wait much sooner, once the server answers a probe
no more (`apps.common.database.watch`).

`statement_cursor` runs the service's own statements on psycopg's cursor, kept per connection,
rather than through a new Django cursor wrapper each time.

JSON the queries build (a transactions page's transfers are aggregated as JSON) is parsed
by orjson, several times faster than the standard library, except where orjson would not
give the same values: it reads an integer beyond 64 bits as a float, so such a text goes to
`json.loads`, as does one orjson refuses (e.g. `1e400`, which json reads as infinity).
"""

import json
import re
import threading
from time import monotonic

import orjson
import psycopg
from django.conf import settings
from django.core.signals import request_finished
from django.db import close_old_connections, connections
from django.db.backends.signals import connection_created

# Raised by psycopg's own wait when its `timeout` expires (private, no public alias).
from psycopg.errors import _WaitTimeout as WaitTimeout

from apps.common.database.watch import UNRESPONSIVE, watch_of

# An integer orjson cannot hold (beyond [-2**63, 2**64 - 1]) has at least 20 digits, or 19
# after a minus sign; digits inside a string only cost the slower parser.
_BEYOND_64_BITS = re.compile(rb"\d{20}|-\d{19}")


def give_up_on_silent_database(sender, connection, **kwargs) -> None:
    """`connection_created` receiver: bounds every wait for an answer on the new connection,
    and shows it to the watch of its server while it waits."""
    if connection.vendor != "postgresql":
        return
    client = connection.connection
    wait_for_answer = client.wait
    limit = settings.DATABASE_ROUND_TRIP_TIMEOUT
    descriptor = client.pgconn.socket
    watch = watch_of(connection)
    waits, ending = watch.waits, watch.ending

    # Every round trip of a psycopg connection and its cursors goes through `wait`.
    def wait_watched(gen, *args, **kwargs):
        if watch.unresponsive:
            raise psycopg.OperationalError(UNRESPONSIVE)
        if limit and kwargs.get("timeout") is None:
            kwargs["timeout"] = limit
        waits[client] = (monotonic(), descriptor)
        try:
            return wait_for_answer(gen, *args, **kwargs)
        except WaitTimeout:
            # A statement may still be running: the connection cannot be reused.
            client.close()
            raise psycopg.OperationalError(f"the database did not answer within {limit:g} s") from None
        except psycopg.OperationalError:
            if not watch.unresponsive:
                raise
            client.close()  # the watch shut its socket down
            raise psycopg.OperationalError(UNRESPONSIVE) from None
        finally:
            with ending:
                del waits[client]

    client.wait = wait_watched


# The database connections each thread has opened (see `check_held_connections_after_requests`).
_held = threading.local()


def check_held_connections_after_requests() -> None:
    """In the server's workers, the end of a request checks the connections its thread has
    opened, rather than Django's `close_old_connections`, which finds them by walking every
    configured alias through the thread-local handler (two lookups each), a cost every request
    paid (docs/performance.md). The check itself is Django's
    (`close_if_unusable_or_obsolete`): a connection that failed, or outlived CONN_MAX_AGE, is
    closed, and the next request connects afresh.

    Not for Django's test client, which sets `close_old_connections` aside while a request
    ends (the test's transaction would fail its autocommit check): `mirror.wsgi` calls this."""
    connection_created.connect(_hold, dispatch_uid="hold_for_request_checks")
    request_finished.disconnect(close_old_connections)
    request_finished.connect(_close_unusable_held_connections, dispatch_uid="close_unusable_held_connections")


def _hold(sender, connection, **kwargs) -> None:
    held = _held.__dict__.setdefault("connections", [])
    if connection not in held:  # the same wrapper connects again after a close
        held.append(connection)


def _close_unusable_held_connections(**kwargs) -> None:
    for connection in _held.__dict__.get("connections", ()):
        connection.close_if_unusable_or_obsolete()


def loads_json(text: bytes):
    """psycopg's JSON parser (`set_json_loads`): orjson's values, or json's where they differ."""
    if _BEYOND_64_BITS.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def column_names(cursor) -> list[str]:
    """The column names of the cursor's current result.

    `cursor.description` builds a psycopg `Column` per column, each looking up its type;
    the names alone are read off the result directly.
    """
    result = cursor.pgresult
    encoding = cursor.connection.info.encoding
    return [result.fname(index).decode(encoding) for index in range(result.nfields)]


class statement_cursor:
    """`with statement_cursor() as cursor:` a cursor for one statement of the service's own SQL.

    Django's `connection.cursor()` builds a cursor and two wrappers per statement and passes
    every call through them, a cost of the order of the read itself. Out of tests, this
    hands out psycopg's cursor itself, kept on the connection and reused, under what Django
    does around a statement that matters here: connect when not connected, refuse another
    thread's connection, and turn psycopg's errors into Django's (marking the connection
    for closing, as `close_old_connections` expects). When statements are being captured
    (`CaptureQueriesContext`, DEBUG) or wrapped (`connection.execute_wrapper`, the
    statement timer of `MIRROR_METRICS`), it is Django's cursor, so they all are.
    """

    __slots__ = ("_connection", "_wrapped")

    def __init__(self, using: str = "default"):
        self._connection = connections[using]
        self._wrapped = None

    def __enter__(self):
        connection = self._connection
        connection.close_if_health_check_failed()
        if connection.connection is None:
            connection.ensure_connection()  # which may add a wrapper (`connection_created`)
        if connection.queries_logged or connection.execute_wrappers:
            self._wrapped = connection.cursor()
            return self._wrapped
        connection.validate_thread_sharing()
        client = connection.connection
        cursor = connection.__dict__.get("_statement_cursor")
        if cursor is None or cursor.connection is not client or cursor.closed:
            cursor = connection.__dict__["_statement_cursor"] = client.cursor()
        return cursor

    def __exit__(self, exc_type, exc_value, traceback):
        if self._wrapped is not None:
            self._wrapped.close()
        elif exc_type is not None:
            self._connection.wrap_database_errors.__exit__(exc_type, exc_value, traceback)
