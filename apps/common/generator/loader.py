"""Writing a generated ledger into a mirror database with COPY.

Each table gets its own connection and one COPY that stays open for the whole
run, so PostgreSQL parses and stores one table's rows while Python produces
the next chunk. Secondary indexes of the filled tables are dropped for the load
and built again afterwards (also when the load fails), then the tables are
analyzed. Every connection commits only when all rows are in.
"""

import sys
import time
from collections.abc import Callable
from contextlib import ExitStack

import psycopg
from django.db import connections
from psycopg import sql
from psycopg.conninfo import make_conninfo

from apps.common.generator.ledger import COLUMNS, Layout, Ledger, Rows
from apps.common.schema import SCHEMA_SQL, mirror_tables


class DatabaseNotEmpty(Exception):
    pass


# Connection settings Django or psycopg read themselves, which libpq does not know.
DJANGO_ONLY_OPTIONS = frozenset({"server_side_binding", "prepare_threshold", "isolation_level", "assume_role", "pool"})


def django_conninfo(alias: str = "default") -> str:
    """A Django database as a libpq connection string."""
    settings_dict = connections[alias].settings_dict
    libpq_options = {
        key: value
        for key, value in settings_dict.get("OPTIONS", {}).items()
        if key not in DJANGO_ONLY_OPTIONS and isinstance(value, str | int)
    }
    # A load's COPY and index builds run far past the API's statement timeout.
    libpq_options["options"] = " ".join(filter(None, [libpq_options.get("options"), "-c statement_timeout=0"]))
    parts = {
        **libpq_options,
        "dbname": settings_dict["NAME"],
        "host": settings_dict.get("HOST") or settings_dict.get("OPTIONS", {}).get("host"),
        "port": settings_dict.get("PORT"),
        "user": settings_dict.get("USER"),
        "password": settings_dict.get("PASSWORD"),
    }
    return make_conninfo(**{key: str(value) for key, value in parts.items() if value})


def prepare_database(conninfo: str, *, replace: bool) -> None:
    """Creates the mirror schema if absent; refuses a database holding mirror rows unless `replace`."""
    with psycopg.connect(conninfo, autocommit=True) as connection:
        exists = connection.execute("select to_regclass('transaction') is not null").fetchone()[0]
        if not exists:
            connection.execute(SCHEMA_SQL.read_text())
            return
        holds_rows = sql.SQL("select exists (select 1 from {})")
        filled = [
            table
            for table in COLUMNS
            if connection.execute(holds_rows.format(sql.Identifier(table))).fetchone()[0]
        ]
        if filled and not replace:
            raise DatabaseNotEmpty(f"the database holds rows ({', '.join(filled)}); --replace empties it first")
        if filled:
            tables = [table for table in mirror_tables() if connection.execute(
                "select to_regclass(%s) is not null", [table]).fetchone()[0]]
            connection.execute(
                sql.SQL("truncate {}").format(sql.SQL(", ").join(sql.Identifier(table) for table in tables))
            )


def load_ledger(conninfo: str, layout: Layout, *, progress: Callable[[str], None] | None = None) -> dict[str, int]:
    """Generates and loads the ledger; returns the row count per table."""
    progress = progress or _stderr_progress
    ledger = Ledger(layout)
    counts = dict.fromkeys(COLUMNS, 0)
    began = time.monotonic()
    indexes = _secondary_indexes(conninfo, list(COLUMNS))
    _execute_all(conninfo, [f"drop index {name}" for name, _ in indexes])
    try:
        with ExitStack() as stack:
            writer = _CopyWriter(conninfo, stack)
            stack.enter_context(writer.open_copies)
            for done, rows in ledger.transaction_chunks():
                writer.write(rows, counts)
                rate = sum(counts.values()) / max(time.monotonic() - began, 1e-9)
                progress(
                    f"{done:,}/{layout.transactions:,} transactions, {sum(counts.values()):,} rows, {rate:,.0f} rows/s"
                )
            writer.write(ledger.final_state(), counts)
            writer.commit()
    finally:
        progress("building indexes")
        # A partitioned table's index definition reads `ON ONLY`, which would leave its partitions without one.
        _execute_all(conninfo, [definition.replace(" ON ONLY ", " ON ", 1) for _, definition in indexes])
    progress("analyzing")
    _execute_all(conninfo, ["analyze " + ", ".join(table for table in COLUMNS)])
    return counts


class _CopyWriter:
    def __init__(self, conninfo: str, stack: ExitStack):
        self.conninfo, self.stack = conninfo, stack
        self.connections: list[psycopg.Connection] = []
        self.copies = {}
        self.open_copies = ExitStack()

    def write(self, rows: Rows, counts: dict[str, int]) -> None:
        for table, lines in rows.lines.items():
            if table not in self.copies:
                connection = self.stack.enter_context(psycopg.connect(self.conninfo))
                self.connections.append(connection)
                statement = sql.SQL("copy {} ({}) from stdin").format(
                    sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, COLUMNS[table]))
                )
                self.copies[table] = self.open_copies.enter_context(connection.cursor().copy(statement))
            self.copies[table].write("".join(lines))
            counts[table] += len(lines)

    def commit(self) -> None:
        self.open_copies.close()
        for connection in self.connections:
            connection.commit()


def _secondary_indexes(conninfo: str, tables: list[str]) -> list[tuple[str, str]]:
    """(name, definition) of the indexes of `tables` that back no constraint (partitions' own left out)."""
    with psycopg.connect(conninfo) as connection:
        return connection.execute(
            "select quote_ident(i.relname), pg_get_indexdef(i.oid) from pg_index x"
            " join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid"
            " where t.relname = any(%s) and t.relnamespace = current_schema()::regnamespace"
            " and not t.relispartition"
            " and not exists (select 1 from pg_constraint c where c.conindid = i.oid)",
            [tables],
        ).fetchall()


def _execute_all(conninfo: str, statements: list[str]) -> None:
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute("set maintenance_work_mem = '512MB'")
        for statement in statements:
            connection.execute(statement)


def _stderr_progress(message: str) -> None:
    sys.stderr.write(f"\r{message}\033[K")
    sys.stderr.flush()
