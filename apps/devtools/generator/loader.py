"""Writing a generated ledger into a mirror database.

PostgreSQL produces the rows itself (`LedgerSql`): the chunks of transactions
run on `WORKERS` connections at once (each statement is single-threaded), then
the final state is aggregated from them. The primary keys and indexes of the
written tables are dropped for the load and built again afterwards, several at once
(also when the load fails), then the tables are vacuumed and analyzed
(autovacuum stays off for them during the load). Each statement
commits by itself, with `synchronous_commit` off: a failed load leaves rows
behind, which `--replace` clears. With `unlogged`, the tables are made
UNLOGGED first and stay so: no WAL is written, but a crash of PostgreSQL
empties them; right for a benchmark database, not for one to keep.
"""

import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import psycopg
from django.db import connections
from psycopg import sql
from psycopg.conninfo import make_conninfo

from apps.common.database.schema import SCHEMA_SQL, mirror_tables
from apps.devtools.generator.ledger import CHUNK, TABLES, Job, Layout, LedgerSql


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
            for table in TABLES
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


WORKERS = max(2, min(4, os.cpu_count() or 2))
SESSION_SETTINGS = (
    "set synchronous_commit = off",
    "set work_mem = '256MB'",
    "set maintenance_work_mem = '512MB'",
    "set max_parallel_maintenance_workers = 0",
)


def load_ledger(
    conninfo: str,
    layout: Layout,
    *,
    progress: Callable[[str], None] | None = None,
    unlogged: bool = False,
    chunk: int = CHUNK,
) -> dict[str, int]:
    """Generates the ledger into the database; returns the (estimated) row count per table."""
    progress = progress or _stderr_progress
    ledger = LedgerSql(layout, chunk=chunk)
    began = time.monotonic()
    leaves = _leaf_tables(conninfo)
    # Autovacuum would scan the tables while they fill; they are vacuumed once, at the end.
    _run_jobs(conninfo, [
        Job((f"alter table {table} set (autovacuum_enabled = false)",) + (
            (f"alter table {table} set unlogged",) if unlogged else ()))
        for table in leaves
    ])
    indexes = _secondary_indexes(conninfo, list(TABLES))
    keys = _primary_keys(conninfo, list(TABLES))
    _run_jobs(conninfo, [Job((f"drop index {name}",)) for name, _ in indexes])
    _run_jobs(conninfo, [Job((f"alter table {table} drop constraint {name}",)) for table, name, _ in keys])
    try:
        written = 0

        def chunk_done(job: Job) -> None:
            nonlocal written
            written += job.transactions
            rate = written / max(time.monotonic() - began, 1e-9)
            progress(f"{written:,}/{layout.transactions:,} transactions, {rate:,.0f} transactions/s")

        _run_jobs(conninfo, ledger.chunks(), done=chunk_done)
        progress("balances, snapshots and final state")
        _run_jobs(conninfo, ledger.final_jobs())
    finally:
        built = 0

        def index_done(job: Job) -> None:
            nonlocal built
            built += 1
            progress(f"building indexes: {built}/{len(keys) + len(indexes)}")

        # A partitioned table's index definition reads `ON ONLY`, which would leave its partitions without one.
        _run_jobs(
            conninfo,
            [Job((f"alter table {table} add constraint {name} {definition}",)) for table, name, definition in keys]
            + [Job((definition.replace(" ON ONLY ", " ON ", 1),)) for _, definition in indexes],
            done=index_done,
        )
        _run_jobs(conninfo, [Job((f"alter table {table} reset (autovacuum_enabled)",)) for table in leaves])
    # VACUUM sets the visibility map (index-only scans), so a benchmark does not meet autovacuum's first pass.
    progress("vacuuming and analyzing")
    _run_jobs(conninfo, [Job((f"vacuum (analyze) {table}",)) for table in TABLES])
    return _row_counts(conninfo)


def _run_jobs(conninfo: str, jobs: list[Job], *, done: Callable[[Job], None] | None = None) -> None:
    """Runs the jobs on up to WORKERS connections at once; the first failure is raised once all have stopped."""
    local = threading.local()
    opened: list[psycopg.Connection] = []
    lock = threading.Lock()

    def run(job: Job) -> Job:
        if not hasattr(local, "connection"):
            local.connection = psycopg.connect(conninfo, autocommit=True)
            with lock:
                opened.append(local.connection)
            for setting in SESSION_SETTINGS:
                local.connection.execute(setting)
        for statement in job.statements:
            local.connection.execute(statement)
        return job

    try:
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            futures = [pool.submit(run, job) for job in jobs]
            try:
                for future in as_completed(futures):
                    finished = future.result()
                    if done:
                        done(finished)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        for connection in opened:
            connection.close()


# (table name, leaf) per written table: itself, or its partitions (one level, as in the mirror schema).
_LEAVES = (
    "select table_name, leaf from unnest(%s::text[]) table_name, lateral ("
    " select inhrelid::regclass as leaf from pg_inherits where inhparent = table_name::regclass"
    " union all select table_name::regclass"
    " where not exists (select 1 from pg_inherits where inhparent = table_name::regclass)) leaves"
)


def _leaf_tables(conninfo: str) -> list[str]:
    """The written tables, partitions in place of partitioned tables (which cannot be made unlogged)."""
    with psycopg.connect(conninfo) as connection:
        return [leaf for _, leaf in connection.execute(f"select table_name, leaf::text from ({_LEAVES}) t",
                                                        [list(TABLES)])]


def _row_counts(conninfo: str) -> dict[str, int]:
    """Rows per table as ANALYZE estimated them (exact for small tables); counting 100 million rows takes long."""
    with psycopg.connect(conninfo) as connection:
        return dict(
            connection.execute(
                f"select table_name, sum(greatest(c.reltuples, 0))::bigint from ({_LEAVES}) t"
                " join pg_class c on c.oid = t.leaf group by table_name",
                [list(TABLES)],
            ).fetchall()
        )


def _primary_keys(conninfo: str, tables: list[str]) -> list[tuple[str, str, str]]:
    """(table, name, definition) of the primary keys of `tables` (a partitioned table's covers its partitions)."""
    with psycopg.connect(conninfo) as connection:
        return connection.execute(
            "select c.conrelid::regclass::text, quote_ident(c.conname), pg_get_constraintdef(c.oid)"
            " from pg_constraint c join pg_class t on t.oid = c.conrelid"
            " where c.contype = 'p' and t.relname = any(%s) and t.relnamespace = current_schema()::regnamespace",
            [tables],
        ).fetchall()


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


def _stderr_progress(message: str) -> None:
    sys.stderr.write(f"\r{message}\033[K")
    sys.stderr.flush()


def generated_database(layout: Layout, *, say: Callable[[str], object] = print) -> str:
    """The conninfo of `mirror_bench_t<N>_a<M>_s<S>` on the project's PostgreSQL, holding the
    ledger of `layout`: created and generated when absent or empty (its tables are unlogged, so
    a server that stopped uncleanly leaves them empty)."""
    name = f"mirror_bench_t{layout.transactions}_a{layout.accounts}_s{layout.seed}"
    server = django_conninfo()
    with psycopg.connect(make_conninfo(server, dbname="postgres"), autocommit=True) as connection:
        if not connection.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
            connection.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    conninfo = make_conninfo(server, dbname=name)
    with psycopg.connect(conninfo) as connection:
        has_schema = connection.execute("select to_regclass('record_file') is not null").fetchone()[0]
        blocks = connection.execute("select count(*) from record_file").fetchone()[0] if has_schema else 0
    if blocks and blocks != layout.blocks:
        raise DatabaseNotEmpty(f"{name} holds {blocks} blocks, not {layout.blocks}: drop it or use other sizes")
    if not blocks:
        say(f"generating {layout.transactions:,} transactions into {name}")
        prepare_database(conninfo, replace=False)
        began = time.monotonic()
        load_ledger(conninfo, layout, unlogged=True)
        sys.stderr.write("\n")
        say(f"generated in {time.monotonic() - began:.0f} s")
    return conninfo
