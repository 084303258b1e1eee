"""The list-route cache on a real Redis, shared by production servers: an answer one server
kept is served by another, expires with its time-to-live, and a Redis down costs only the
cache (answers uncached, no 5xx, no stall) until it is back."""

import time

import pytest

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common import shared_cache
from apps.common.database.fixtures import empty_mirror_tables

pytestmark = pytest.mark.django_db(transaction=True)

T = 1_676_540_001_000_000_000
BLOCKS = "/api/v1/blocks"
# The name a load balancer's clients reach every server by: the `Host` is part of a kept answer's key.
PUBLIC_HOST = {"Host": "localhost"}
# Far above a request's cost with Redis refusing, far below one waiting on it unbounded.
SLOWEST_ANSWER_WITHOUT_REDIS = 1.0


@pytest.fixture
def blocks():
    """Blocks 1 to 3, committed for the servers to read; the mirror's tables, which the
    test database's flush leaves alone, are emptied again after."""
    empty_mirror_tables()
    add_blocks(1, 2, 3)
    yield
    empty_mirror_tables()


def add_blocks(*numbers: int) -> None:
    create_record_files(*(record_file(number, T + number * 1000) for number in numbers))


def numbers(answer) -> list[int]:
    assert answer.status == 200, answer.body
    return [block["number"] for block in answer.json()["blocks"]]


def keyspace_reads(redis_server) -> tuple[int, int]:
    """Redis's count of reads that found their key, and of those that did not."""
    with redis_server.client() as client:
        stats = client.info("stats")
    return stats["keyspace_hits"], stats["keyspace_misses"]


def kept_answers(redis_server) -> int:
    with redis_server.client() as client:
        return client.dbsize()


def server_on(start_production_server, redis_server, list_cache_ttl: str):
    server = start_production_server(MIRROR_REDIS_URL=redis_server.url, MIRROR_LIST_CACHE_TTL=list_cache_ttl)
    assert server.get_when_served(f"{BLOCKS}/1").status == 200
    return server


def test_an_answer_one_server_kept_is_served_by_another(start_production_server, redis_server, blocks):
    keeping = server_on(start_production_server, redis_server, "blocks=60")
    serving = server_on(start_production_server, redis_server, "blocks=60")
    before_keeping = keyspace_reads(redis_server)
    kept = keeping.get(BLOCKS, PUBLIC_HOST)
    add_blocks(4)
    before_serving = keyspace_reads(redis_server)

    served = [serving.get(BLOCKS, PUBLIC_HOST) for _ in range(20)]

    assert numbers(kept) == [3, 2, 1]
    assert {answer.body for answer in served} == {kept.body}
    # One read per request: a miss is looked up once, though the thread lanes and the handler both look.
    assert [now - then for now, then in zip(before_serving, before_keeping)] == [0, 1]
    assert [now - then for now, then in zip(keyspace_reads(redis_server), before_serving)] == [20, 0]
    # What no server kept is read afresh, a lookup of one id always.
    assert numbers(serving.get(f"{BLOCKS}?limit=5", PUBLIC_HOST)) == [4, 3, 2, 1]
    assert serving.get(f"{BLOCKS}/4", PUBLIC_HOST).json()["number"] == 4


def test_a_kept_answer_is_served_until_its_time_to_live_ends(start_production_server, redis_server, blocks):
    time_to_live = 3
    server = server_on(start_production_server, redis_server, f"blocks={time_to_live}")
    kept_at = time.monotonic()
    kept = server.get(BLOCKS)
    add_blocks(4)

    stale_answers = 0
    while (answer := server.get(BLOCKS)).body == kept.body:
        stale_answers += 1
        assert time.monotonic() - kept_at < time_to_live + 5, "the kept answer outlived its time-to-live"
        time.sleep(0.1)
    read_afresh_after = time.monotonic() - kept_at

    assert numbers(kept) == [3, 2, 1]
    assert numbers(answer) == [4, 3, 2, 1]
    assert stale_answers > 0
    assert read_afresh_after >= time_to_live


def test_with_redis_down_answers_go_uncached_and_are_kept_again_once_it_is_back(
    start_production_server, redis_server, blocks
):
    server = server_on(start_production_server, redis_server, "blocks=60")
    assert numbers(server.get(BLOCKS)) == [3, 2, 1]

    redis_server.stop()
    add_blocks(4)
    answers, durations = [], []
    for target in [BLOCKS, f"{BLOCKS}?limit=2", f"{BLOCKS}/4"] * 10:
        started = time.monotonic()
        answers.append(server.get(target))
        durations.append(time.monotonic() - started)

    assert {answer.status for answer in answers} == {200}
    assert numbers(answers[0]) == [4, 3, 2, 1]
    assert max(durations) < SLOWEST_ANSWER_WITHOUT_REDIS

    redis_server.start()
    deadline = time.monotonic() + 10
    while kept_answers(redis_server) == 0:
        assert server.get(BLOCKS).status == 200
        assert time.monotonic() < deadline, "no answer was kept once Redis was back"
        time.sleep(0.1)
    add_blocks(5)

    assert numbers(server.get(BLOCKS)) == [4, 3, 2, 1]


def test_a_redis_that_stops_answering_costs_one_timeout_per_back_off(
    start_production_server, redis_server, blocks, settings
):
    """A frozen Redis still takes connections: each call waits out the client's timeout, and
    the cache is then left alone for its back-off."""
    server = server_on(start_production_server, redis_server, "blocks=60")
    assert numbers(server.get(BLOCKS)) == [3, 2, 1]
    socket_timeout = settings.REDIS_TIMEOUTS["SOCKET_TIMEOUT"]

    redis_server.freeze()
    add_blocks(4)
    answers, durations = [], []
    burst_started = time.monotonic()
    for _ in range(30):
        started = time.monotonic()
        answers.append(server.get(BLOCKS))
        durations.append(time.monotonic() - started)
    elapsed = time.monotonic() - burst_started
    redis_server.thaw()

    assert {answer.status for answer in answers} == {200}
    assert numbers(answers[-1]) == [4, 3, 2, 1]
    assert max(durations) < SLOWEST_ANSWER_WITHOUT_REDIS
    waits = [duration for duration in durations if duration >= socket_timeout]
    assert 1 <= len(waits) <= 1 + elapsed / shared_cache.BACKOFF
