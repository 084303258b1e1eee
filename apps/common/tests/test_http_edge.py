"""The API edge under the production server: every answer under /api/ is JSON."""

import os
import re
import signal
import socket
import time

import psycopg
import pytest
from django.db import connection

from apps.common.tests.production_server import Answer, free_port

JSON_UTF8 = "application/json; charset=utf-8"
NOT_FOUND = {"_status": {"messages": [{"message": "Not found"}]}}
SERVICE_UNAVAILABLE = {"_status": {"messages": [{"message": "Service unavailable"}]}}
EMPTY_BLOCKS = {"blocks": [], "links": {"next": None}}


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def raw_get(target: bytes, *header_lines: bytes, host: bytes = b"127.0.0.1") -> bytes:
    lines = [b"GET " + target + b" HTTP/1.1", b"Host: " + host, *header_lines, b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def another_session() -> psycopg.Connection:
    params = connection.get_connection_params()
    return psycopg.connect(**{key: value for key, value in params.items() if key not in ("cursor_factory", "context")})


@pytest.mark.parametrize(
    "accept",
    [
        "text/html",
        "text/plain",
        "application/xml",
        "garbage",
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8",
    ],
)
@pytest.mark.parametrize(
    ("path", "keys"), [("/api/v1/blocks", {"blocks", "links"}), ("/api/v2/status.json", {"page", "status"})]
)
def test_any_accept_header_gets_json(production_server, accept, path, keys):
    answer = production_server.get(path, headers={"Accept": accept})

    assert (answer.status, set(answer.json())) == (200, keys)
    assert answer.headers["content-type"] == JSON_UTF8


def test_more_than_a_thousand_query_fields_is_400(production_server):
    answer = production_server.get("/api/v1/blocks?" + "&".join(["a"] * 1001))

    assert answer.status == 400
    assert answer.json() == envelope("Parameter limit exceeded. Only 1000 parameters allowed.")
    assert answer.headers["content-type"] == JSON_UTF8


def test_a_thousand_query_fields_reach_validation(production_server):
    answer = production_server.get("/api/v1/blocks?" + "&".join(f"a{number}" for number in range(1000)))

    assert answer.status == 400
    assert answer.json()["_status"]["messages"][:2] == [
        {"message": "Unknown query parameter: a0"},
        {"message": "Unknown query parameter: a1"},
    ]


def test_status_route_with_more_than_a_thousand_query_fields_is_json(production_server):
    answer = production_server.get("/api/v2/status.json?" + "&".join(["a"] * 1001))

    # The status routes take no parameters: the page answers as without them.
    assert (answer.status, set(answer.json())) == (200, {"page", "status"})


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize(
    "path", ["/api/v1/blocks", "/api/v1/blocks/1", "/api/v1/hedera/0.0.7", "/api/", "/api/v2/summary.json"]
)
def test_other_methods_are_404_envelope_without_csrf(production_server, method, path):
    answer = production_server.request(
        method, path, headers={"Content-Type": "application/x-www-form-urlencoded"}, body=b"a=1"
    )

    assert (answer.status, answer.json()) == (404, NOT_FOUND)
    assert answer.headers["content-type"] == JSON_UTF8


def test_host_not_allowed_is_400_envelope(production_server):
    answer = production_server.raw(raw_get(b"/api/v1/blocks", host=b"attacker.example"))

    assert (answer.status, answer.json()) == (400, envelope("Bad request"))
    assert answer.headers["content-type"] == JSON_UTF8


def test_long_uri_is_414_envelope(production_server):
    answer = production_server.raw(raw_get(b"/api/v1/blocks?limit=" + b"1" * 20_000))

    assert (answer.status, answer.json()) == (414, envelope("URI too long"))
    assert answer.headers["content-type"] == JSON_UTF8
    assert answer.headers["access-control-allow-origin"] == "*"


def test_large_headers_are_431_envelope(production_server):
    answer = production_server.raw(raw_get(b"/api/v1/blocks", b"Cookie: " + b"c" * 20_000))

    assert (answer.status, answer.json()) == (431, envelope("Request header fields too large"))
    assert answer.headers["content-type"] == JSON_UTF8


def test_uri_and_headers_within_limits_are_served(production_server):
    answer = production_server.get(
        "/api/v1/blocks?" + "&".join(["block.number=gte:1"] * 100), headers={"Cookie": "c" * 8_000}
    )

    assert (answer.status, answer.json()) == (200, EMPTY_BLOCKS)


@pytest.mark.parametrize(("path", "status"), [("/api/v1/blocks", 200), ("/api/v1/hedera/0.0.7", 404)])
def test_security_headers(production_server, path, status):
    answer = production_server.get(path)

    assert answer.status == status
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"


def test_statement_timeout_is_503_and_the_worker_survives(start_production_server):
    server = start_production_server(HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT="1000")

    with another_session() as blocker:
        blocker.execute("lock table record_file in access exclusive mode")
        blocked = server.get("/api/v1/blocks")
        blocker.rollback()
    after = server.get("/api/v1/blocks")

    assert (blocked.status, blocked.json()) == (503, SERVICE_UNAVAILABLE)
    assert blocked.headers["content-type"] == JSON_UTF8
    assert (after.status, after.json()) == (200, EMPTY_BLOCKS)


@pytest.mark.parametrize("connected_before", [False, True], ids=["while-connecting", "under-a-kept-connection"])
def test_database_that_stops_answering_is_503_and_the_worker_survives(
    start_production_server, freezable_database, connected_before
):
    server = start_production_server(
        freezable_database.database_url,
        HIERO_MIRROR_REST_DB_POOL_CONNECTIONTIMEOUT="2000",
        HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT="1000",
    )
    if connected_before:
        assert server.get("/api/v1/blocks").status == 200

    freezable_database.freeze()
    frozen = server.get("/api/v1/blocks")
    freezable_database.thaw()
    after = answer_within(server, "/api/v1/blocks", seconds=2)

    assert (frozen.status, frozen.json()) == (503, SERVICE_UNAVAILABLE)
    assert frozen.headers["content-type"] == JSON_UTF8
    assert (after.status, after.json()) == (200, EMPTY_BLOCKS)


def answer_within(server, target: str, seconds: float):
    """The first 200 to `target`, or the last answer when none came within `seconds`: the
    database watch takes a probe answered to serve again after a freeze."""
    deadline = time.monotonic() + seconds
    while (answer := server.get(target)).status != 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    return answer


def test_a_worker_that_dies_is_replaced(start_production_server):
    server = start_production_server()
    (worker,) = server.worker_pids()

    os.kill(worker, signal.SIGKILL)
    answer = server.get_when_served("/api/v1/blocks")

    assert (answer.status, answer.json()) == (200, EMPTY_BLOCKS)
    assert server.worker_pids() != [worker]


METHOD_NOT_ALLOWED = envelope("Method not allowed")


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/v1/blocks", "GET, HEAD, OPTIONS"),
        ("/api/v1/contracts/call", "GET, HEAD, OPTIONS, POST"),
        ("/api/v2/status.json", "GET, HEAD, OPTIONS"),
        ("/api/v1/docs", "GET, HEAD, OPTIONS"),
        ("/api/v1/hedera/0.0.7", "GET, HEAD"),
        ("/", "GET, HEAD"),
        ("/health/liveness", "GET, HEAD"),
        ("/admin/", "GET, HEAD, POST"),
    ],
)
def test_trace_is_405_envelope_everywhere(production_server, path, allow):
    answer = production_server.request("TRACE", path, headers={"Cookie": "sessionid=secret"})

    assert (answer.status, answer.json()) == (405, METHOD_NOT_ALLOWED)
    assert answer.headers["content-type"] == JSON_UTF8
    assert answer.headers["allow"] == allow


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness", "/", "/metrics"])
def test_site_routes_answer_other_methods_405_json_not_the_csrf_page(production_server, method, path):
    answer = production_server.request(
        method, path, headers={"Content-Type": "application/x-www-form-urlencoded"}, body=b"a=1"
    )

    assert (answer.status, answer.json()) == (405, METHOD_NOT_ALLOWED)
    assert answer.headers["content-type"] == JSON_UTF8
    assert answer.headers["allow"] == "GET, HEAD"


def test_swagger_ui_cannot_be_framed_and_runs_no_inline_script(production_server):
    page = production_server.get("/api/v1/docs")

    assert page.status == 200
    assert page.headers["x-frame-options"] == "DENY"
    policy = page.headers["content-security-policy"].split("; ")
    assert {"frame-ancestors 'none'", "script-src 'self'"} <= set(policy)
    # What the page runs is its bundled assets and its start-up script, all served here.
    for script in re.findall(r'<script src="([^"]+)"', page.body.decode()):
        answer = production_server.get(script)
        assert answer.status == 200, script
        assert "javascript" in answer.headers["content-type"], script


def stream_port_answer(port: int, request: bytes, within: float = 30) -> Answer:
    """The stream port's answer to `request`, once a worker's stream server listens."""
    deadline = time.monotonic() + within
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
                client.sendall(request)
                received = b""
                while chunk := client.recv(65536):
                    received += chunk
            break
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, "the stream server did not listen"
            time.sleep(0.2)
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return Answer(int(status_line.split()[1]), headers, body)


def test_the_stream_port_answers_nosniff_and_refuses_trace(start_production_server):
    stream_port = free_port()
    start_production_server(MIRROR_STREAM_BIND=f"127.0.0.1:{stream_port}").get_when_served("/api/v1/blocks")

    not_found = stream_port_answer(stream_port, b"GET /api/v1/blocks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    trace = stream_port_answer(stream_port, b"TRACE /api/v1/blocks/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    assert (not_found.status, not_found.json()) == (404, NOT_FOUND)
    assert (trace.status, trace.json()) == (405, METHOD_NOT_ALLOWED)
    for answer in (not_found, trace):
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["content-type"] == JSON_UTF8
