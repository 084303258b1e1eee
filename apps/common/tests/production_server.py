"""The production HTTP server in tests: defects of the server layer show only there.

Registered by the project's root `conftest.py`, so every test can use:

- `production_server` (session): granian started by `scripts/run-server` with
  one worker, serving the test database (a test using a server is marked
  `django_db` unless it is already). Rows a test writes must be committed to be
  seen: use `@pytest.mark.django_db(transaction=True)`.
- `start_production_server` (function): a factory for a server of its own,
  `start_production_server(url=None, **env)` (url: its DATABASE_URL, default
  the test database), stopped after the test.
- `freezable_database` (function): a `FreezableProxy` of the test database, to
  serve with `start_production_server(proxy.database_url)`.

A server answers `server.request(method, target, headers=..., body=...)` and
`server.get(target)` with an `Answer` (status, lower-cased headers, body,
`json()`); `server.raw(bytes)` sends bytes as they are, for requests no HTTP
client would send, and parses the answer alike. `server.worker_pids()` lists
its workers; `server.get_when_served(target)` retries while none serves.

Ports: the first free one of MIRROR_TEST_SERVER_PORTS ("8100-8109") when set,
else one the system picks. The server's output is in `server.log_path` while
it runs, and in the error when it fails to start.

Each server has a directory of its own, `server.temp_dir`: its log, and its TMPDIR
(unless the test gives one), where run-server keeps the run's files
(`server.run_dir()`). Stopping the server, as every fixture does on its way out (also
after a failure, Ctrl-C or SIGTERM: the root conftest.py), ends every process of its
session and deletes that directory.
"""

import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[3]
START_TIMEOUT = 60
STOP_TIMEOUT = 10
TEST_SECRET_KEY = "test-only-secret-key-of-the-production-server-fixture-0123456789"
TEST_ALLOWED_HOSTS = "127.0.0.1,localhost"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


class ProductionServer:
    def __init__(self, database_url: str, env: dict[str, str]):
        self.port = free_port()
        self.temp_dir = Path(tempfile.mkdtemp(prefix="mirror-test-server-"))
        self.log_path = self.temp_dir / "server.log"
        self.env = {
            **os.environ,
            "TMPDIR": str(self.temp_dir),
            "DATABASE_URL": database_url,
            "MIRROR_SECRET_KEY": TEST_SECRET_KEY,
            "MIRROR_ALLOWED_HOSTS": TEST_ALLOWED_HOSTS,
            "MIRROR_BIND": f"127.0.0.1:{self.port}",
            "MIRROR_WORKERS": "1",
            **env,
        }
        self.process: subprocess.Popen | None = None
        self._stopped = False

    def launch(self) -> None:
        """Starts the server in a session of its own, without waiting for it."""
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [str(PROJECT_DIR / "scripts" / "run-server")],
                cwd=PROJECT_DIR,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def start(self) -> "ProductionServer":
        """Starts the server and waits until it listens; stopped again if it does not."""
        try:
            self.launch()
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited at start:\n{self.log_path.read_text()}")
                with suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
                time.sleep(0.1)
            raise RuntimeError(f"the server did not listen within {START_TIMEOUT} s:\n{self.log_path.read_text()}")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stops every process of the server's session (granian, its workers, the contract
        executors) and deletes `temp_dir`."""
        if self.process is not None and not self._stopped:
            end_session(self.process)
            self._stopped = True
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def run_dir(self) -> Path:
        """The directory run-server made for this run in the server's TMPDIR."""
        (found,) = Path(self.env["TMPDIR"]).glob("mirror-server-*")
        return found

    def worker_pids(self) -> list[int]:
        """granian's workers (its other child is the contract execution pool)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        return [int(pid) for pid in children.split() if b"granian" in _command_line(int(pid))]

    def request(
        self, method: str, target: str, headers: dict | None = None, body: bytes | None = None, timeout: float = 30
    ) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, target, body=body, headers=headers or {})
            return _answer(connection.getresponse())
        finally:
            connection.close()

    def get(self, target: str, headers: dict | None = None, timeout: float = 30) -> Answer:
        return self.request("GET", target, headers, timeout=timeout)

    def get_when_served(self, target: str, within: float = START_TIMEOUT) -> Answer:
        """GET `target`, again while connections are refused or dropped (a worker restarting)."""
        deadline = time.monotonic() + within
        while True:
            try:
                return self.get(target)
            except ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def raw(self, data: bytes, timeout: float = 30) -> Answer:
        """Sends `data` as is and reads the answer until the server closes the
        connection (send `Connection: close`)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as client:
            with suppress(ConnectionResetError, BrokenPipeError):
                client.sendall(data)
            chunks = []
            with suppress(ConnectionResetError):
                while chunk := client.recv(65536):
                    chunks.append(chunk)
        response = http.client.HTTPResponse(_Replay(b"".join(chunks)))
        response.begin()
        return _answer(response)


def run_in_session(command: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    """`command`, its output captured, in a session of its own: ended with every process it
    started (an initdb, say) when the test is interrupted, rather than leaving them at work."""
    process = subprocess.Popen(
        command, cwd=PROJECT_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except BaseException:
        end_session(process)
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def end_session(leader: subprocess.Popen) -> None:
    """SIGTERM to every process of the session `leader` leads, then SIGKILL to the ones left
    after STOP_TIMEOUT. The session's processes share its process group."""
    group = leader.pid
    with suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while running_in_group(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    with suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    leader.wait()


def running_in_group(group: int) -> list[int]:
    """The processes of process group `group` still running; one that has exited counts as
    gone before its parent (or, orphaned, init) has collected its status."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            # The fields after the command's name, which may hold spaces and parentheses.
            state, _, process_group = stat.read_text().rpartition(")")[2].split()[:3]
            if int(process_group) == group and state not in "ZX":
                running.append(int(stat.parent.name))
    return running


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def _answer(response: http.client.HTTPResponse) -> Answer:
    return Answer(response.status, {name.lower(): value for name, value in response.getheaders()}, response.read())


class _Replay:
    """Received bytes, as the socket `http.client` reads a response from."""

    def __init__(self, data: bytes):
        self.data = data

    def makefile(self, mode: str) -> io.BytesIO:
        return io.BytesIO(self.data)


def free_port() -> int:
    configured = os.environ.get("MIRROR_TEST_SERVER_PORTS")
    candidates = range(int(configured.split("-")[0]), int(configured.split("-")[-1]) + 1) if configured else [0]
    for port in candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise RuntimeError(f"no free port in MIRROR_TEST_SERVER_PORTS={configured}")


def database_url(settings_dict: dict, socket_dir: str | None = None) -> str:
    """A DATABASE_URL for the database Django is connected to (the test database
    during tests), or for the same database through the Unix socket in `socket_dir`."""
    options = settings_dict.get("OPTIONS", {})
    host = socket_dir or settings_dict.get("HOST") or options.get("host", "")
    port = settings_dict.get("PORT") or options.get("port") or ""
    credentials = quote(settings_dict["USER"] or "", safe="")
    if settings_dict.get("PASSWORD"):
        credentials += ":" + quote(settings_dict["PASSWORD"], safe="")
    location = quote(host, safe="") + (f":{port}" if port else "")
    return f"postgres://{credentials}@{location}/{quote(settings_dict['NAME'], safe='')}"


class FreezableProxy:
    """A PostgreSQL stand-in that stops answering on demand, like a frozen server.

    Listens on a Unix socket in `socket_dir` and forwards every connection to the
    database. `freeze()` stops forwarding bytes (connections stay open, requests
    are read and held, nothing comes back); `thaw()` delivers what was held.
    """

    def __init__(self, settings_dict: dict):
        options = settings_dict.get("OPTIONS", {})
        host = settings_dict.get("HOST") or options.get("host") or "localhost"
        port = int(settings_dict.get("PORT") or options.get("port") or 5432)
        if host.startswith("/"):
            self.target = (socket.AF_UNIX, f"{host}/.s.PGSQL.{port}")
        else:
            self.target = (socket.AF_INET, (host, port))
        self.socket_dir = tempfile.mkdtemp(prefix="pgproxy-", dir="/tmp")
        self.database_url = database_url(settings_dict, socket_dir=self.socket_dir)
        self._flowing = threading.Event()
        self._flowing.set()
        self._sockets: list[socket.socket] = []
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(f"{self.socket_dir}/.s.PGSQL.{port}")
        self._listener.listen()
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self.thaw()
        for sock in [self._listener, *self._sockets]:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    def _accept(self) -> None:
        with suppress(OSError):
            while True:
                client, _ = self._listener.accept()
                upstream = socket.socket(self.target[0], socket.SOCK_STREAM)
                upstream.connect(self.target[1])
                self._sockets += [client, upstream]
                threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
                threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source: socket.socket, destination: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                self._flowing.wait()
                destination.sendall(data)
        with suppress(OSError):
            destination.shutdown(socket.SHUT_WR)


SERVER_FIXTURES = frozenset({"production_server", "start_production_server", "freezable_database"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A server serves the test database: a test using one gets it created, as a `db` test does."""
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.django_db)


@pytest.fixture(scope="session")
def production_server(django_db_setup, django_db_blocker):
    from django.db import connection

    server = ProductionServer(database_url(connection.settings_dict), {}).start()
    yield server
    server.stop()


@pytest.fixture
def start_production_server(django_db_setup):
    from django.db import connection

    servers: list[ProductionServer] = []

    def start(url: str | None = None, **env: str) -> ProductionServer:
        server = ProductionServer(url or database_url(connection.settings_dict), env)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def freezable_database(django_db_setup):
    from django.db import connection

    proxy = FreezableProxy(connection.settings_dict)
    yield proxy
    proxy.close()
