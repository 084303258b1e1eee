"""API reads on streaming replicas (apps/common/database/replicas.py), with the real servers:
a throwaway primary, two replicas streaming from it (apps/common/tests/replicas.py) and the
production server reading them. Figures are printed for the record (`-s` shows them)."""

import threading
import time
from dataclasses import dataclass

CLIENTS = 6
BURST_MAX_REQUESTS = 100_000
HEALTHY_SECONDS = 1.5
AFTER_KILL_SECONDS = 3
TARGETS = ("/api/v1/blocks?limit=2", "/api/v1/blocks/1")
# What the server's API connections last ran: the lag watch's connections run other statements.
API_READS_ON = (
    "select count(*) from pg_stat_activity where datname = current_database()"
    " and backend_type = 'client backend' and query like '%record_file%' and pid <> pg_backend_pid()"
)


@dataclass(frozen=True)
class Exchange:
    target: str
    sent_at: float
    answered_at: float
    status: int | None


class Burst:
    """CLIENTS threads requesting TARGETS in turn until stopped."""

    def __init__(self, server):
        self.server = server
        self.exchanges: list[Exchange] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, args=(index,)) for index in range(CLIENTS)]

    def __enter__(self) -> "Burst":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()

    def _client(self, index: int) -> None:
        turn = index
        while not self._stop.is_set() and len(self.exchanges) < BURST_MAX_REQUESTS:
            target = TARGETS[turn % len(TARGETS)]
            turn += 1
            sent_at = time.monotonic()
            try:
                status = self.server.get(target, timeout=10).status
            except OSError:
                status = None
            self.exchanges.append(Exchange(target, sent_at, time.monotonic(), status))


def replicated_server(replicated_database, start_production_server, **env):
    server = start_production_server(
        replicated_database.primary.url(),
        MIRROR_WORKERS="2",
        MIRROR_DATABASE_REPLICAS=",".join(replica.url() for replica in replicated_database.replicas),
        **env,
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
