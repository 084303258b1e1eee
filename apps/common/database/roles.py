"""The service's two database roles, and which connection each query takes.

- `API_ROLE` (`mirror_api`) serves the API. It reads the mirror tables and the status page's
  tables (the status routes) and writes nothing. Django's other tables (admin users and
  their password hashes, sessions, login attempts, the admin's log) it cannot even read.
- `ADMIN_ROLE` (`mirror_admin`) reads and writes Django's own tables, those of the models
  `migrate` creates (users, sessions, login attempts, the status page), and no mirror table.
So a defect or an injection in an API request can change no table, and cannot give itself
admin access.

Two connections, two database aliases: `default` as the API's role, `ADMIN_DATABASE` as the
admin's. `AdminRouter` sends every query on Django's own tables (the managed models) to the
admin's connection; mirror tables are read on `default`, and the status routes read the
status page there by name (apps/status/selectors.py). A process thus opens its admin
connection for the admin site (its login throttling and sessions included) and for
management commands that write Django's tables, never for an API request. Where both
aliases connect as one role, settings install no router: one connection serves both.

After every `migrate` (the test database's too), when the migrating role may create roles
(the embedded database's superuser may), both roles are created if missing and granted
exactly the above. `mirror.wsgi` (the server) connects to the embedded database as these
roles; management commands as the owner. On an external database docs/operations.md gives the same
grants to run by hand.
"""

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from psycopg import sql

__all__ = ("ADMIN_DATABASE", "ADMIN_ROLE", "API_ROLE", "AdminRouter", "grant_roles")

API_ROLE = "mirror_api"
ADMIN_ROLE = "mirror_admin"
ADMIN_DATABASE = "admin"
# Apps of Django's own tables whose rows the API serves.
API_READ_APPS = ("status",)


class AdminRouter:
    """Django's own tables on the admin's connection, the mirror's on the API's."""

    def db_for_read(self, model, **hints):
        return ADMIN_DATABASE if model._meta.managed else None

    db_for_write = db_for_read

    def allow_migrate(self, db, app_label, **hints):
        # The admin's role creates nothing; `migrate` runs as the owner.
        return db == DEFAULT_DB_ALIAS


def grant_roles(sender, using: str, **kwargs) -> None:
    """`post_migrate` receiver, sent once every table exists."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    own_tables = sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))
    api_read_tables = sorted(
        set(own_tables)
        & {
            model._meta.db_table
            for label in API_READ_APPS
            for model in apps.get_app_config(label).get_models(include_auto_created=True)
        }
    )
    hidden_from_api = [table for table in own_tables if table not in api_read_tables]
    hidden_from_api.append(MigrationRecorder.Migration._meta.db_table)
    api, admin = sql.Identifier(API_ROLE), sql.Identifier(ADMIN_ROLE)
    with connection.cursor() as cursor:
        cursor.execute("select rolsuper or rolcreaterole from pg_roles where rolname = current_user")
        if not cursor.fetchone()[0]:
            return
        cursor.execute("select current_database()")
        database = sql.Identifier(cursor.fetchone()[0])
        for name, role in ((API_ROLE, api), (ADMIN_ROLE, admin)):
            cursor.execute("select 1 from pg_roles where rolname = %s", [name])
            if not cursor.fetchone():
                cursor.execute(sql.SQL("create role {} login").format(role))
            cursor.execute(sql.SQL("grant connect on database {} to {}").format(database, role))
            cursor.execute(sql.SQL("grant usage on schema public to {}").format(role))
        cursor.execute(
            "select sequence.oid::regclass::text from pg_class sequence"
            " join pg_depend owned on owned.objid = sequence.oid and owned.classid = 'pg_class'::regclass"
            " join pg_class own_table on own_table.oid = owned.refobjid and owned.refclassid = 'pg_class'::regclass"
            " where sequence.relkind = 'S' and own_table.relname = any(%s)",
            [own_tables],
        )
        # Names as regclass renders them: quoted where needed.
        sequences = [sql.SQL(sequence) for (sequence,) in cursor.fetchall()]
        # One transaction: a server serving meanwhile sees the grants before or after, never
        # none (an earlier version granted more, so everything is taken back first).
        with transaction.atomic(using=using):
            both = sql.SQL(", ").join([api, admin])
            cursor.execute(sql.SQL("revoke all on all tables in schema public from {}").format(both))
            cursor.execute(sql.SQL("revoke all on all sequences in schema public from {}").format(both))
            cursor.execute(sql.SQL("grant select on all tables in schema public to {}").format(api))
            cursor.execute(sql.SQL("revoke select on {} from {}").format(_names(hidden_from_api), api))
            cursor.execute(
                sql.SQL("grant select, insert, update, delete on {} to {}").format(_names(own_tables), admin)
            )
            if sequences:
                cursor.execute(
                    sql.SQL("grant usage on sequence {} to {}").format(sql.SQL(", ").join(sequences), admin)
                )


def _names(tables: list[str]) -> sql.Composable:
    return sql.SQL(", ").join(map(sql.Identifier, tables))
