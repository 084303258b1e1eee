"""A minimal Server-Sent Events client over a plain socket, for the tests."""

import json
import socket
import time
from dataclasses import dataclass


@dataclass
class Event:
    id: str
    data: bytes

    def json(self):
        return json.loads(self.data)


class SseClient:
    def __init__(self, port: int, target: str, headers: dict | None = None, timeout: float = 10):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        lines = [f"GET {target} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n", time.monotonic() + timeout)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {
            name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in header_lines)
        }
        self.comments: list[bytes] = []

    def body(self, timeout: float = 10) -> bytes:
        """The rest of a non-stream answer (it has a length)."""
        length = int(self.headers["content-length"])
        deadline = time.monotonic() + timeout
        while len(self.buffer) < length:
            self._receive(deadline)
        return self.buffer[:length]

    def next_event(self, timeout: float = 5) -> Event:
        """The next event, skipping comments; TimeoutError when none comes within `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            if event := self._next_block(deadline):
                return event

    def wait_for_comment(self, comment: bytes, timeout: float = 5) -> None:
        deadline = time.monotonic() + timeout
        while comment not in self.comments:
            if event := self._next_block(deadline):
                raise AssertionError(f"an event before {comment!r}: {event}")

    def _next_block(self, deadline: float) -> Event | None:
        """The event of the next block of lines; None for a comment."""
        block = self._read_until(b"\n\n", deadline)
        fields = {}
        for line in block.split(b"\n"):
            if line.startswith(b":"):
                self.comments.append(line)
            elif line:
                name, _, value = line.partition(b": ")
                fields[name.decode()] = value
        return Event(fields["id"].decode(), fields["data"]) if "data" in fields else None

    def events(self, count: int, timeout: float = 5) -> list[Event]:
        return [self.next_event(timeout) for _ in range(count)]

    def assert_silent(self, seconds: float) -> None:
        try:
            event = self.next_event(seconds)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected event {event}")

    def close(self) -> None:
        self.socket.close()

    def _read_until(self, separator: bytes, deadline: float) -> bytes:
        while separator not in self.buffer:
            self._receive(deadline)
        block, _, self.buffer = self.buffer.partition(separator)
        return block

    def _receive(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        self.socket.settimeout(remaining)
        chunk = self.socket.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk
