"""A real Redis server in tests, for the caches the service shares on it.

Registered by the project's root `conftest.py`, so every test can use `redis_server`
(function): a `redis-server` (installed by scripts/ensure-redis) started on a free loopback
port, with a directory of its own and nothing saved to disk, answering PING. It offers:

- `redis_server.url`: its `redis://` URL, for MIRROR_REDIS_URL;
- `redis_server.client()`: a redis-py client of it;
- `redis_server.stop()` and `redis_server.start()`: an outage, and the same server back on
  the same port, empty;
- `redis_server.freeze()` and `redis_server.thaw()`: a server that stops answering (SIGSTOP)
  while its port still takes connections, and the same server answering again.

Like the production server (apps/common/tests/production_server.py), it runs in a session
of its own, ended whole and its directory deleted on every way out of the test, a failure,
Ctrl-C and SIGTERM included (the root conftest.py).
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import pytest
import redis

from apps.common.tests.production_server import end_session, free_port

START_TIMEOUT = 10


class RedisServer:
    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.temp_dir = Path(tempfile.mkdtemp(prefix="mirror-test-redis-"))
        self.log_path = self.temp_dir / "redis.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> "RedisServer":
        """Starts the server (again, on the same port) and waits until it answers PING."""
        command = [
            shutil.which("redis-server") or "redis-server",
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.temp_dir),
            "--save", "",
            "--appendonly", "no",
            "--logfile", str(self.log_path),
        ]
        try:
            self.process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
            )
        except FileNotFoundError:
            raise RuntimeError("no redis-server on PATH: run scripts/ensure-redis") from None
        deadline = time.monotonic() + START_TIMEOUT
        with self.client() as client:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"redis-server exited at start:\n{self._log()}")
                with suppress(redis.ConnectionError):
                    if client.ping():
                        return self
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"redis-server did not answer within {START_TIMEOUT} s:\n{self._log()}")
                time.sleep(0.02)

    def stop(self) -> None:
        """Ends the server's session; its port is free once this returns."""
        if self.process is not None:
            self.thaw()  # a stopped process would only end at SIGKILL
            end_session(self.process)
            self.process = None

    def freeze(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        with suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGCONT)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=5)

    def _log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@pytest.fixture
def redis_server():
    server = RedisServer()
    try:
        yield server.start()
    finally:
        server.close()
