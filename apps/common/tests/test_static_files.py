"""The admin's CSS and JS, over HTTP under the production server (`scripts/run-server`)."""

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[3]
BIND_HOST, BIND_PORT = "127.0.0.1", 8120
STARTUP_TIMEOUT_SECONDS = 90


def _accepts_connections(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def production_server():
    """`scripts/run-server` with one worker on a port of this worktree's range; its base URL."""
    assert not _accepts_connections(BIND_HOST, BIND_PORT), f"port {BIND_PORT} is already taken"
    environment = {**os.environ, "MIRROR_BIND": f"{BIND_HOST}:{BIND_PORT}", "MIRROR_WORKERS": "1"}
    server = subprocess.Popen(
        [BASE_DIR / "scripts" / "run-server"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while not _accepts_connections(BIND_HOST, BIND_PORT):
            assert server.poll() is None, f"run-server exited with {server.returncode}"
            assert time.monotonic() < deadline, "run-server did not start listening"
            time.sleep(0.2)
        yield f"http://{BIND_HOST}:{BIND_PORT}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers["Content-Type"], response.read()


def test_admin_login_page_stylesheets_are_served(production_server):
    status, _, page = fetch(f"{production_server}/admin/login/")
    stylesheets = re.findall(rb'<link rel="stylesheet" href="([^"]+)"', page)

    assert status == 200
    assert stylesheets
    for href in stylesheets:
        status, content_type, body = fetch(production_server + href.decode())
        assert (status, content_type.split(";")[0]) == (200, "text/css")
        assert body


def test_admin_scripts_are_served(production_server):
    status, content_type, body = fetch(f"{production_server}/static/admin/js/core.js")

    assert (status, content_type.split(";")[0]) == (200, "text/javascript")
    assert body
