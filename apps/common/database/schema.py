"""The mirror node's tables: created from our DDL when absent, never altered.

`manage.py migrate` runs `ensure_mirror_schema` once. Against a database the
upstream importer already built (any mirror table present) it does nothing, so
the service can serve a real mirror node database without touching it.
"""

from functools import cache
from pathlib import Path

from django.apps import apps

SCHEMA_SQL = Path(__file__).resolve().parent / "sql" / "mirror_schema.sql"


@cache
def mirror_tables() -> tuple[str, ...]:
    """Every mirror table, from the unmanaged models that map them."""
    return tuple(
        sorted(model._meta.db_table for model in apps.get_models() if not model._meta.managed)
    )


def mirror_schema_exists(connection) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "select exists (select 1 from information_schema.tables"
            " where table_schema = current_schema() and table_name = any(%s))",
            [list(mirror_tables())],
        )
        return cursor.fetchone()[0]


def ensure_mirror_schema(connection) -> bool:
    """Creates the mirror schema unless one is there; True if it created it."""
    if mirror_schema_exists(connection):
        return False
    with connection.cursor() as cursor:
        cursor.execute(SCHEMA_SQL.read_text())
    return True
