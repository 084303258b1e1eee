"""Tests and servers leave nothing behind: no process, no cluster, no file in TMPDIR, whether
the session ends normally or by SIGTERM, and whether the production server stops on a signal
or fails to start."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import psutil
import pytest

from apps.common.tests.production_server import (
    PROJECT_DIR,
    ProductionServer,
    database_url,
    running_in_group,
)

SESSION = Path(__file__).with_name("suite_like_session.py")
SESSION_TIMEOUT = 90
SERVER_STOP_TIMEOUT = 30


@pytest.fixture
def session_tmpdir():
    """The TMPDIR of a session of its own, to see what it leaves; short, as the sockets of the
    clusters and servers made in it must fit their 107 bytes."""
    path = Path(tempfile.mkdtemp(prefix="mirror-cleanup-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start_session(tmpdir: Path, report: Path, *, interrupted: bool) -> subprocess.Popen:
    """suite_like_session.py; when `interrupted`, with a throwaway cluster, and holding until
    interrupted."""
    from django.db import connection

    runtime_dir = report.with_name("runtime")
    runtime_dir.mkdir(mode=0o700)
    environment = {
        **os.environ,
        "TMPDIR": str(tmpdir),
        # Where the embedded PostgreSQL wheel keeps its lock; without one, in TMPDIR.
        "XDG_RUNTIME_DIR": str(runtime_dir),
        # This session's test database, kept (--reuse-db).
        "MIRROR_TEST_DATABASE": connection.settings_dict["NAME"],
        "MIRROR_CLEANUP_REPORT": str(report),
    }
    if interrupted:
        environment.update(MIRROR_CLEANUP_HOLD="1", MIRROR_CLEANUP_CLUSTER="1")
    with report.with_suffix(".log").open("w") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--reuse-db", str(SESSION)],
            cwd=PROJECT_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def read_report(report: Path, session: subprocess.Popen) -> dict:
    deadline = time.monotonic() + SESSION_TIMEOUT
    while not report.exists():
        assert session.poll() is None, report.with_suffix(".log").read_text()
        assert time.monotonic() < deadline, "the session did not start its servers"
        time.sleep(0.1)
    return json.loads(report.read_text())


def kill(session: subprocess.Popen) -> None:
    """Ends a session the test did not see through; what it started is then left behind."""
    with suppress(ProcessLookupError):
        os.killpg(session.pid, signal.SIGKILL)
    session.wait()


def assert_stopped_whole(server: ProductionServer) -> None:
    """The server's main process exits, then the rest of its session, which its files do not outlive."""
    server.process.wait(SERVER_STOP_TIMEOUT)
    deadline = time.monotonic() + SERVER_STOP_TIMEOUT
    while running := running_in_group(server.process.pid):
        assert time.monotonic() < deadline, f"still running: {running}"
        time.sleep(0.05)
    assert list(server.temp_dir.iterdir()) == [server.log_path]


def assert_nothing_left(report: dict, tmpdir: Path) -> None:
    assert [group for group in report["server_sessions"] if running_in_group(group)] == []
    if postmaster := report.get("postmaster"):
        with suppress(psutil.NoSuchProcess):
            assert psutil.Process(postmaster["pid"]).create_time() != postmaster["started"], "the cluster runs"
    assert [path for path in report["paths"] if Path(path).exists()] == []
    assert list(tmpdir.iterdir()) == []


def test_a_session_stopped_with_sigterm_stops_its_servers_and_cluster_and_deletes_their_files(
    django_db_setup, session_tmpdir, tmp_path
):
    report_path = tmp_path / "report.json"
    session = start_session(session_tmpdir, report_path, interrupted=True)
    try:
        report = read_report(report_path, session)
        session.send_signal(signal.SIGTERM)
        status = session.wait(SESSION_TIMEOUT)
    finally:
        kill(session)
    output = report_path.with_suffix(".log").read_text()

    assert status == pytest.ExitCode.INTERRUPTED, output
    assert "KeyboardInterrupt" in output
    assert_nothing_left(report, session_tmpdir)


def test_a_session_ending_normally_leaves_nothing(django_db_setup, session_tmpdir, tmp_path):
    report_path = tmp_path / "report.json"
    session = start_session(session_tmpdir, report_path, interrupted=False)
    try:
        report = read_report(report_path, session)
        status = session.wait(SESSION_TIMEOUT)
    finally:
        kill(session)

    assert status == 0, report_path.with_suffix(".log").read_text()
    assert_nothing_left(report, session_tmpdir)


def stop_session_with_sigterm(server: ProductionServer) -> None:
    """As the suite's fixtures and the benchmark stop a server."""
    os.killpg(server.process.pid, signal.SIGTERM)


def stop_granian_with_sigterm(server: ProductionServer) -> None:
    """As `scripts/serve` stops its server."""
    server.process.send_signal(signal.SIGTERM)


@pytest.mark.parametrize("stop", [stop_session_with_sigterm, stop_granian_with_sigterm])
def test_the_production_server_deletes_its_run_directory_when_stopped(start_production_server, stop):
    server = start_production_server(MIRROR_WORKERS="2", MIRROR_METRICS="true")
    assert server.get_when_served("/metrics").status == 200
    run_dir = server.run_dir()
    assert {path.name for path in run_dir.iterdir()} == {"load-board", "metrics", "executors"}
    assert list((run_dir / "metrics").iterdir())

    stop(server)

    assert_stopped_whole(server)


def test_a_production_server_that_fails_to_start_leaves_nothing(django_db_setup, tmp_path):
    from django.db import connection

    server = ProductionServer(database_url(connection.settings_dict), {"TMPDIR": str(tmp_path), "MIRROR_WORKERS": "x"})

    with pytest.raises(RuntimeError, match="the server exited at start"):
        server.start()

    assert not server.temp_dir.exists()
    assert list(tmp_path.iterdir()) == []
    assert running_in_group(server.process.pid) == []


@pytest.mark.parametrize("stop", [stop_session_with_sigterm, stop_granian_with_sigterm])
def test_a_server_stopped_while_its_workers_load_the_application_stops(django_db_setup, stop):
    from django.db import connection

    server = ProductionServer(database_url(connection.settings_dict), {"MIRROR_WORKERS": "2"})
    try:
        server.launch()
        deadline = time.monotonic() + SERVER_STOP_TIMEOUT
        while "Spawning worker-2" not in server.log_path.read_text():
            assert time.monotonic() < deadline, server.log_path.read_text()
            time.sleep(0.05)
        assert "Started worker" not in server.log_path.read_text()

        stop(server)

        assert_stopped_whole(server)
    finally:
        server.stop()
