"""The execution pool: jobs within the time limit, admission, the workers' threads for calls
apart from their reads, and reads that go on while the call route is saturated."""

import http.client
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

from apps.common.server.lanes import ThreadLanes
from apps.contracts.evm import pool
from apps.contracts.evm.errors import TimedOut, TooManyRequests

URL = "/api/v1/contracts/call"
# Init code looping until out of gas: JUMPDEST; PUSH1 0; JUMP.
ENDLESS_LOOP = {"data": "0x5b600056", "gas": 15_000_000}


def admitted():
    """Rate limits that let everything through."""


def spin():
    while True:
        pass


def fail_with(error: Exception):
    raise error


@pytest.fixture
def executor_dir(settings, tmp_path):
    settings.WEB3 = {**settings.WEB3, "EXECUTOR_DIR": str(tmp_path), "EXECUTORS": 1, "TIMEOUT_SECONDS": 0.5}
    return tmp_path


# -- an executor's job --


def test_pure_python_past_the_limit_is_interrupted(settings):
    settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 0.3}
    started = time.monotonic()
    answer, interrupted = pool.run_job((f"{__name__}.spin", (), {}))
    assert time.monotonic() - started < 0.3 + pool.ALARM_GRACE + 0.5
    assert interrupted
    assert answer == ("error", 503, TimedOut(0.3).messages)


def test_a_job_answers_its_value_or_its_error():
    assert pool.run_job(("builtins.sum", ([1, 2],), {})) == (("value", 3), False)
    busy = TooManyRequests("busy")
    assert pool.run_job((f"{__name__}.fail_with", (busy,), {})) == (("error", 429, busy.messages), False)


def test_a_database_error_answers_503_and_a_crash_500():
    from django.db import OperationalError

    answer, _ = pool.run_job((f"{__name__}.fail_with", (OperationalError("gone"),), {}))
    with pytest.raises(OperationalError):
        pool._outcome(answer)
    answer, _ = pool.run_job((f"{__name__}.fail_with", (ValueError("bug"),), {}))
    with pytest.raises(RuntimeError):
        pool._outcome(answer)


# -- a worker handing a job over --


def test_without_a_pool_a_job_runs_in_the_calling_thread():
    assert pool.execute("builtins.max", 1, 3, admit=admitted) == 3


def test_every_executor_busy_is_429_at_once(executor_dir):
    with open(executor_dir / "slot-0", "w") as slot:
        import fcntl

        fcntl.flock(slot, fcntl.LOCK_EX)
        started = time.monotonic()
        with pytest.raises(TooManyRequests):
            pool.execute("builtins.max", 1, 3, admit=admitted)
    assert time.monotonic() - started < pool.ADMISSION_WAIT + 0.5


def test_a_call_the_rate_limits_refuse_is_answered_after_the_admission_wait(executor_dir):
    # A client retrying at once gets its refusals no faster than its calls would be taken.
    def refuse():
        raise TooManyRequests("Gas per second rate limit exceeded.")

    started = time.monotonic()
    with pytest.raises(TooManyRequests):
        pool.execute("builtins.max", 1, 3, admit=refuse)
    assert time.monotonic() - started >= pool.ADMISSION_WAIT


def test_an_executor_past_the_limit_is_killed_and_the_answer_is_503(executor_dir):
    # An executor that takes the job and never answers, as one stuck in a C call.
    path = pool.socket_path(str(executor_dir), 0)
    stuck = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import socket, sys, time\n"
            "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print(flush=True)\n"
            "c, _ = s.accept(); time.sleep(60)",
            path,
        ],
        stdout=subprocess.PIPE,
    )
    try:
        stuck.stdout.readline()
        started = time.monotonic()
        with pytest.raises(TimedOut):
            pool.execute("builtins.max", 1, 3, admit=admitted)
        assert time.monotonic() - started < 0.5 + pool.ANSWER_GRACE + 0.5
        assert stuck.wait(5) == -9
    finally:
        stuck.kill()
        stuck.wait()


def test_a_job_waits_for_an_executor_that_is_starting(executor_dir):
    path = pool.socket_path(str(executor_dir), 0)

    def start_late():
        time.sleep(0.2)
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(path)
            listener.listen()
            connection, _ = listener.accept()
            with connection:
                pool._receive(connection)
                pool._send(connection, ("value", "ok"), time.monotonic() + 5)

    starter = threading.Thread(target=start_late)
    starter.start()
    try:
        assert pool.execute("builtins.max", 1, 3, admit=admitted) == "ok"
    finally:
        starter.join()


# -- a worker's threads --


def test_execution_routes_wait_on_the_side_lanes():
    served = []

    def serving(kind):
        def application(environ, start_response):
            served.append((kind, environ["PATH_INFO"]))
            start_response("200 OK", [])
            return [b""]

        return application

    lanes = ThreadLanes(serving("execution"), serving("read"), reads=1)
    paths = [
        "/api/v1/contracts/call",
        "/api/v1/contracts/results/0.0.2-1-2/opcodes",
        "/api/v1/contracts/0xab/results/opcodes",
        "/api/v1/contracts/results",
        "/api/v1/contracts/0.0.1001",
        "/api/v1/blocks",
    ]
    for path in paths:
        lanes({"PATH_INFO": path}, lambda status, headers: None)
    assert [kind for kind, _ in served] == ["execution"] * 3 + ["read"] * 3


# -- the server --


@pytest.mark.django_db(transaction=True)
def test_the_pool_stops_with_the_server(start_call_server):
    server = start_call_server()
    directory = _executor_dir(server)
    server.stop()
    deadline = time.monotonic() + 10
    while Path(directory).exists():
        assert time.monotonic() < deadline, "the pool outlived the server"
        time.sleep(0.1)


def _executor_dir(server) -> str:
    for pid in server.worker_pids():
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        for entry in environ:
            if entry.startswith(b"MIRROR_WEB3_EXECUTOR_DIR="):
                return entry.split(b"=", 1)[1].decode()
    raise AssertionError("no executor directory")


@pytest.mark.django_db(transaction=True)
def test_reads_keep_their_latency_while_max_gas_calls_saturate_the_call_route(committed_ledger, start_call_server):
    server = start_call_server(MIRROR_WORKERS="2", HIERO_MIRROR_WEB3_REQUESTTIMEOUT="3s")
    stop = threading.Event()
    calls: list[tuple[int, float]] = []
    reads: list[float] = []
    read_errors: list[str] = []

    def call_loop():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        body = orjson.dumps(ENDLESS_LOOP)
        while not stop.is_set():
            started = time.monotonic()
            connection.request("POST", URL, body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            calls.append((response.status, time.monotonic() - started))
            if response.status == 429:
                time.sleep(0.02)

    def read_loop():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
        while not stop.is_set():
            started = time.monotonic()
            try:
                connection.request("GET", "/api/v1/blocks?limit=1")
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    read_errors.append(str(response.status))
            except OSError as error:
                read_errors.append(repr(error))
                connection.close()
            reads.append(time.monotonic() - started)

    callers = [threading.Thread(target=call_loop) for _ in range(8)]
    for thread in callers:
        thread.start()
    time.sleep(1)
    readers = [threading.Thread(target=read_loop) for _ in range(4)]
    for thread in readers:
        thread.start()
    time.sleep(8)
    stop.set()
    for thread in readers + callers:
        thread.join()

    assert not read_errors
    reads.sort()
    p99 = reads[int(len(reads) * 0.99)]
    assert p99 < 0.1, f"p99 {p99 * 1000:.0f} ms over {len(reads)} reads"
    executed = [took for status, took in calls if status != 429]
    refused = [took for status, took in calls if status == 429]
    assert executed and all(status in (400, 429, 503) for status, _ in calls)
    assert len(refused) > len(executed)
    assert max(refused) < 1
