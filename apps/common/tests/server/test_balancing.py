"""Worker balancing (apps/common/server/balancing.py): the load board, the decision, and the production server."""

import os
import socket
import struct
import time

import pytest

from apps.common.server.balancing import (
    IDLE,
    IMBALANCED_WINDOWS,
    SATURATED,
    STALE_AFTER_NS,
    WINDOW_SECONDS,
    LoadBoard,
    WorkerBalancer,
    balanced,
)

MS = 1_000_000
WINDOW = round(WINDOW_SECONDS * 1e9)
CLOSE = ("Connection", "close")


class Clock:
    """CLOCK_MONOTONIC as the test sets it, in nanoseconds."""

    def __init__(self, now: int = 10**12):
        self.now = now

    def __call__(self) -> int:
        return self.now


class Worker:
    """A WorkerBalancer over an application whose requests take `duration` on the worker's clock.

    Each worker has a clock of its own, all starting at the same time: the windows of two
    workers pass side by side, as in two processes.
    """

    def __init__(self, board_path, clock: Clock | None = None):
        self.clock = clock or Clock()
        self.duration = 0
        self.board = LoadBoard(str(board_path), clock=self.clock)
        self.balancer = WorkerBalancer(self._application, self.board, clock=self.clock)

    def _application(self, environ, start_response):
        self.clock.now += self.duration
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b"{}"]

    def get(self, duration: int = 0) -> list[tuple[str, str]]:
        """The headers of one response."""
        self.duration = duration
        answered = []
        self.balancer({}, lambda status, headers, exc_info=None: answered.extend(headers))
        return answered


def busy_window(worker: Worker, share: float) -> None:
    """One window in which the worker had a request in flight for `share` of it."""
    worker.get(round(WINDOW * share))
    worker.clock.now += WINDOW - round(WINDOW * share)
    worker.balancer.end_window()


def windows(count: int, *loads: tuple[Worker, float]) -> None:
    """`count` windows side by side, each worker with its busy share."""
    for _ in range(count):
        for worker, share in loads:
            busy_window(worker, share)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def board_path(tmp_path):
    return tmp_path / "board"


def test_workers_take_distinct_slots_and_see_each_others_share(board_path, clock):
    first, second = LoadBoard(str(board_path), clock=clock), LoadBoard(str(board_path), clock=clock)

    first.publish(0.9)
    second.publish(0.1)

    assert (first.slot, second.slot) == (0, 1)
    assert first.sibling_shares() == [0.1]
    assert second.sibling_shares() == [0.9]


def test_a_slot_left_unrefreshed_is_ignored_then_taken_by_a_new_worker(board_path, clock):
    gone, staying = LoadBoard(str(board_path), clock=clock), LoadBoard(str(board_path), clock=clock)
    clock.now += STALE_AFTER_NS // 2
    staying.publish(0.5)
    clock.now += STALE_AFTER_NS // 2 + 1

    assert staying.sibling_shares() == []
    assert LoadBoard(str(board_path), clock=clock).slot == gone.slot


def test_a_refresh_from_before_a_restart_of_the_host_is_ignored(board_path, clock):
    before = LoadBoard(str(board_path), clock=clock)
    before.publish(0.0)
    clock.now -= STALE_AFTER_NS  # the monotonic clock starts over after a restart

    assert LoadBoard(str(board_path), clock=clock).slot == before.slot


def test_a_worker_beyond_the_slots_serves_unpublished(board_path, clock):
    boards = [LoadBoard(str(board_path), clock=clock) for _ in range(64)]

    extra = LoadBoard(str(board_path), clock=clock)
    extra.publish(1.0)

    assert [board.slot for board in boards] == list(range(64))
    assert extra.slot is None
    assert len(extra.sibling_shares()) == 64
    assert set(boards[0].sibling_shares()) == {0.0}


def test_the_board_records_each_worker_by_pid(board_path, clock):
    LoadBoard(str(board_path), clock=clock)

    assert struct.unpack_from("<qqq", board_path.read_bytes())[:2] == (os.getpid(), clock.now)


def test_the_busy_share_is_the_part_of_the_window_with_a_request_in_flight(board_path, clock):
    sibling, worker = LoadBoard(str(board_path), clock=clock), Worker(board_path, clock)

    worker.get(20 * MS)
    clock.now += 10 * MS
    worker.get(30 * MS)
    clock.now += 40 * MS
    worker.balancer.end_window()

    assert sibling.sibling_shares() == [0.5]


def test_a_request_in_flight_at_the_end_of_a_window_counts_in_both_windows(board_path, clock):
    sibling = LoadBoard(str(board_path), clock=clock)
    shares = []

    def application(environ, start_response):
        clock.now += 50 * MS
        balancer.end_window()
        shares.append(sibling.sibling_shares())
        clock.now += 25 * MS
        return [b""]

    balancer = WorkerBalancer(application, LoadBoard(str(board_path), clock=clock), clock=clock)
    clock.now += 50 * MS
    balancer({}, lambda *args: None)
    clock.now += 75 * MS
    balancer.end_window()

    assert shares == [[0.5]]
    assert sibling.sibling_shares() == [0.25]


def test_a_worker_saturated_beside_an_idle_sibling_for_some_windows_closes_one_connection(board_path):
    worker, idle = Worker(board_path), Worker(board_path)
    windows(IMBALANCED_WINDOWS - 1, (idle, IDLE), (worker, SATURATED))
    assert CLOSE not in worker.get()

    windows(1, (idle, IDLE), (worker, SATURATED))

    assert CLOSE in worker.get()
    assert CLOSE not in worker.get()
    assert CLOSE not in idle.get()


def test_it_closes_one_connection_per_run_of_imbalanced_windows_while_the_imbalance_lasts(board_path):
    worker, idle = Worker(board_path), Worker(board_path)
    closed = []
    for _ in range(3 * IMBALANCED_WINDOWS):
        windows(1, (idle, 0.0), (worker, 1.0))
        closed.append(CLOSE in worker.get())

    assert closed == ([False] * (IMBALANCED_WINDOWS - 1) + [True]) * 3


def test_the_request_for_a_close_lapses_when_the_imbalance_ends_before_a_response_takes_it(board_path):
    worker, sibling = Worker(board_path), Worker(board_path)
    windows(IMBALANCED_WINDOWS, (sibling, 0.0), (worker, 1.0))

    windows(1, (sibling, 1.0), (worker, 1.0))

    assert CLOSE not in worker.get()


@pytest.mark.parametrize(
    ("share", "sibling_share"),
    [(SATURATED, IDLE + 0.01), (SATURATED - 0.01, IDLE), (1.0, 1.0), (0.0, 0.0)],
    ids=["sibling-busy", "not-saturated", "all-busy", "all-idle"],
)
def test_no_connection_is_closed_without_an_imbalance(board_path, share, sibling_share):
    worker, sibling = Worker(board_path), Worker(board_path)
    windows(2 * IMBALANCED_WINDOWS, (sibling, sibling_share), (worker, share))

    assert CLOSE not in worker.get()


def test_a_lone_worker_never_closes_a_connection(board_path):
    worker = Worker(board_path)
    windows(2 * IMBALANCED_WINDOWS, (worker, 1.0))

    assert CLOSE not in worker.get()


def test_a_worker_gone_from_the_board_does_not_count_as_idle(board_path):
    worker, gone = Worker(board_path), Worker(board_path)
    windows(1, (gone, 0.0))
    worker.clock.now += STALE_AFTER_NS
    windows(2 * IMBALANCED_WINDOWS, (worker, 1.0))

    assert CLOSE not in worker.get()


def test_a_worker_whose_board_cannot_be_opened_serves_unbalanced(tmp_path, caplog):
    def application(environ, start_response):
        return [b""]

    board_path = tmp_path / "missing-directory" / "board"

    assert balanced(application, str(board_path)) is application
    assert f"the load board {board_path} cannot be opened" in caplog.text


def test_a_balanced_application_serves_through_the_balancer(board_path):
    def application(environ, start_response):
        start_response("200 OK", [])
        return [b"answer"]

    served = balanced(application, str(board_path))

    assert isinstance(served, WorkerBalancer)
    assert served({}, lambda *args: None) == [b"answer"]


def board_pids(path) -> set[int]:
    data = path.read_bytes()
    return {struct.unpack_from("<qqq", data, offset)[0] for offset in range(0, len(data), 24)} - {0}


# The held request stands for a slow one, not a dead database: the database watch's probe
# may wait longer than the hold before finding it unresponsive (apps/common/database/watch.py).
HELD_NOT_DEAD = {"MIRROR_DB_PROBE_TIMEOUT": "5"}


def held_then_pipelined(server, database, hold: float) -> tuple[bytes, bytes, bool]:
    """The heads of two answers on one kept connection, and whether the server closed it after:
    the first request held `hold` s by a frozen database, the second sent right behind it
    (pipelined), so that it starts as the first ends."""
    server.get_when_served("/api/v1/blocks")
    time.sleep(0.3)  # a request to start with (connecting to the database) may tip the balance for a moment
    request = b"GET /api/v1/blocks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        database.freeze()
        connection.sendall(request * 2)
        time.sleep(hold)
        database.thaw()
        received = b""
        while received.count(b"HTTP/1.1 ") < 2 or not received.endswith(b"}"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        connection.settimeout(1)
        try:
            closed = connection.recv(1) == b""
        except TimeoutError:
            closed = False
    held, following = (answer.split(b"\r\n\r\n")[0].lower() for answer in received.split(b"HTTP/1.1 ")[1:])
    return held, following, closed


@pytest.mark.django_db(transaction=True)
def test_the_server_moves_a_connection_off_a_worker_saturated_beside_an_idle_one(
    start_production_server, freezable_database
):
    server = start_production_server(freezable_database.database_url, MIRROR_WORKERS="2", **HELD_NOT_DEAD)

    held, following, closed = held_then_pipelined(server, freezable_database, hold=0.6)

    assert board_pids(server.run_dir() / "load-board") == set(server.worker_pids())
    assert held.startswith(b"200 ok") and b"connection:" not in held
    assert following.startswith(b"200 ok") and b"\r\nconnection: close" in following
    assert closed


@pytest.mark.django_db(transaction=True)
def test_a_server_of_one_worker_keeps_its_connections(start_production_server, freezable_database, tmp_path):
    server = start_production_server(
        freezable_database.database_url,
        MIRROR_WORKERS="1",
        MIRROR_WORKER_BOARD=str(tmp_path / "inherited-board"),  # dropped by run-server
        **HELD_NOT_DEAD,
    )

    held, following, closed = held_then_pipelined(server, freezable_database, hold=0.6)

    assert not (server.run_dir() / "load-board").exists() and not (tmp_path / "inherited-board").exists()
    assert held.startswith(b"200 ok") and following.startswith(b"200 ok")
    assert b"connection:" not in following and not closed
