"""The production server (`scripts/run-server`, one worker) holding 1,000 idle streams on
loopback while the ordinary routes keep answering; each new block reaches every stream.

Prints the figures docs/contracts.md gives (run with `-s`): memory per stream (the worker's RSS
before and after) and the delivery delay from a block's commit to its arrival, p50/p99.
"""

import asyncio
import json
import statistics
import time
from pathlib import Path

import pytest
from django.db import connection

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.database.fixtures import empty_mirror_tables
from apps.common.tests.production_server import free_port
from apps.topics.tests.factories import SECOND

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 1000
BLOCKS = 5
T = 1_700_000_000 * SECOND
# The whole test is bounded: every wait below is.
CONNECT_WITHIN = 30
DELIVER_WITHIN = 10


@pytest.fixture
def empty_mirror():
    empty_mirror_tables()
    yield
    empty_mirror_tables()


def commit_block(number: int) -> None:
    """Saves a block from a thread of the test's event loop, closing that thread's connection."""
    try:
        create_record_files(record_file(number, T + number * SECOND))
    finally:
        connection.close()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def open_stream(port: int):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/v1/blocks/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert await reader.readuntil(b"\n\n") == b": connected\n\n"
    return reader, writer


async def next_event(reader) -> dict:
    while True:
        block = await reader.readuntil(b"\n\n")
        if block.startswith(b"id: "):
            return json.loads(block.split(b"\ndata: ", 1)[1])


async def open_streams(port: int, count: int) -> list:
    deadline = time.monotonic() + CONNECT_WITHIN
    while True:  # the worker listens once it has loaded the app
        try:
            first = await open_stream(port)
            break
        except ConnectionError:
            assert time.monotonic() < deadline, "the stream server did not listen"
            await asyncio.sleep(0.2)
    rest = []
    for start in range(0, count - 1, 100):
        rest += await asyncio.gather(*(open_stream(port) for _ in range(min(100, count - 1 - start))))
    return [first, *rest]


def test_one_process_holds_1000_idle_streams_while_ordinary_routes_answer(empty_mirror, start_production_server):
    create_record_files(record_file(1, T))
    stream_port = free_port()
    server = start_production_server(
        MIRROR_STREAM_BIND=f"127.0.0.1:{stream_port}", MIRROR_STREAMS_PER_CLIENT=str(STREAMS + 10)
    )
    (worker,) = server.worker_pids()
    assert server.get_when_served("/api/v1/blocks").status == 200

    async def scenario() -> tuple[int, int, list[float]]:
        one = await open_streams(stream_port, 1)
        await asyncio.sleep(1)
        before = rss_kib(worker)
        streams = one + await open_streams(stream_port, STREAMS - 1)
        await asyncio.sleep(1)
        after = rss_kib(worker)
        # Ordinary routes answer while every stream is open.
        for _ in range(20):
            answer = await asyncio.to_thread(server.get, "/api/v1/blocks?limit=1", timeout=10)
            assert answer.status == 200
        delays = []
        for number in range(2, 2 + BLOCKS):
            await asyncio.to_thread(commit_block, number)
            committed = time.monotonic()

            async def receive(reader):
                event = await asyncio.wait_for(next_event(reader), DELIVER_WITHIN)
                assert event["number"] == number
                return time.monotonic() - committed

            delays += await asyncio.gather(*(receive(reader) for reader, _ in streams))
            await asyncio.sleep(0.2)
        for _, writer in streams:
            writer.close()
        return before, after, delays

    started = time.monotonic()
    before, after, delays = asyncio.run(scenario())
    assert time.monotonic() - started < 60
    assert len(delays) == STREAMS * BLOCKS
    per_stream = (after - before) / (STREAMS - 1)
    quantiles = statistics.quantiles(delays, n=100)
    print(
        f"\n{STREAMS} streams in one worker: RSS {before} KiB -> {after} KiB, {per_stream:.1f} KiB per stream;"
        f" delivery delay p50 {quantiles[49] * 1000:.0f} ms, p99 {quantiles[98] * 1000:.0f} ms"
        f" (poll interval 500 ms, {BLOCKS} blocks x {STREAMS} streams)"
    )
    assert server.get("/api/v1/blocks?limit=1").status == 200
