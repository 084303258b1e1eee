"""The API edge under the production server: every answer under /api/ is JSON."""

import os
import signal
import time

import psycopg
import pytest
from django.db import connection

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
    server = start_production_server(MIRROR_DB_STATEMENT_TIMEOUT="1")

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
        freezable_database.database_url, MIRROR_DB_CONNECT_TIMEOUT="2", MIRROR_DB_STATEMENT_TIMEOUT="1"
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
