"""The demo as `scripts/serve` starts it: its data, its status page, its second start."""

import fcntl
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from django.core.management import call_command

BASE_DIR = Path(__file__).resolve().parents[3]
DEMO = BASE_DIR / "fixtures" / "demo.json"
ALL_OPERATIONAL = {"indicator": "none", "description": "All Systems Operational"}


@pytest.fixture
def demo(db):
    call_command("loadfixtures", "--if-empty", DEMO)
    call_command("seedstatus")


def page_status(client) -> dict:
    return client.get("/api/v2/status.json").json()["status"]


def test_demo_status_page_is_operational_once_its_newest_block_follows_the_clock(client, demo):
    call_command("demo_tick")

    assert page_status(client) == ALL_OPERATIONAL


def test_demo_status_page_is_not_operational_without_the_ticks(client, demo):
    # The demo's recorded blocks are days old: this is what the ticks fix.
    assert page_status(client) != ALL_OPERATIONAL


def test_demo_api_still_serves_the_recorded_transactions_after_ticks(client, demo):
    call_command("demo_tick")

    transactions = client.get("/api/v1/transactions").json()["transactions"]
    assert transactions
    assert client.get("/api/v1/blocks", {"limit": 1}).json()["blocks"][0]["count"] == 0


SERVE = BASE_DIR / "scripts" / "serve"
BIND_HOST, BIND_PORT = "127.0.0.1", 8125


def serve(data_dir: Path) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "MIRROR_BIND": f"{BIND_HOST}:{BIND_PORT}",
        "MIRROR_EMBEDDED_DATA_DIR": str(data_dir),
    }
    return subprocess.run([SERVE], env=environment, capture_output=True, text=True, timeout=120)


class LandingPage(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>Ledger Query Service</title>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class NotHttp(BaseHTTPRequestHandler):
    def handle(self):
        self.request.close()


@pytest.fixture
def listener(request):
    server = HTTPServer((BIND_HOST, BIND_PORT), request.param)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("listener", [LandingPage], indirect=True)
def test_serve_says_the_service_already_answers_at_its_address_and_touches_nothing(tmp_path, listener):
    data_dir = tmp_path / "postgres"

    result = serve(data_dir)

    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        f"The service is already running at http://{BIND_HOST}:{BIND_PORT}/ (nothing was loaded or changed).\n"
    )
    assert not data_dir.exists()


@pytest.mark.parametrize("listener", [NotHttp], indirect=True)
def test_serve_refuses_an_address_another_program_listens_on(tmp_path, listener):
    data_dir = tmp_path / "postgres"

    result = serve(data_dir)

    assert result.returncode == 1
    assert result.stderr == (
        f"Another program is listening on {BIND_HOST}:{BIND_PORT}; "
        "choose another address with MIRROR_BIND=host:port.\n"
    )
    assert not data_dir.exists()


def test_serve_says_the_service_already_runs_on_its_database_and_touches_nothing(tmp_path):
    data_dir = tmp_path / "postgres"
    lock = tmp_path / "postgres.serve-lock"
    with lock.open("w") as held:
        held.write("http://127.0.0.1:8000/\n")
        held.flush()
        # What a running serve holds until its server exits.
        fcntl.flock(held, fcntl.LOCK_EX)
        result = serve(data_dir)

    assert result.returncode == 0, result.stderr
    assert result.stdout == "The service is already running at http://127.0.0.1:8000/ (nothing was loaded or changed).\n"
    assert not data_dir.exists()
