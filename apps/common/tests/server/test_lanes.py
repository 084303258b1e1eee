import threading
import time
from concurrent.futures import ThreadPoolExecutor

from apps.common.server import lanes as lanes_module
from apps.common.server.granian_protocol import GRANIAN_PROTOCOL
from apps.common.server.lanes import ThreadLanes, _SideLanes
from apps.common.tests.server.test_request_body import TIMEOUT, answer_on, slow_body

READ = "/api/v1/blocks"


class Protocol:
    """Stands for granian's protocol object: records the answers sent through it."""

    def __init__(self):
        self.sent = []

    def response_bytes(self, status, headers, body):
        self.sent.append((status, body, threading.current_thread().name))


def app_answering(body_of, pause=0.0, ran=None):
    def application(environ, start_response):
        if ran is not None:
            ran.append((environ["PATH_INFO"], threading.current_thread().name))
        time.sleep(pause)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [body_of(environ)]

    return application


def environ_for(path, protocol=None):
    environ = {"PATH_INFO": path}
    if protocol is not None:
        environ[GRANIAN_PROTOCOL] = protocol
    return environ


def call_on_thread(lanes, environ, name, results):
    def run():
        results[name] = lanes(environ, lambda status, headers: None)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def test_reads_run_one_at_a_time():
    inside, most = 0, 0
    lock = threading.Lock()

    def read(environ, start_response):
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.02)
        with lock:
            inside -= 1
        start_response("200 OK", [])
        return [b"read"]

    lanes = ThreadLanes(read, read, reads=1)
    results = {}
    threads = [call_on_thread(lanes, environ_for(READ), f"client-{n}", results) for n in range(4)]
    for thread in threads:
        thread.join()

    assert most == 1
    assert list(results.values()) == [[b"read"]] * 4


def test_a_read_arriving_with_the_turn_held_is_run_by_the_holder_and_answered_through_granian(monkeypatch):
    monkeypatch.setattr(lanes_module, "side_lanes", None)  # the arriving thread does not stand by
    ran = []
    lanes = ThreadLanes(None, app_answering(lambda environ: environ["PATH_INFO"].encode(), 0.05, ran), reads=1)
    own, handed = Protocol(), Protocol()
    results = {}

    holder = call_on_thread(lanes, environ_for("/own", own), "holder", results)
    time.sleep(0.01)
    arriving = call_on_thread(lanes, environ_for("/handed", handed), "arriving", results)
    holder.join()
    arriving.join()

    assert ran == [("/own", "holder"), ("/handed", "holder")]
    # The holder's own answer leaves before it runs the handed read, not after.
    assert own.sent == [(200, b"/own", "holder")]
    assert handed.sent == [(200, b"/handed", "holder")]
    assert results == {"holder": [b"/own"], "arriving": [b"/handed"]}


def test_handed_reads_run_in_their_order_of_arrival():
    ran = []
    lanes = ThreadLanes(None, app_answering(lambda environ: b"", 0.03, ran), reads=1)
    results = {}
    threads = [call_on_thread(lanes, environ_for("/first"), "holder", results)]
    for name in ("/second", "/third", "/fourth"):
        time.sleep(0.005)
        threads.append(call_on_thread(lanes, environ_for(name), name, results))
    for thread in threads:
        thread.join()

    assert [path for path, _ in ran] == ["/first", "/second", "/third", "/fourth"]
    assert {thread for _, thread in ran} == {"holder"}


def test_a_handed_read_that_fails_fails_on_its_own_thread_and_the_holder_goes_on():
    def read(environ, start_response):
        time.sleep(0.03)
        if environ["PATH_INFO"] == "/failing":
            raise ValueError("failed")
        start_response("200 OK", [])
        return [b"fine"]

    lanes = ThreadLanes(None, read, reads=1)
    errors = []

    def failing():
        try:
            lanes(environ_for("/failing"), lambda status, headers: None)
        except ValueError as error:
            errors.append(error)

    results = {}
    holder = call_on_thread(lanes, environ_for("/fine"), "holder", results)
    time.sleep(0.01)
    handed = threading.Thread(target=failing)
    handed.start()
    holder.join()
    handed.join()

    assert [str(error) for error in errors] == ["failed"]
    assert results["holder"] == [b"fine"]
    # The turn was given back.
    assert lanes(environ_for("/fine"), lambda status, headers: None) == [b"fine"]


def test_an_answer_kept_whole_takes_no_turn():
    served = []
    lanes = ThreadLanes(
        lambda environ, start: served.append("side"),
        lambda environ, start: served.append("read"),
        reads=1,
        answer_at_once=lambda environ: ("200 OK", [], b"kept") if environ["PATH_INFO"] == "/kept" else None,
    )
    lanes._free_turns = 0  # a read holds the only turn

    answer = lanes({"PATH_INFO": "/kept"}, lambda status, headers: None)

    assert answer == [b"kept"] and served == []


def test_a_thread_stands_by_until_a_side_wait_takes_a_lane():
    side = _SideLanes(1)
    stood = threading.Event()

    def stand():
        side.stand_by()
        stood.set()

    thread = threading.Thread(target=stand)
    thread.start()
    time.sleep(0.05)
    assert not stood.is_set()

    assert side.take()
    assert stood.wait(1)
    thread.join()
    assert not side.take()  # the only lane is taken
    side.give()
    assert side.take()


def test_no_more_threads_stand_by_than_the_lanes_free():
    side = _SideLanes(1)
    assert side.take()
    started = time.monotonic()

    side.stand_by()  # the lane is taken: nothing to stand by for

    assert time.monotonic() - started < 0.1


def test_a_standing_by_thread_stands_by_only_under_granian(monkeypatch):
    side = _SideLanes(1)
    monkeypatch.setattr(lanes_module, "side_lanes", side)
    lanes = ThreadLanes(None, app_answering(lambda environ: b"read", 0.05), reads=1)
    results = {}

    holder = call_on_thread(lanes, environ_for(READ), "holder", results)
    time.sleep(0.01)
    handed = call_on_thread(lanes, environ_for(READ), "handed", results)
    holder.join()
    handed.join(1)

    assert not handed.is_alive()
    assert results == {"holder": [b"read"], "handed": [b"read"]}


def test_a_thread_one_too_many_sends_its_kept_answer_and_stands_by(monkeypatch):
    side = _SideLanes(1)
    monkeypatch.setattr(lanes_module, "side_lanes", side)
    lanes = ThreadLanes(
        None,
        app_answering(lambda environ: b"read", 0.1),
        reads=1,
        answer_at_once=lambda environ: ("200 OK", [], b"kept") if environ["PATH_INFO"] == "/kept" else None,
    )
    protocol = Protocol()
    results = {}
    reading = call_on_thread(lanes, environ_for(READ), "reading", results)
    time.sleep(0.02)
    kept = call_on_thread(lanes, environ_for("/kept", protocol), "kept", results)
    reading.join()
    time.sleep(0.05)

    assert protocol.sent == [(200, b"kept", "kept")]
    assert kept.is_alive()  # standing by, out of granian's sight
    assert side.take()  # a side wait wants it back
    kept.join(1)
    assert not kept.is_alive() and results["kept"] == [b"kept"]


# On the production server.


def test_the_thread_standing_by_comes_back_for_the_reads_when_a_body_waits(start_production_server):
    server = start_production_server(MIRROR_WORKERS="1", MIRROR_REQUEST_BODY_TIMEOUT="2", MIRROR_SIDE_THREADS="1")
    server.get_when_served("/health/liveness")
    # Concurrent reads make granian start the side thread, which then stands by.
    with ThreadPoolExecutor(8) as clients:
        statuses = list(clients.map(lambda _: server.get("/api/v1/blocks?limit=1").status, range(200)))
    assert statuses == [200] * 200

    slow = slow_body(server, "/api/v1/network/fees")
    time.sleep(0.2)
    served = []
    for target in ("/health/liveness", "/api/v1/blocks?limit=1") * 3:
        started = time.monotonic()
        served.append((server.get(target, timeout=5).status, time.monotonic() - started))
    status, body, _ = answer_on(slow)

    assert all(status == 200 and seconds < 0.5 for status, seconds in served), served
    assert (status, body) == (TIMEOUT["status"], TIMEOUT["body"])
    with ThreadPoolExecutor(8) as clients:
        statuses = list(clients.map(lambda _: server.get("/api/v1/blocks?limit=1").status, range(200)))
    assert statuses == [200] * 200
