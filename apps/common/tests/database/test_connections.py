import json
import threading
import time
from contextlib import contextmanager

import psycopg
import pytest
from django.core.signals import request_finished
from django.db import (
    DEFAULT_DB_ALIAS,
    DataError,
    OperationalError,
    ProgrammingError,
    close_old_connections,
    connection,
)
from django.db.backends.signals import connection_created
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from apps.common.database.connections import (
    check_held_connections_after_requests,
    column_names,
    loads_json,
    statement_cursor,
)
from apps.common.database.watch import connection_parameters, watch_of


@pytest.fixture
def fresh_connection(transactional_db):
    """The connection is made again inside the test, under the test's settings, and dropped after it."""
    connection.close()
    yield connection
    connection.close()


def test_an_answer_later_than_the_round_trip_timeout_is_given_up(fresh_connection):
    with override_settings(DATABASE_ROUND_TRIP_TIMEOUT=0.5):
        with pytest.raises(OperationalError, match="the database did not answer within 0.5 s"):
            with fresh_connection.cursor() as cursor:
                cursor.execute("select pg_sleep(3)")

        assert fresh_connection.connection.closed


def test_a_statement_the_server_cancels_keeps_the_connection(fresh_connection):
    with override_settings(DATABASE_ROUND_TRIP_TIMEOUT=5):
        with fresh_connection.cursor() as cursor:
            cursor.execute("set statement_timeout = '100ms'")
            with pytest.raises(OperationalError, match="statement timeout"):
                cursor.execute("select pg_sleep(3)")
            cursor.execute("reset statement_timeout")
            cursor.execute("select 1")

            assert cursor.fetchone() == (1,)


def test_no_round_trip_timeout_without_statement_timeout(fresh_connection):
    with override_settings(DATABASE_ROUND_TRIP_TIMEOUT=None):
        with fresh_connection.cursor() as cursor:
            cursor.execute("select pg_sleep(0.6)")

            assert cursor.fetchone() == ("",)


def test_a_round_trip_is_shown_to_the_database_watch_while_it_waits(fresh_connection):
    fresh_connection.ensure_connection()
    client = fresh_connection.connection
    watch = watch_of(fresh_connection)
    seen = []
    watcher = threading.Thread(target=lambda: (time.sleep(0.2), seen.append(dict(watch.waits))))
    watcher.start()
    with fresh_connection.cursor() as cursor:
        cursor.execute("select pg_sleep(0.5)")
    watcher.join()

    assert client in seen[0] and seen[0][client][1] == client.pgconn.socket
    assert client not in watch.waits


@contextmanager
def unresponsive_database():
    """As the server's watch marks a database that answers no probe."""
    watch = watch_of(connection)
    watch.unresponsive = True
    try:
        yield
    finally:
        watch.unresponsive = False


def test_a_connection_refuses_a_round_trip_while_the_database_is_unresponsive(fresh_connection):
    fresh_connection.ensure_connection()

    with unresponsive_database(), pytest.raises(OperationalError, match="the database does not answer"):
        with fresh_connection.cursor() as cursor:
            cursor.execute("select 1")


def test_no_connection_is_tried_while_the_database_is_unresponsive(fresh_connection):
    with unresponsive_database(), pytest.raises(OperationalError, match="the database does not answer"):
        fresh_connection.ensure_connection()

    assert fresh_connection.connection is None


@pytest.mark.parametrize(
    "text",
    [
        '{"amount": -5, "account": 98, "is_approval": false, "memo": "é", "list": [1.5, null]}',
        "[9223372036854775807, -9223372036854775808, 18446744073709551615]",
        # Beyond 64 bits orjson would answer floats.
        "[18446744073709551616, -9223372036854775809, 123456789012345678901234567890]",
        # orjson refuses what json reads as infinity.
        "[1e400]",
        '{"a": 1, "a": 2}',
    ],
)
def test_json_is_read_as_the_standard_library_reads_it(text):
    parsed = loads_json(text.encode())

    assert parsed == json.loads(text)
    assert repr(parsed) == repr(json.loads(text))


@pytest.mark.django_db
def test_queries_read_json_with_it():
    with connection.cursor() as cursor:
        cursor.execute("select json_build_array(12345678901234567890123, 1, 'x')")
        (value,) = cursor.fetchone()

    assert value == [12345678901234567890123, 1, "x"]


@pytest.mark.django_db
def test_column_names_are_those_of_the_result():
    with connection.cursor() as cursor:
        cursor.execute('select 1 as one, 2 as "Two words", 3 as "ünïcode", 4')
        assert column_names(cursor) == ["one", "Two words", "ünïcode", "?column?"]
        assert column_names(cursor) == [column.name for column in cursor.description]


def test_statements_share_one_cursor_of_the_connection(fresh_connection):
    with statement_cursor() as first:
        first.execute("select 1")
    with statement_cursor() as second:
        second.execute("select %s::int", [2])
        assert second.fetchall() == [(2,)]

    assert second is first and second.connection is fresh_connection.connection


def test_a_new_connection_gets_a_new_cursor(fresh_connection):
    with statement_cursor() as before:
        before.execute("select 1")
    fresh_connection.close()

    with statement_cursor() as after:
        after.execute("select 1")

    assert after is not before and not after.closed


def test_a_statement_error_is_djangos_and_marks_the_connection(fresh_connection):
    with pytest.raises(ProgrammingError):
        with statement_cursor() as cursor:
            cursor.execute("select * from no_such_table")

    assert fresh_connection.errors_occurred


def test_a_value_error_leaves_the_connection_usable(fresh_connection):
    with pytest.raises(DataError):
        with statement_cursor() as cursor:
            cursor.execute("select 1 / 0")

    assert not fresh_connection.errors_occurred


def test_captured_statements_are_all_seen(db):
    with CaptureQueriesContext(connection) as captured:
        with statement_cursor() as cursor:
            cursor.execute("select %s::int", [7])
            assert cursor.fetchone() == (7,)

    assert [query["sql"] for query in captured] == ["select 7::int"]


@pytest.fixture
def server_request_checks():
    """The end of a request checks the connections as in the server's workers (`mirror.wsgi`)."""
    check_held_connections_after_requests()
    yield
    connection_created.disconnect(dispatch_uid="hold_for_request_checks")
    request_finished.disconnect(dispatch_uid="close_unusable_held_connections")
    request_finished.connect(close_old_connections)


def test_the_end_of_a_request_closes_a_held_connection_that_failed(fresh_connection, server_request_checks):
    with fresh_connection.cursor() as cursor:
        cursor.execute("select pg_backend_pid()")
        backend = cursor.fetchone()[0]
    with psycopg.connect(**connection_parameters(DEFAULT_DB_ALIAS), autocommit=True) as other:
        other.execute("select pg_terminate_backend(%s)", [backend])
    with pytest.raises(OperationalError):
        with fresh_connection.cursor() as cursor:
            cursor.execute("select 1")

    request_finished.send(sender=None)

    assert fresh_connection.connection is None
    with fresh_connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_the_end_of_a_request_keeps_a_sound_held_connection(fresh_connection, server_request_checks):
    fresh_connection.ensure_connection()
    client = fresh_connection.connection

    request_finished.send(sender=None)

    assert fresh_connection.connection is client and not client.closed
    assert close_old_connections not in [receiver() for _, receiver, _ in request_finished.receivers]
