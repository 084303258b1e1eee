"""The role the server connects as: it reads the mirror tables and writes only the service's own.

After every `migrate` (the test database's too), when the migrating role may create roles
(the embedded database's superuser may), `API_ROLE` is created if missing and granted:
- SELECT on every table of the schema: the mirror tables every route reads;
- INSERT, UPDATE, DELETE on the service's own tables (admin users and sessions, login
  attempts, the status page) and USAGE on their sequences, which the admin writes.
So a defect or an injection in the request path cannot change, empty or alter a mirror
table, nor create one. `mirror.wsgi` (the server) connects to the embedded database as
this role; management commands (`migrate`, `loadfixtures`, the demo ticker) as the owner.
On an external database the README gives the same grants to run by hand.
"""

from django.db import connections
from psycopg import sql

__all__ = ("API_ROLE", "grant_api_role")

API_ROLE = "mirror_api"


def grant_api_role(sender, using: str, **kwargs) -> None:
    """`post_migrate` receiver, sent once every table exists."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    own_tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    role = sql.Identifier(API_ROLE)
    with connection.cursor() as cursor:
        cursor.execute("select rolsuper or rolcreaterole from pg_roles where rolname = current_user")
        if not cursor.fetchone()[0]:
            return
        cursor.execute("select 1 from pg_roles where rolname = %s", [API_ROLE])
        if not cursor.fetchone():
            cursor.execute(sql.SQL("create role {} login").format(role))
        cursor.execute("select current_database()")
        database = sql.Identifier(cursor.fetchone()[0])
        cursor.execute(sql.SQL("grant connect on database {} to {}").format(database, role))
        cursor.execute(sql.SQL("grant usage on schema public to {}").format(role))
        cursor.execute(sql.SQL("grant select on all tables in schema public to {}").format(role))
        tables = sql.SQL(", ").join(map(sql.Identifier, sorted(own_tables)))
        cursor.execute(sql.SQL("grant insert, update, delete on {} to {}").format(tables, role))
        cursor.execute(
            "select sequence.oid::regclass::text from pg_class sequence"
            " join pg_depend owned on owned.objid = sequence.oid and owned.classid = 'pg_class'::regclass"
            " join pg_class own_table on own_table.oid = owned.refobjid and owned.refclassid = 'pg_class'::regclass"
            " where sequence.relkind = 'S' and own_table.relname = any(%s)",
            [sorted(own_tables)],
        )
        sequences = [sequence for (sequence,) in cursor.fetchall()]
        if sequences:
            # Names as regclass renders them: quoted where needed.
            names = sql.SQL(", ").join(sql.SQL(name) for name in sequences)
            cursor.execute(sql.SQL("grant usage on sequence {} to {}").format(names, role))
