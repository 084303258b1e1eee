import http.client
import io
import socket
import threading
import time

from apps.common.server.request_body import bodies_read_in_time

CALL = "/api/v1/contracts/call"
FEES = "/api/v1/network/fees"
TIMEOUT = {"status": 408, "body": b'{"_status":{"messages":[{"message":"Request timeout"}]}}'}
BUSY_BODY = b'{"_status":{"messages":[{"message":"Service unavailable"}]}}'
# A call the route reads and refuses before executing anything.
INVALID_BLOCK = b'{"block": "nonsense", "to": "0x' + b"0" * 40 + b'"}'


class Seen:
    """An application recording the body it reads as Django would, by CONTENT_LENGTH."""

    def __init__(self):
        self.body = None
        self.content_length = None

    def __call__(self, environ, start_response):
        self.content_length = environ.get("CONTENT_LENGTH")
        self.body = environ["wsgi.input"].read(int(self.content_length or 0))
        start_response("200 OK", [])
        return [b""]


def call(application, body: bytes, **environ):
    environ = {"REQUEST_METHOD": "POST", "wsgi.input": io.BytesIO(body), **environ}
    return application(environ, lambda status, headers: None)


def test_a_chunked_body_is_handed_over_with_its_length():
    seen = Seen()

    call(bodies_read_in_time(seen), b'{"block": "latest"}', HTTP_TRANSFER_ENCODING="chunked")

    assert (seen.content_length, seen.body) == ("19", b'{"block": "latest"}')


def test_a_body_declared_over_the_limit_is_not_read(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = Seen()

    call(bodies_read_in_time(seen), b"x" * 11, CONTENT_LENGTH="11")

    assert seen.content_length == "11" and seen.body == b""


def test_a_chunked_body_over_the_limit_is_cut_one_byte_past_it(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = Seen()

    call(bodies_read_in_time(seen), b"x" * 50, HTTP_TRANSFER_ENCODING="chunked")

    assert (seen.content_length, seen.body) == ("11", b"x" * 11)


def test_a_request_without_a_body_is_passed_as_it_is():
    seen = Seen()

    call(bodies_read_in_time(seen), b"", CONTENT_LENGTH="")

    assert seen.content_length == "" and seen.body == b""


# On the production server.


def slow_body(server, target: str) -> socket.socket:
    """A connection that sent a POST's head, with a body of 100 bytes declared, and 1 byte of it."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    connection.sendall(
        f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n{".encode()
    )
    return connection


def answer_on(connection: socket.socket) -> tuple[int, bytes, float]:
    """(status, body, seconds it took) of the answer the connection receives."""
    started = time.monotonic()
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), body, time.monotonic() - started


def chunked(server, target: str, body: bytes, content_type: str):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("POST", target)
        connection.putheader("Content-Type", content_type)
        connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        middle = len(body) // 2
        for part in (body[:middle], body[middle:]):
            connection.send(b"%x\r\n%s\r\n" % (len(part), part))
        connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_slow_bodies_are_answered_408_and_hold_no_worker(start_production_server):
    server = start_production_server(MIRROR_WORKERS="1", MIRROR_REQUEST_BODY_TIMEOUT="1", MIRROR_SIDE_THREADS="2")
    server.get_when_served("/health/liveness")
    slow = [slow_body(server, CALL), slow_body(server, FEES)]
    time.sleep(0.2)

    served = []
    for target in ("/health/liveness", "/api/v1/blocks?limit=1") * 3:
        started = time.monotonic()
        served.append((server.get(target, timeout=5).status, time.monotonic() - started))
    answers = [answer_on(connection) for connection in slow]

    assert all(status == 200 and seconds < 0.5 for status, seconds in served), served
    for status, body, seconds in answers:
        assert (status, body) == (TIMEOUT["status"], TIMEOUT["body"])
        assert seconds < 2  # the timeout is 1 s from the head, sent before the probes above
    assert server.get("/api/v1/blocks?limit=1").status == 200


def test_bodies_wait_on_the_side_lanes_only(start_production_server, settings):
    """A call finding every side lane taken is answered as the pool's busy call; another
    route's body, 503."""
    server = start_production_server(MIRROR_WORKERS="1", MIRROR_REQUEST_BODY_TIMEOUT="2")
    server.get_when_served("/health/liveness")
    side_lanes = settings.SIDE_THREADS
    slow = [slow_body(server, FEES) for _ in range(side_lanes)]
    time.sleep(0.3)

    refused = answer_on(slow_body(server, FEES))
    call_refused = answer_on(slow_body(server, CALL))
    started = time.monotonic()
    liveness = server.get("/health/liveness", timeout=5)
    waited = time.monotonic() - started
    timed_out = [answer_on(connection)[0] for connection in slow]
    # The connections were closed (answer_on read to their end); their threads give their
    # lanes back as their reads end.
    time.sleep(0.3)
    after = [chunked(server, CALL, INVALID_BLOCK, "application/json")[0] for _ in range(side_lanes + 1)]

    assert refused[:2] == (503, BUSY_BODY) and refused[2] < 0.5
    assert call_refused[0] == 429 and b"Too many concurrent contract executions" in call_refused[1]
    assert liveness.status == 200 and waited < 0.5
    assert timed_out == [408] * side_lanes
    assert after == [400] * (side_lanes + 1)


def test_chunked_bodies_are_read(start_production_server):
    server = start_production_server(MIRROR_WORKERS="1")
    server.get_when_served("/health/liveness")

    call_answer = chunked(server, CALL, INVALID_BLOCK, "application/json")
    fees_answer = chunked(server, FEES, b"\x0a\x03not a transaction", "application/protobuf")

    assert call_answer[0] == 400 and b"Invalid block value: nonsense" in call_answer[1], call_answer
    assert b"Failed to read request" not in fees_answer[1], fees_answer


def test_a_body_arriving_in_pieces_within_the_time_is_read(start_production_server):
    server = start_production_server(MIRROR_WORKERS="1", MIRROR_REQUEST_BODY_TIMEOUT="2")
    server.get_when_served("/health/liveness")
    body = INVALID_BLOCK
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    connection.sendall(
        f"POST {CALL} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    )
    sender = threading.Thread(target=lambda: [connection.sendall(bytes([byte])) or time.sleep(0.02) for byte in body])
    sender.start()
    sender.join()

    status, answer, _ = answer_on(connection)

    assert status == 400 and b"Invalid block value: nonsense" in answer

