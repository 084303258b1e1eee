"""`scripts/stop-db` on a throwaway embedded cluster (never the one the tests use)."""

import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

BASE_DIR = Path(__file__).resolve().parents[3]


def run(*command: str, data_dir: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "MIRROR_EMBEDDED_DATA_DIR": str(data_dir)}
    return subprocess.run(command, cwd=BASE_DIR, env=environment, capture_output=True, text=True, timeout=180)


def start_cluster(data_dir: Path) -> int:
    started = run(
        sys.executable, "-c", "from mirror.embedded_postgres import embedded_database_url; embedded_database_url()",
        data_dir=data_dir,
    )
    assert started.returncode == 0, started.stderr
    return int((data_dir / "postmaster.pid").read_text().split()[0])


STOP_DB = str(BASE_DIR / "scripts" / "stop-db")


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "postgres"
    yield path
    run(STOP_DB, data_dir=path)  # so a failing test leaves no cluster behind


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
