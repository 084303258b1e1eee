"""The Server-Sent Events server: one asyncio loop per process, in a thread of its own.

Ordinary routes stay on granian's WSGI threads (their speed is untouched); the
streams are served here, where an idle stream costs a few kilobytes and no thread,
so one process holds thousands. Every worker process listens on the same stream
address (SO_REUSEPORT: the kernel spreads connections over them) and has one
`Hub` (one poller). The main port answers the stream paths with a redirect here
(`apps.streams.views`).

HTTP/1.1, `GET` only, one stream per connection (TRACE is 405, a head over
MAX_HEAD_BYTES 431, both in the envelope). A request is validated in a
thread (the list routes' parsing and lookups: 400, 404 and 503 answer the error
envelope), admitted within the per-address and total limits (429), then answered
`text/event-stream`: the comment `: connected` once every new event is bound to
reach the stream, the replay of what is past `Last-Event-ID` (or `timestamp=gt:`),
then each new event as the poller finds it,
and a heartbeat comment whenever nothing was sent for a while. The answer has no
length; it ends when the client leaves or is dropped for reading too slowly.
"""

import asyncio
import logging
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from urllib.parse import unquote

from django.conf import settings

from apps.common.api.exceptions import error_body, error_status_and_messages
from apps.common.api.renderers import MirrorJSONRenderer
from apps.common.database.replicas import reading_a_replica
from apps.common.errors import HeadersTooLarge, MethodNotAllowed
from apps.common.server.middleware import REFUSED_METHOD, security_headers
from apps.streams.feeds import StreamRequest, stream_request
from apps.streams.hub import Hub, Subscriber

__all__ = ("BackgroundStreamServer", "StreamServer", "StreamSettings", "match_route", "start_stream_server")

logger = logging.getLogger("apps.streams")

_ROUTES = (
    ("blocks", re.compile(r"^/api/v1/blocks/stream/?$")),
    ("topic", re.compile(r"^/api/v1/topics/([^/]+)/messages/stream/?$")),
    ("account", re.compile(r"^/api/v1/accounts/([^/]+)/transactions/stream/?$")),
)
MAX_HEAD_BYTES = 16 * 1024
HEAD_TIMEOUT_SECONDS = 10
# Threads validating requests and reading replays, each connecting for the read at hand.
SETUP_THREADS = 4
_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
            429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
            503: "Service Unavailable"}
_ALLOW = b"allow: GET, HEAD, OPTIONS\r\n"


def match_route(path: str) -> tuple[str, str | None] | None:
    """(stream name, its path id) for a stream path; None for any other path."""
    for name, pattern in _ROUTES:
        if match := pattern.match(path):
            return name, (unquote(match.group(1)) if pattern.groups else None)
    return None


@dataclass(frozen=True)
class StreamSettings:
    interval: float
    heartbeat: float
    buffer: int
    per_client: int
    total: int
    write_timeout: float

    @classmethod
    def from_settings(cls) -> "StreamSettings":
        return cls(**settings.STREAMS)


class StreamServer:
    def __init__(self, options: StreamSettings | None = None):
        self.options = options or StreamSettings.from_settings()
        self.hub = Hub(interval=self.options.interval)
        self.executor = ThreadPoolExecutor(max_workers=SETUP_THREADS, thread_name_prefix="stream-setup")
        self.open_by_address: Counter[str] = Counter()

    @property
    def open_streams(self) -> int:
        return self.open_by_address.total()

    async def serve(self, host: str, port: int) -> asyncio.Server:
        return await asyncio.start_server(
            self.handle, host, port, limit=MAX_HEAD_BYTES, reuse_port=True, backlog=4096
        )

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._handle(reader, writer)
        except asyncio.LimitOverrunError:
            await _answer_error(writer, 431, HeadersTooLarge().messages)
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass
        except Exception:
            logger.exception("stream failed")
        finally:
            writer.close()

    async def _handle(self, reader, writer) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_SECONDS)
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, _, rest = request_line.partition(" ")
        target = rest.rpartition(" ")[0]
        path, _, query = target.partition("?")
        headers = {}
        for line in header_lines:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        route = match_route(path)
        if method == "OPTIONS":
            return await _answer(writer, 204, b"")
        if method == REFUSED_METHOD:
            return await _answer_error(writer, 405, MethodNotAllowed().messages, _ALLOW)
        if route is None or method not in ("GET", "HEAD"):
            return await _answer_error(writer, 404, ["Not found"])
        address = (writer.get_extra_info("peername") or ("",))[0]
        if self.open_streams >= self.options.total or self.open_by_address[address] >= self.options.per_client:
            return await _answer_error(writer, 429, ["Too many streams"])
        self.open_by_address[address] += 1
        try:
            name, segment = route
            loop = asyncio.get_running_loop()
            try:
                request = await loop.run_in_executor(
                    self.executor, _in_thread, stream_request, name, segment, query, headers.get("last-event-id")
                )
            except Exception as exc:
                status, messages = error_status_and_messages(exc)
                return await _answer_error(writer, status, messages)
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                b"cache-control: no-cache\r\nx-accel-buffering: no\r\nconnection: close\r\n"
                + _constant_headers()
                + b"\r\n"
            )
            await writer.drain()
            if method == "GET":
                await self._stream(request, reader, writer)
        finally:
            self.open_by_address[address] -= 1
            if not self.open_by_address[address]:
                del self.open_by_address[address]

    async def _stream(self, request: StreamRequest, reader, writer) -> None:
        subscriber = Subscriber(request, capacity=self.options.buffer)
        self.hub.subscribe(subscriber)
        watcher = asyncio.ensure_future(_wake_at_eof(reader, subscriber))
        try:
            cursor = await self._until(subscriber.ready, writer)
            # From here on every new event reaches this stream.
            writer.write(b": connected\n\n")
            position = cursor if request.after is None else request.after
            loop = asyncio.get_running_loop()
            while position < cursor and not watcher.done():
                events = await loop.run_in_executor(self.executor, _in_thread, request.feed.events_after, position)
                events = [event for event in events if event.timestamp <= cursor]
                if not events:
                    break
                await self._send(writer, [e for e in events if request.wants(e.row)], request.variant)
                position = events[-1].timestamp
            position = max(position, cursor)
            while not watcher.done() and not subscriber.dropped:
                if subscriber.pending:
                    events = [e for e in subscriber.pending if e.timestamp > position]
                    subscriber.pending.clear()
                    if events:
                        await self._send(writer, events, request.variant)
                        position = events[-1].timestamp
                    continue
                subscriber.wake.clear()
                try:
                    await asyncio.wait_for(subscriber.wake.wait(), self.options.heartbeat)
                except TimeoutError:
                    writer.write(b": heartbeat\n\n")
                    await asyncio.wait_for(writer.drain(), self.options.write_timeout)
        finally:
            self.hub.unsubscribe(subscriber)
            watcher.cancel()

    async def _until(self, future: asyncio.Future, writer) -> int:
        """The future's result, sending heartbeats while it takes long (the database may be down)."""
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.options.heartbeat)
            except TimeoutError:
                writer.write(b": heartbeat\n\n")
                await asyncio.wait_for(writer.drain(), self.options.write_timeout)

    async def _send(self, writer, events, variant: str) -> None:
        if events:
            writer.write(b"".join(event.frames[variant] for event in events))
            await asyncio.wait_for(writer.drain(), self.options.write_timeout)


async def _wake_at_eof(reader: asyncio.StreamReader, subscriber: Subscriber) -> None:
    """Returns once the client has closed its side (nothing it sends matters)."""
    try:
        while await reader.read(4096):
            pass
    except ConnectionError:
        pass
    subscriber.wake.set()


def _in_thread(function, *args):
    """Runs a Django read in a setup thread, on a replica when there are."""
    # Not kept between requests: a thread of the pool may not run again for long.
    with reading_a_replica(close=True):
        return function(*args)


@cache
def _constant_headers() -> bytes:
    """What every answer carries, as on the main port: CORS for any origin, and the security
    headers (nosniff, referrer and opener policies)."""
    headers = [("access-control-allow-origin", "*"), *security_headers()]
    return b"".join(f"{name.lower()}: {value}\r\n".encode() for name, value in headers)


async def _answer(writer, status: int, body: bytes, extra_headers: bytes = b"") -> None:
    writer.write(
        f"HTTP/1.1 {status} {_REASONS[status]}\r\n".encode()
        + (b"content-type: application/json; charset=utf-8\r\n" if body else b"")
        + f"content-length: {len(body)}\r\nconnection: close\r\n".encode()
        + extra_headers
        + _constant_headers()
        + b"\r\n"
        + body
    )
    await writer.drain()


async def _answer_error(writer, status: int, messages: list, extra_headers: bytes = b"") -> None:
    await _answer(writer, status, MirrorJSONRenderer().render(error_body(*messages)), extra_headers)


class BackgroundStreamServer:
    """A `StreamServer` on its own event loop in a daemon thread of this process."""

    def __init__(self, bind: str, options: StreamSettings | None = None):
        host, _, port = bind.rpartition(":")
        self.address = (host, int(port))
        self.server = StreamServer(options)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stream-server", daemon=True)

    def start(self) -> "BackgroundStreamServer":
        self._thread.start()
        if not self._listening.wait(10):
            raise RuntimeError(f"the stream server could not listen on {self.address}")
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self.server.hub.stop()
        self.server.executor.shutdown()

    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        try:
            listener = self._loop.run_until_complete(self.server.serve(*self.address))
        except OSError:
            logger.exception("cannot listen on %s", self.address)
            self._loop.close()
            return
        self._listening.set()
        try:
            self._loop.run_forever()
        finally:
            listener.close()
            streams = asyncio.all_tasks(self._loop)
            for task in streams:
                task.cancel()
            self._loop.run_until_complete(asyncio.gather(*streams, return_exceptions=True))
            self._loop.close()


def start_stream_server(bind: str) -> BackgroundStreamServer | None:
    """The process's stream server; None, logged, when it cannot listen (the API is served without it)."""
    try:
        return BackgroundStreamServer(bind).start()
    except (OSError, RuntimeError, ValueError):
        logger.exception("the streams are not served: cannot listen on %s", bind)
        return None
