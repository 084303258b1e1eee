"""API reads on streaming replicas (apps/common/database/replicas.py), with the real servers:
a throwaway primary, two replicas streaming from it (apps/common/tests/replicas.py) and the
production server reading them. Figures are printed for the record (`-s` shows them)."""

import os
import re
import sys
import time
from contextlib import suppress
from urllib.parse import urlencode

import psycopg
import pytest
from django.db import (
    DEFAULT_DB_ALIAS,
    OperationalError,
    ProgrammingError,
    connection,
    connections,
)

from apps.common.database import replicas
from apps.common.database.watch import connection_parameters
from apps.common.tests.production_server import (
    TEST_SECRET_KEY,
    free_port,
    run_in_session,
)
from apps.common.tests.test_faults import BURST_MAX_REQUESTS, CLIENTS, Burst
from apps.streams.tests.sse import SseClient

HEALTHY_SECONDS = 1.5
AFTER_KILL_SECONDS = 3
# What the server's API connections last ran: the lag watch's connections run other statements.
API_READS_ON = (
    "select count(*) from pg_stat_activity where datname = current_database()"
    " and backend_type = 'client backend' and query like '%record_file%' and pid <> pg_backend_pid()"
)


def replicated_server(replicated_database, start_production_server, **env):
    server = start_production_server(
        replicated_database.primary.url(),
        **{
            "MIRROR_WORKERS": "2",
            "MIRROR_DATABASE_REPLICAS": ",".join(replica.url() for replica in replicated_database.replicas),
            **env,
        },
    )
    assert server.get_when_served("/api/v1/blocks/1").status == 200
    return server


def api_reads_on(cluster) -> int:
    with cluster.connect() as connection:
        return connection.execute(API_READS_ON).fetchone()[0]


def test_a_replica_killed_under_a_burst_costs_no_request_an_error(replicated_database, start_production_server):
    server = replicated_server(replicated_database, start_production_server)
    doomed, survivor = replicated_database.replicas

    with Burst(server) as burst:
        time.sleep(HEALTHY_SECONDS)
        # Both replicas serve (the primary's reads would show there too).
        assert api_reads_on(doomed) > 0 and api_reads_on(survivor) > 0
        killed_at = time.monotonic()
        doomed.kill()
        time.sleep(AFTER_KILL_SECONDS)

    exchanges = burst.exchanges
    assert len(exchanges) < BURST_MAX_REQUESTS
    before = [e for e in exchanges if e.answered_at < killed_at]
    in_flight = [e for e in exchanges if e.sent_at <= killed_at < e.answered_at]
    after = [e for e in exchanges if e.sent_at > killed_at]
    assert len(before) > 20 and len(after) > 20
    assert [e for e in exchanges if e.status != 200] == []
    # Routed around: the slowest answer sent after the kill, against the slowest before it.
    slowest_before = max(e.answered_at - e.sent_at for e in before)
    slowest_after = max(e.answered_at - e.sent_at for e in after)
    last_slow = max(
        (e.answered_at - killed_at for e in after if e.answered_at - e.sent_at > slowest_before), default=0.0
    )
    print(
        f"\nreplica killed under {CLIENTS} clients: {len(exchanges)} requests, {len(in_flight)} in flight at the kill,"
        f" 0 answers other than 200; slowest answer {slowest_before * 1000:.0f} ms before the kill,"
        f" {slowest_after * 1000:.0f} ms after; last answer slower than any before it"
        f" {last_slow * 1000:.0f} ms after the kill"
    )
    assert api_reads_on(survivor) > 0
    # Requests met the dead replica, and were served again elsewhere.
    assert "replica replica_0 out of use for 5 s: its connection broke" in server.log_path.read_text()


# The database watch's verdict on a frozen server (a probe after 0.05 s, unanswered for
# 0.25 s), the request served again on the other replica, with margin for a loaded machine.
ROUTED_AROUND_FROZEN_SECONDS = 1.5
FROZEN_SECONDS = 3


def test_a_replica_frozen_under_a_burst_is_routed_around_at_once(replicated_database, start_production_server):
    server = replicated_server(replicated_database, start_production_server)
    frozen, survivor = replicated_database.replicas

    with Burst(server) as burst:
        time.sleep(HEALTHY_SECONDS)
        assert api_reads_on(frozen) > 0 and api_reads_on(survivor) > 0
        frozen_at = time.monotonic()
        frozen.freeze()
        try:
            time.sleep(FROZEN_SECONDS)
            assert replica_in_readiness(server, "replica_0")["in_use"] is False
        finally:
            frozen.thaw()
        thawed_at = time.monotonic()
        back = wait_for(lambda: replica_in_readiness(server, "replica_0")["in_use"], "not back in use")
        back_after = time.monotonic() - thawed_at
        time.sleep(1)

    exchanges = burst.exchanges
    assert len(exchanges) < BURST_MAX_REQUESTS
    in_flight = [e for e in exchanges if e.sent_at <= frozen_at < e.answered_at]
    during = [e for e in exchanges if frozen_at < e.sent_at and e.answered_at < thawed_at]
    assert len(during) > 20
    assert [e for e in exchanges if e.status != 200] == []
    # Every request is answered well inside the round trip timeout it would otherwise wait out.
    slowest = max(e.answered_at - e.sent_at for e in exchanges if e.answered_at > frozen_at)
    last_slow = max(
        (e.answered_at - frozen_at for e in exchanges if e.answered_at > frozen_at and e.answered_at - e.sent_at > 0.2),
        default=0.0,
    )
    print(
        f"\nreplica frozen under {CLIENTS} clients: {len(exchanges)} requests, {len(in_flight)} in flight at the"
        f" freeze, 0 answers other than 200; slowest answer after it {slowest * 1000:.0f} ms, the last one"
        f" slower than 200 ms answered {last_slow * 1000:.0f} ms after the freeze; back in use"
        f" {back_after:.1f} s after the thaw"
    )
    assert slowest < ROUTED_AROUND_FROZEN_SECONDS
    assert back
    log = server.log_path.read_text()
    assert "does not answer: a probe got no answer" in log
    assert "answers again" in log
    # Served again after the thaw.
    assert api_reads_on(frozen) > 0


MAX_LAG_SECONDS = 2
TRAFFIC_REQUESTS = 60
LAG_TIMEOUT = 20


def add_block(cluster, number: int) -> None:
    with cluster.connect() as connection:
        connection.execute(
            "insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start,"
            " consensus_end, count, digest_algorithm, version, file_hash, index)"
            " values ('block-' || %(n)s, 1, 2, md5(%(n)s::text), md5((%(n)s - 1)::text), %(n)s * 100 - 10,"
            " %(n)s * 100, 1, 0, 6, '', %(n)s)",
            {"n": number},
        )


def traffic_on(server, cluster) -> int:
    """How many of the server's connections to `cluster` ran an API statement while
    TRAFFIC_REQUESTS requests were served."""
    with cluster.connect() as connection:
        (began,) = connection.execute("select clock_timestamp()").fetchone()
    # Single blocks: the list-route cache would answer a repeated list without the database.
    statuses = {server.get(f"/api/v1/blocks/{turn % 5 + 1}").status for turn in range(TRAFFIC_REQUESTS)}
    assert statuses == {200}
    with cluster.connect() as connection:
        return connection.execute(
            API_READS_ON.replace("%", "%%") + " and query_start > %s", [began]
        ).fetchone()[0]


def replica_in_readiness(server, name: str) -> dict:
    answer = server.get("/health/readiness")
    assert answer.status == 200
    (replica,) = [replica for replica in answer.json()["replicas"] if replica["name"] == name]
    return replica


def wait_for(condition, what: str):
    deadline = time.monotonic() + LAG_TIMEOUT
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return found


def test_a_replica_behind_past_the_max_lag_is_not_read_until_it_catches_up(
    replicated_database, start_production_server
):
    server = replicated_server(
        replicated_database, start_production_server, MIRROR_REPLICA_MAX_LAG=str(MAX_LAG_SECONDS), MIRROR_METRICS="true"
    )
    primary, (paused, _) = replicated_database.primary, replicated_database.replicas
    assert replica_in_readiness(server, "replica_0") == {"name": "replica_0", "lag": 0, "in_use": True}
    assert traffic_on(server, paused) > 0

    # A commit just replayed, then replay paused: the lag counts from that commit.
    add_block(primary, 6)
    replicated_database.wait_caught_up()
    paused.pause_replay()
    paused_at = time.monotonic()
    add_block(primary, 7)
    behind = wait_for(lambda: (r := replica_in_readiness(server, "replica_0"))["lag"] > MAX_LAG_SECONDS and r, "no lag")
    print(f"\nreplay paused: readiness reported {behind} after {time.monotonic() - paused_at:.1f} s")
    assert behind["in_use"] is False
    assert replica_in_readiness(server, "replica_1") == {"name": "replica_1", "lag": 0, "in_use": True}
    time.sleep(1)  # every worker's watch has read the lag by now
    assert traffic_on(server, paused) == 0
    # Block 7 is not on the paused replica, yet every request finds it.
    assert {server.get("/api/v1/blocks/7").status for _ in range(TRAFFIC_REQUESTS)} == {200}
    metrics = server.get("/metrics").body.decode()
    assert 'mirror_database_replica_in_use{replica="replica_0"} 0.0' in metrics
    assert 'mirror_database_replica_in_use{replica="replica_1"} 1.0' in metrics
    assert 'mirror_database_replica_lag_seconds{replica="replica_1"} 0.0' in metrics

    paused.resume_replay()
    resumed_at = time.monotonic()
    back = wait_for(lambda: (r := replica_in_readiness(server, "replica_0"))["in_use"] and r, "not back in use")
    print(f"replay resumed: readiness reported {back} after {time.monotonic() - resumed_at:.1f} s")
    assert back["lag"] == 0
    time.sleep(1)
    assert traffic_on(server, paused) > 0
    assert 'mirror_database_replica_in_use{replica="replica_0"} 1.0' in server.get("/metrics").body.decode()


NEWER_BLOCKS = range(6, 11)
WALKS = 4


def walk(server, order: str) -> tuple[list[int], list[int]]:
    """The block numbers a client following `links.next` (two a page) is given."""
    numbers, target = [], f"/api/v1/blocks?limit=2&order={order}"
    while target:
        answer = server.get(target)
        assert answer.status == 200
        numbers += [block["number"] for block in answer.json()["blocks"]]
        target = answer.json()["links"]["next"]
    return numbers


def test_following_links_over_replicas_at_different_lag_neither_misses_nor_repeats_rows(
    replicated_database, start_production_server
):
    server = replicated_server(
        replicated_database, start_production_server,
        MIRROR_WORKERS="1", MIRROR_REPLICA_MAX_LAG="600", MIRROR_LIST_CACHE_TTL="blocks=0",
    )
    primary, (behind, current) = replicated_database.primary, replicated_database.replicas
    behind.pause_replay()
    for number in NEWER_BLOCKS:
        add_block(primary, number)
    replicated_database.wait_caught_up([current])
    wait_for(lambda: replica_in_readiness(server, "replica_0")["lag"] > 0, "the paused replica shows no lag")
    assert all(replica_in_readiness(server, name)["in_use"] for name in ("replica_0", "replica_1"))

    # A walk's first page lands on either replica (the worker takes them in turn, and a
    # single block between walks shifts the turn); the replica behind has blocks 1 to 5,
    # the other all 10. Whichever the walk began on, it gets all that replica had, once.
    everything = list(range(1, 11))
    walks = {"asc": [], "desc": []}
    for order, expected in (("asc", everything), ("desc", everything[::-1])):
        for turn in range(WALKS):
            numbers = walk(server, order)
            walks[order].append(numbers)
            assert numbers in (expected, [n for n in expected if n <= 5]), numbers
            if turn % 2:
                assert server.get("/api/v1/blocks/1").status == 200
    # Oldest first, a walk begun on the replica behind reaches the newer blocks too.
    assert walks["asc"] == [everything] * WALKS
    # Newest first, walks began on each replica.
    assert {tuple(numbers) for numbers in walks["desc"]} == {(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), (5, 4, 3, 2, 1)}


def reads_since(cluster, began) -> int:
    """The server's connections to `cluster` that ran an API statement since `began` (the cluster's clock)."""
    with cluster.connect() as connection:
        return connection.execute(API_READS_ON.replace("%", "%%") + " and query_start > %s", [began]).fetchone()[0]


def clock(cluster):
    with cluster.connect() as connection:
        return connection.execute("select clock_timestamp()").fetchone()[0]


def test_the_stream_poller_reads_the_replicas(replicated_database, start_production_server):
    stream_port = free_port()
    server = replicated_server(
        replicated_database, start_production_server, MIRROR_WORKERS="1", MIRROR_STREAM_BIND=f"127.0.0.1:{stream_port}"
    )
    primary, replicas = replicated_database.primary, replicated_database.replicas
    wait_for(lambda: all(replica_in_readiness(server, name)["in_use"] for name in ("replica_0", "replica_1")), "in use")
    began = clock(primary)
    stream = SseClient(stream_port, "/api/v1/blocks/stream")
    try:
        assert stream.status == 200
        stream.wait_for_comment(b": connected", LAG_TIMEOUT)
        for number in NEWER_BLOCKS:
            add_block(primary, number)
        assert [event.json()["number"] for event in stream.events(len(NEWER_BLOCKS), LAG_TIMEOUT)] == list(NEWER_BLOCKS)
    finally:
        stream.close()
    assert sum(reads_since(replica, began) for replica in replicas) > 0
    assert reads_since(primary, began) == 0


def test_management_commands_and_the_admin_write_the_primary(replicated_database, start_production_server):
    replica_urls = ",".join(replica.url() for replica in replicated_database.replicas)
    env = {
        **os.environ, "DATABASE_URL": replicated_database.primary.url(), "MIRROR_DATABASE_REPLICAS": replica_urls,
        "MIRROR_SECRET_KEY": TEST_SECRET_KEY,
    }
    # A replica refuses every write: a command run on one would fail.
    migrated = run_in_session([sys.executable, "manage.py", "migrate", "--no-input"], env, timeout=300)
    assert migrated.returncode == 0, migrated.stderr
    server = replicated_server(replicated_database, start_production_server)
    wait_for(lambda: all(replica_in_readiness(server, name)["in_use"] for name in ("replica_0", "replica_1")), "in use")
    # The status page's live components are read on the replicas (its own tables on the primary,
    # which its cache trusts to show every edit).
    began = clock(replicated_database.primary)
    assert {server.get("/api/v2/summary.json").status for _ in range(4)} == {200}
    assert sum(reads_since(replica, began) for replica in replicated_database.replicas) > 0

    login = server.get("/admin/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', login.body).group(1).decode()
    cookie = login.headers["set-cookie"].split(";")[0]
    failed = server.request(
        "POST", "/admin/login/",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Referer": "http://127.0.0.1/"},
        body=urlencode({"csrfmiddlewaretoken": token, "username": "nobody", "password": "wrong"}).encode(),
    )
    assert failed.status == 200
    # The failed attempt was written on the primary, and streamed to the replicas from there.
    with replicated_database.primary.connect() as connection:
        assert connection.execute("select username from axes_accessattempt").fetchall() == [("nobody",)]
    replicated_database.wait_caught_up()
    for replica in replicated_database.replicas:
        with replica.connect() as connection:
            assert connection.execute("select username from axes_accessattempt").fetchall() == [("nobody",)]


@pytest.fixture
def one_replica(transactional_db, monkeypatch):
    """In this process, a replica alias (to the test database itself) in use, lag read as 0."""
    monkeypatch.setitem(connections.settings, "replica_test", {**connections.settings[DEFAULT_DB_ALIAS]})
    in_process = replicas.Replicas(["replica_test"])
    state = in_process.states["replica_test"]
    state.lag = state.replayed = 0.0
    monkeypatch.setattr(replicas, "_replicas", in_process)
    yield state
    with suppress(Exception):
        replicas._connection_to("replica_test").close()
    replicas._held.__dict__.pop("replica_test", None)


def test_a_statement_failing_on_a_sound_replica_connection_backs_nothing_off(one_replica):
    with pytest.raises(ProgrammingError), replicas.reading_a_replica(close=True):
        with connection.cursor() as cursor:
            cursor.execute("select no_such_column from record_file")

    assert one_replica.in_use(time.monotonic())


def test_a_replica_connection_that_breaks_in_the_block_is_backed_off(one_replica):
    with pytest.raises(OperationalError), replicas.reading_a_replica(close=True):
        with connection.cursor() as cursor:
            cursor.execute("select pg_backend_pid()")
            (pid,) = cursor.fetchone()
            with psycopg.connect(**connection_parameters(DEFAULT_DB_ALIAS), autocommit=True) as other:
                other.execute("select pg_terminate_backend(%s)", [pid])
            cursor.execute("select 1")

    assert not one_replica.in_use(time.monotonic())


def test_the_block_reads_the_replica_and_closes_its_connection_when_asked(one_replica):
    with replicas.reading_a_replica(close=True):
        replica = connections[DEFAULT_DB_ALIAS]
        with connection.cursor() as cursor:
            cursor.execute("select 1")

    assert replica.settings_dict is connections.settings["replica_test"]
    assert replica.connection is None
    assert connections[DEFAULT_DB_ALIAS] is not replica
