"""The streams end to end: a stream server in this process, on the test database, and rows
committed while clients listen."""

import asyncio
import json
import socket

import pytest
from django.db import connection
from django.test import Client

from apps.accounts.tests.factories import create_entity
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.database.fixtures import empty_mirror_tables
from apps.common.ledger.codecs import format_timestamp
from apps.common.tests.production_server import free_port
from apps.streams.feeds import BlockFeed, Event, StreamRequest
from apps.streams.hub import Subscriber
from apps.streams.server import BackgroundStreamServer, StreamSettings
from apps.streams.tests.sse import SseClient
from apps.topics.tests.factories import SECOND, create_message
from apps.transactions.tests.factories import (
    create_crypto_transfers,
    create_transaction,
)

pytestmark = pytest.mark.django_db(transaction=True)

T = 1_700_000_000 * SECOND
TOPIC = 7
ACCOUNT, OTHER_ACCOUNT = 1001, 1002
# Bounds, not timings: an event is due within one poll interval (0.1 s here).
DUE = 10
OPTIONS = StreamSettings(interval=0.1, heartbeat=0.5, buffer=50, per_client=3, total=100, write_timeout=5)


@pytest.fixture(autouse=True)
def empty_mirror():
    """Rows here are committed, and the mirror tables are not Django's to flush."""
    empty_mirror_tables()
    yield
    empty_mirror_tables()


@pytest.fixture
def stream_server(empty_mirror):
    server = BackgroundStreamServer(f"127.0.0.1:{free_port()}", OPTIONS).start()
    yield server
    server.stop()


@pytest.fixture
def connect(stream_server):
    clients = []

    def open_stream(target: str, headers: dict | None = None) -> SseClient:
        client = SseClient(stream_server.address[1], target, headers)
        clients.append(client)
        return client

    yield open_stream
    for client in clients:
        client.close()


def listening(client: SseClient) -> SseClient:
    """The client, once its stream is live: `: connected` comes once new events are bound to reach it."""
    assert client.status == 200, client.body()
    client.wait_for_comment(b": connected", DUE)
    return client


def list_item(path: str, key: str, index: int = 0) -> bytes:
    """The bytes the list route renders for one of its items."""
    page = Client().get(path).json()[key]
    return json.dumps(page[index], separators=(",", ":"), ensure_ascii=False).encode()


def block(number: int):
    return create_record_files(record_file(number, T + number * SECOND))[0]


def test_new_blocks_arrive_in_order_once_as_the_list_renders_them(connect):
    block(1)
    client = listening(connect("/api/v1/blocks/stream"))
    assert client.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert client.headers["cache-control"] == "no-cache"
    for number in (2, 3, 4):
        block(number)
    events = client.events(3, DUE)
    assert [event.id for event in events] == [format_timestamp(T + n * SECOND) for n in (2, 3, 4)]
    assert [event.json()["number"] for event in events] == [2, 3, 4]
    assert events[0].data == list_item("/api/v1/blocks?block.number=2", "blocks")
    client.assert_silent(0.5)


def test_a_reconnect_with_last_event_id_misses_nothing_and_repeats_nothing(connect):
    client = listening(connect("/api/v1/blocks/stream"))
    block(1), block(2)
    seen = client.events(2, DUE)
    client.close()
    block(3), block(4)
    again = connect("/api/v1/blocks/stream", {"Last-Event-ID": seen[-1].id})
    replayed = again.events(2, DUE)
    block(5)
    live = again.next_event(DUE)
    assert [e.json()["number"] for e in [*seen, *replayed, live]] == [1, 2, 3, 4, 5]
    again.assert_silent(0.5)


def test_timestamp_gt_replays_from_that_instant(connect):
    for number in (1, 2, 3):
        block(number)
    client = connect(f"/api/v1/blocks/stream?timestamp=gt:{format_timestamp(T + SECOND)}")
    assert [event.json()["number"] for event in client.events(2, DUE)] == [2, 3]
    block(4)
    assert client.next_event(DUE).json()["number"] == 4


def test_a_replay_longer_than_a_page_is_whole(connect):
    create_record_files(*(record_file(n, T + n * SECOND) for n in range(1, 251)))
    client = connect(f"/api/v1/blocks/stream?timestamp=gt:{format_timestamp(T)}")
    assert [event.json()["number"] for event in client.events(250, DUE)] == list(range(1, 251))


def test_topic_messages_arrive_in_either_encoding(connect):
    create_message(TOPIC, 1, T + 1)
    base64 = listening(connect(f"/api/v1/topics/0.0.{TOPIC}/messages/stream"))
    text = listening(connect(f"/api/v1/topics/{TOPIC}/messages/stream?encoding=utf-8"))
    create_message(TOPIC + 1, 1, T + 2)
    create_message(TOPIC, 2, T + 3)
    create_message(TOPIC, 3, T + 4)
    events = base64.events(2, DUE)
    assert [event.json()["sequence_number"] for event in events] == [2, 3]
    assert events[0].data == list_item(f"/api/v1/topics/{TOPIC}/messages?sequencenumber=2", "messages")
    assert text.next_event(DUE).data == list_item(
        f"/api/v1/topics/{TOPIC}/messages?sequencenumber=2&encoding=utf-8", "messages"
    )
    assert text.next_event(DUE).json()["message"] == "message 3"


def test_account_transactions_arrive_filtered_as_the_list_renders_them(connect):
    create_entity(ACCOUNT)
    every = listening(connect(f"/api/v1/accounts/0.0.{ACCOUNT}/transactions/stream"))
    failed = listening(
        connect(f"/api/v1/accounts/{ACCOUNT}/transactions/stream?result=fail&transactiontype=cryptotransfer")
    )
    create_transaction(T + 1, OTHER_ACCOUNT)
    create_transaction(T + 2, ACCOUNT)
    received = create_transaction(T + 3, OTHER_ACCOUNT, fee=0)
    create_crypto_transfers(received, (OTHER_ACCOUNT, -5), (ACCOUNT, 5))
    create_transaction(T + 4, ACCOUNT, result=11)
    events = every.events(3, DUE)
    assert [event.id for event in events] == [format_timestamp(T + n) for n in (2, 3, 4)]
    assert events[1].data == list_item(f"/api/v1/transactions?account.id={ACCOUNT}&order=asc", "transactions", 1)
    assert failed.next_event(DUE).id == format_timestamp(T + 4)
    failed.assert_silent(0.5)


@pytest.mark.parametrize(
    ("target", "headers", "status", "messages"),
    [
        ("/api/v1/blocks/stream?limit=5", {}, 400, ["Unknown query parameter: limit"]),
        ("/api/v1/blocks/stream?timestamp=lt:1", {}, 400, ["Invalid parameter: timestamp"]),
        ("/api/v1/blocks/stream", {"Last-Event-ID": "yesterday"}, 400, ["Invalid header: Last-Event-ID"]),
        ("/api/v1/topics/0.0.x/messages/stream", {}, 400, ["Invalid parameter: topic.id"]),
        ("/api/v1/topics/7/messages/stream?encoding=hex", {}, 400, ["Invalid parameter: encoding"]),
        ("/api/v1/accounts/0.0.1001/transactions/stream?result=maybe", {}, 400, ["Invalid parameter: result"]),
        ("/api/v1/accounts/0.0.1001/transactions/stream?transactiontype=x", {}, 400, ["Invalid parameter: transactiontype"]),
        ("/api/v1/accounts/0.0.1001/transactions/stream", {}, 404, ["Not found"]),
        ("/api/v1/blocks", {}, 404, ["Not found"]),
    ],
)
def test_refusals_answer_the_envelope(connect, target, headers, status, messages):
    client = connect(target, headers)
    assert client.status == status
    assert client.headers["content-type"] == "application/json; charset=utf-8"
    assert json.loads(client.body()) == {"_status": {"messages": [{"message": m} for m in messages]}}


def test_streams_beyond_the_per_client_limit_answer_429(connect):
    streams = [listening(connect("/api/v1/blocks/stream")) for _ in range(OPTIONS.per_client)]
    refused = connect("/api/v1/blocks/stream")
    assert refused.status == 429
    assert json.loads(refused.body()) == {"_status": {"messages": [{"message": "Too many streams"}]}}
    streams[0].close()
    # The slot is free once the server has seen the client leave.
    for _ in range(100):
        admitted = connect("/api/v1/blocks/stream")
        if admitted.status == 200:
            break
        admitted.close()
    assert admitted.status == 200


def test_idle_streams_get_heartbeats(connect):
    client = listening(connect("/api/v1/blocks/stream"))
    with pytest.raises(TimeoutError):
        client.next_event(OPTIONS.heartbeat * 3)
    assert b": heartbeat" in client.comments


def test_the_main_port_redirects_a_valid_request_to_the_stream_server(settings):
    settings.STREAM_BIND = "0.0.0.0:8621"
    answer = Client().get("/api/v1/blocks/stream?timestamp=gt:1", HTTP_HOST="mirror.example:8000")
    assert answer.status_code == 307
    assert answer["Location"] == "http://mirror.example:8621/api/v1/blocks/stream?timestamp=gt:1"
    settings.STREAM_URL = "https://streams.example/"
    answer = Client().get("/api/v1/topics/7/messages/stream")
    assert answer["Location"] == "https://streams.example/api/v1/topics/7/messages/stream"


def test_the_main_port_refuses_what_the_stream_server_would(settings):
    settings.STREAM_BIND = "127.0.0.1:8621"
    answer = Client().get("/api/v1/accounts/0.0.1001/transactions/stream?result=maybe")
    assert (answer.status_code, answer.json()) == (400, {"_status": {"messages": [{"message": "Invalid parameter: result"}]}})
    assert Client().get("/api/v1/accounts/0.0.1001/transactions/stream").status_code == 404


def test_without_a_stream_server_the_stream_paths_are_not_found(settings):
    settings.STREAM_BIND = None
    settings.STREAM_URL = None
    answer = Client().get("/api/v1/blocks/stream")
    assert (answer.status_code, answer.json()) == (404, {"_status": {"messages": [{"message": "Not found"}]}})


def test_the_poller_outlives_a_lost_database_connection(connect):
    client = listening(connect("/api/v1/blocks/stream"))
    block(1)
    assert client.next_event(DUE).json()["number"] == 1
    with connection.cursor() as cursor:
        cursor.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity"
            " where datname = current_database() and pid <> pg_backend_pid()"
        )
    block(2)
    block(3)
    assert [event.json()["number"] for event in client.events(2, DUE)] == [2, 3]


def test_a_subscriber_reading_too_slowly_is_dropped_not_buffered():
    async def scenario():
        request = StreamRequest(feed=BlockFeed())
        subscriber = Subscriber(request, capacity=3)
        events = [Event(n, {}, {"": b""}) for n in range(1, 5)]
        subscriber.deliver(events[:2])
        assert (len(subscriber.pending), subscriber.dropped) == (2, False)
        subscriber.deliver(events[2:])
        return len(subscriber.pending), subscriber.dropped, subscriber.wake.is_set()

    assert asyncio.run(scenario()) == (0, True, True)


def raw_answer(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """(status line, lower-cased headers, body) of a request sent as bytes, for heads SseClient won't send."""
    with socket.create_connection(("127.0.0.1", port), timeout=DUE) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < content_length(answer):
            if not (chunk := sock.recv(65536)):
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    return status_line, {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}, body


def content_length(answer: bytes) -> int:
    for line in answer.partition(b"\r\n\r\n")[0].lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


@pytest.mark.parametrize(
    ("target", "method", "status"),
    [
        ("/api/v1/blocks/stream", "GET", 200),
        ("/api/v1/blocks/stream?limit=5", "GET", 400),
        ("/api/v1/blocks", "GET", 404),
        ("/api/v1/blocks/stream", "OPTIONS", 204),
        ("/api/v1/blocks/stream", "TRACE", 405),
    ],
)
def test_every_answer_carries_the_security_headers(connect, stream_server, target, method, status):
    if method == "GET":
        client = connect(target)
        headers = client.headers
        assert client.status == status
    else:
        status_line, headers, _ = raw_answer(
            stream_server.address[1], f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        assert status_line.split()[1] == str(status)
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["access-control-allow-origin"] == "*"


def test_trace_is_405_in_the_envelope(stream_server):
    status_line, headers, body = raw_answer(
        stream_server.address[1], b"TRACE /api/v1/blocks/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: secret\r\n\r\n"
    )

    assert status_line == "HTTP/1.1 405 Method Not Allowed"
    assert headers["allow"] == "GET, HEAD, OPTIONS"
    assert json.loads(body) == {"_status": {"messages": [{"message": "Method not allowed"}]}}


def test_a_head_over_16_kib_is_431_in_the_envelope(stream_server):
    status_line, headers, body = raw_answer(
        stream_server.address[1],
        b"GET /api/v1/blocks/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + b"c" * 17_000 + b"\r\n\r\n",
    )

    assert status_line == "HTTP/1.1 431 Request Header Fields Too Large"
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert json.loads(body) == {"_status": {"messages": [{"message": "Request header fields too large"}]}}
