"""The service's PostgreSQL backend: Django's, with connections the database watch of their
server sees (`apps.common.database.watch`). While the watch finds the server unresponsive, a
request does not try to connect to it, and fails at once; an attempt already waiting on a
server that froze is ended with the queries waiting on it, rather than waiting out the
connect timeout."""

import types

import psycopg
from django.db.backends.postgresql import base

from apps.common.database.watch import connecting_to, watch_of, watched_connecting


class WatchedConnection(psycopg.Connection):
    @classmethod
    def _connect_gen(cls, conninfo):
        return watched_connecting(super()._connect_gen(conninfo))


class _PsycopgConnectingWatched(types.ModuleType):
    """psycopg as Django's backend uses it (errors, types, adapters), connecting through
    `WatchedConnection`."""

    connect = WatchedConnection.connect

    def __getattr__(self, name):
        return getattr(psycopg, name)


class DatabaseWrapper(base.DatabaseWrapper):
    Database = _PsycopgConnectingWatched("psycopg")

    def get_new_connection(self, conn_params):
        server_watch = watch_of(self)
        server_watch.refuse_while_unresponsive()
        try:
            with connecting_to(server_watch):
                return super().get_new_connection(conn_params)
        except psycopg.OperationalError:
            server_watch.refuse_while_unresponsive()  # the watch ended the attempt: say why, not libpq's guess
            raise
