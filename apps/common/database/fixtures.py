"""Loading mirror rows in the conformance corpus's format.

A fixture maps a mirror table to its rows as PostgreSQL's `json_agg` renders
them (bigint as exact JSON numbers, bytea as `"\\x…"`, int8range as text,
arrays, enums, jsonb). A conformance case file (rows under `"rows"`) loads too.
`json_populate_recordset` converts every column type exactly, so rows go in
with one statement per table. Files load in one transaction: any error leaves
the database as it was and names the file, table and row. `if_empty` loads only
into a mirror without rows, so data being served is never replaced.
"""

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from django.db import DatabaseError, connection, transaction

from apps.common.database.schema import mirror_tables


class FixtureError(Exception):
    pass


def read_fixture(path: Path) -> dict[str, list[dict]]:
    try:
        document = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise FixtureError(f"{path}: cannot read JSON: {error}") from None
    if isinstance(document, dict) and isinstance(document.get("rows"), dict):
        document = document["rows"]
    if not isinstance(document, dict) or not all(isinstance(rows, list) for rows in document.values()):
        raise FixtureError(f"{path}: expected an object mapping table names to lists of rows")
    return document


def load_fixture_files(
    paths: Iterable[Path], *, replace: bool = False, if_empty: bool = False
) -> dict[str, int] | None:
    """Loads every file in one transaction; returns the row count per table, or None when
    `if_empty` and the mirror has rows."""
    counts: dict[str, int] = {}
    with transaction.atomic():
        if if_empty and not mirror_is_empty():
            return None
        if replace:
            empty_mirror_tables()
        for path in paths:
            for table, count in load_rows(read_fixture(path), source=str(path)).items():
                counts[table] = counts.get(table, 0) + count
    return counts


def mirror_is_empty() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("select not (" + " or ".join(f'exists (select from "{table}")' for table in mirror_tables()) + ")")
        return cursor.fetchone()[0]


def empty_mirror_tables() -> None:
    with connection.cursor() as cursor:
        cursor.execute("truncate " + ", ".join(f'"{table}"' for table in mirror_tables()))


def load_rows(tables: Mapping[str, list[dict]], *, source: str) -> dict[str, int]:
    known = set(mirror_tables())
    counts = {}
    with connection.cursor() as cursor:
        for table, rows in tables.items():
            if table not in known:
                raise FixtureError(f"{source}: unknown table {table!r}")
            _check_columns(cursor, table, rows, source)
            try:
                with transaction.atomic():
                    _insert(cursor, table, rows)
            except DatabaseError:
                _raise_for_first_bad_row(cursor, table, rows, source)
            counts[table] = len(rows)
    return counts


def _insert(cursor, table: str, rows: list[dict]) -> None:
    cursor.execute(
        f'insert into "{table}" select * from json_populate_recordset(null::"{table}", %s::json)',
        [json.dumps(rows)],
    )


def _check_columns(cursor, table: str, rows: list[dict], source: str) -> None:
    cursor.execute(
        "select column_name from information_schema.columns"
        " where table_schema = current_schema() and table_name = %s",
        [table],
    )
    columns = {name for (name,) in cursor.fetchall()}
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise FixtureError(f"{source}: table {table!r} row {index}: not an object")
        if unknown := sorted(set(row) - columns):
            raise FixtureError(f"{source}: table {table!r} row {index}: unknown column(s) {', '.join(unknown)}")


def _raise_for_first_bad_row(cursor, table: str, rows: list[dict], source: str) -> None:
    for index, row in enumerate(rows):
        try:
            with transaction.atomic():
                _insert(cursor, table, [row])
        except DatabaseError as error:
            message = str(error).splitlines()[0]
            raise FixtureError(f"{source}: table {table!r} row {index}: {message}") from None
    raise FixtureError(f"{source}: table {table!r}: the rows conflict with each other or with loaded rows")
