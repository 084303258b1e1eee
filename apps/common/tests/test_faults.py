"""Faults under load: the real app server, a burst of concurrent requests on loopback, and
a PostgreSQL stopped and restarted, or frozen and thawed, in the middle of it.

The database is a throwaway embedded cluster of this test's own (never the one the other
tests use), stopped and started as an operator would, and deleted after the test, however
it ends. Bounded: at most BURST_MAX_REQUESTS requests, and every phase has a time limit.
"""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from apps.common.database.schema import SCHEMA_SQL
from apps.common.tests.production_server import PROJECT_DIR, run_in_session
from mirror.embedded_postgres import discard_embedded_database

CLIENTS = 6
# A bound on a runaway burst, well above what the test's seconds take: 503s answered at once
# while the database is down make the burst fast.
BURST_MAX_REQUESTS = 100_000
HEALTHY_SECONDS = 1.5
RECOVERY_SECONDS = 5
AFTER_RECOVERY_SECONDS = 1.5
TARGETS = ("/api/v1/blocks?limit=2", "/api/v1/blocks/1", "/health/readiness")
UNAVAILABLE = b'{"_status":{"messages":[{"message":"Service unavailable"}]}}'
NOT_READY = b'{"status": "error", "reason": "database unavailable"}'


@dataclass(frozen=True)
class Exchange:
    target: str
    sent_at: float
    answered_at: float
    status: int | None
    body: bytes | str  # the exception's text when no answer came


class ThrowawayCluster:
    def __init__(self):
        self.data_dir = Path(tempfile.mkdtemp(prefix="mirror-faults-")) / "postgres"
        self.env = {**os.environ, "MIRROR_EMBEDDED_DATA_DIR": str(self.data_dir)}
        self.url = ""

    def start(self) -> None:
        code = "from mirror.embedded_postgres import embedded_database_url; print(embedded_database_url())"
        started = self._run(sys.executable, "-c", code)
        self.url = started.stdout.strip()

    def stop(self) -> None:
        self._run(str(PROJECT_DIR / "scripts" / "stop-db"))

    def discard(self) -> None:
        """Stops the cluster at once, its processes thawed first, and deletes it."""
        with suppress(OSError):  # not running
            self.thaw()
        discard_embedded_database(self.data_dir)
        self.data_dir.parent.rmdir()

    def processes(self) -> list[int]:
        """The postmaster and every process it started (backends, background workers)."""
        postmaster = int((self.data_dir / "postmaster.pid").read_text().split()[0])
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
        return [postmaster, *map(int, children)]

    def freeze(self) -> None:
        """Stops every process of the cluster, its connections left open: a server that answers nothing."""
        for pid in self.processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            os.kill(pid, signal.SIGCONT)

    def _run(self, *command: str) -> subprocess.CompletedProcess:
        done = run_in_session(list(command), self.env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done


@pytest.fixture
def cluster():
    cluster = ThrowawayCluster()
    try:
        cluster.start()
        with psycopg.connect(cluster.url, autocommit=True) as connection:
            connection.execute(SCHEMA_SQL.read_text())
            connection.execute(
                "insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start,"
                " consensus_end, count, digest_algorithm, version, file_hash, index)"
                " select 'block-' || n, 1, 2, md5(n::text), md5((n - 1)::text), n * 100 - 10, n * 100, 1, 0, 6, '', n"
                " from generate_series(1, 5) as n"
            )
        yield cluster
    finally:
        cluster.discard()


class Burst:
    """CLIENTS threads requesting TARGETS in turn until stopped or BURST_MAX_REQUESTS are sent."""

    def __init__(self, server):
        self.server = server
        self.exchanges: list[Exchange] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(index,)) for index in range(CLIENTS)]

    def __enter__(self) -> "Burst":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()

    def _client(self, index: int) -> None:
        turn = index
        while not self._stop.is_set() and len(self.exchanges) < BURST_MAX_REQUESTS:
            target = TARGETS[turn % len(TARGETS)]
            turn += 1
            sent_at = time.monotonic()
            try:
                answer = self.server.get(target, timeout=10)
                status, body = answer.status, answer.body
            except OSError as error:
                status, body = None, repr(error)
            self.exchanges.append(Exchange(target, sent_at, time.monotonic(), status, body))


def is_normal(exchange: Exchange) -> bool:
    return exchange.status == 200


def is_unavailable(exchange: Exchange) -> bool:
    expected = NOT_READY if exchange.target == "/health/readiness" else UNAVAILABLE
    return exchange.status == 503 and exchange.body == expected


def test_database_stopped_and_restarted_under_a_burst(cluster, start_production_server):
    server = start_production_server(
        cluster.url, MIRROR_WORKERS="2", HIERO_MIRROR_REST_DB_POOL_CONNECTIONTIMEOUT="2000"
    )
    assert server.get_when_served("/api/v1/blocks/1").status == 200
    workers = sorted(server.worker_pids())

    with Burst(server) as burst:
        time.sleep(HEALTHY_SECONDS)
        down_from = time.monotonic()
        cluster.stop()
        down_until_at_least = time.monotonic()
        time.sleep(HEALTHY_SECONDS)
        down_until = time.monotonic()
        cluster.start()
        up_from = time.monotonic()
        time.sleep(RECOVERY_SECONDS + AFTER_RECOVERY_SECONDS)

    exchanges = burst.exchanges
    assert len(exchanges) < BURST_MAX_REQUESTS, "the burst hit its bound before the test's end"
    healthy = [e for e in exchanges if e.answered_at < down_from]
    down = [e for e in exchanges if e.sent_at > down_until_at_least and e.answered_at < down_until]
    recovered = [e for e in exchanges if e.sent_at > up_from + RECOVERY_SECONDS]
    assert len(healthy) > 20 and len(down) > 20 and len(recovered) > 20
    assert [e for e in healthy if not is_normal(e)] == []
    assert [e for e in down if not is_unavailable(e)] == []
    assert [e for e in recovered if not is_normal(e)] == []
    # Around the transitions an answer is either, never a 500 or a dropped connection.
    assert [e for e in exchanges if not (is_normal(e) or is_unavailable(e))] == []
    assert server.process.poll() is None
    assert sorted(server.worker_pids()) == workers


LOAD_CONNECTIONS = 16
LOAD_TARGETS = ("/api/v1/blocks?limit=2", "/api/v1/blocks/1")
# A client of its own process: the test's own timings do not wait on the load's interpreter lock.
LOAD_CLIENT = """
import http.client, sys, threading
port, targets, connections = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3])
statuses = {}
def client(index):
    turn = index
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while True:
        try:
            connection.request("GET", targets[turn % len(targets)])
            response = connection.getresponse()
            response.read()
            statuses[response.status] = statuses.get(response.status, 0) + 1
        except OSError:
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        turn += 1
for index in range(connections):
    threading.Thread(target=client, args=(index,), daemon=True).start()
sys.stdin.read()
print(statuses, flush=True)
"""


class Load:
    """LOAD_CONNECTIONS keep-alive clients requesting LOAD_TARGETS without pause, in another process."""

    def __init__(self, server):
        command = [sys.executable, "-c", LOAD_CLIENT, str(server.port), ",".join(LOAD_TARGETS), str(LOAD_CONNECTIONS)]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.statuses = ""

    def __enter__(self) -> "Load":
        return self

    def __exit__(self, *exc) -> None:
        self.statuses, _ = self._process.communicate("", timeout=60)


def timed_get(server, target: str) -> tuple[float, int]:
    started = time.monotonic()
    answer = server.get(target, timeout=30)
    return time.monotonic() - started, answer.status


FROZEN_SECONDS = 4
# The database watch's verdict, with margin: a probe after 0.05 s, unanswered for 0.25 s.
DETECTION_SECONDS = 0.6


def test_database_frozen_under_load(cluster, start_production_server):
    server = start_production_server(cluster.url, MIRROR_WORKERS="2")
    assert server.get_when_served("/api/v1/blocks/1").status == 200
    assert server.get("/api/v2/summary.json").status == 200
    workers = sorted(server.worker_pids())

    with Load(server) as load:
        time.sleep(1)
        log_before = server.log_path.read_text().splitlines()
        cluster.freeze()
        frozen_at = time.monotonic()
        try:
            api = [timed_get(server, "/api/v1/blocks/1")]
            liveness, status_page = [], []
            while time.monotonic() < frozen_at + FROZEN_SECONDS:
                liveness.append((time.monotonic() - frozen_at, *timed_get(server, "/health/liveness")))
                status_page.append(timed_get(server, "/api/v2/summary.json"))
                api.append(timed_get(server, "/api/v1/blocks?limit=2"))
                time.sleep(0.05)
        finally:
            cluster.thaw()
        thawed_at = time.monotonic()
        while (answer := server.get("/api/v1/blocks/1", timeout=10)).status != 200:
            assert time.monotonic() - thawed_at < 2, answer
            time.sleep(0.05)
        served_again_after = time.monotonic() - thawed_at
        log_during = server.log_path.read_text().splitlines()[len(log_before) :]

    # Every API request answered 503 well inside the budget, the first one included.
    assert all(status == 503 for _, status in api), api
    assert max(seconds for seconds, _ in api) < DETECTION_SECONDS + 0.5, api
    # Once the watch has found the database unresponsive, liveness answers at once; before
    # that, no later than the verdict.
    settled = [seconds for at, seconds, status in liveness if at > DETECTION_SECONDS]
    assert all(status == 200 for _, _, status in liveness)
    assert len(settled) > 10 and max(settled) < 0.1, liveness
    assert max(seconds for _, seconds, _ in liveness) < DETECTION_SECONDS + 0.5, liveness
    # The status page, from the snapshot held, marks the outage.
    assert all(status == 200 for _, status in status_page)
    assert max(seconds for seconds, _ in status_page) < 1, status_page
    assert served_again_after < 2
    assert "503" in load.statuses and "200" in load.statuses
    # Thousands of 503s, yet each worker logs a line a second at most, and the watch's verdicts.
    assert len(log_during) <= 2 * (FROZEN_SECONDS + 3) + 4, log_during
    assert sorted(server.worker_pids()) == workers
