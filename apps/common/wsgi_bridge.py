"""A WSGI application served from an ASGI server, as lean as a bridge can be.

The ordinary routes are synchronous Django; under an ASGI server they run here in
a fixed pool of threads (each keeps its database connection, as granian's WSGI
threads do), while the event loop stays free for the long-lived streams. Every
ordinary answer is complete when the view returns, so the body is collected in
the thread and sent in one message: one hop to the pool and back per request.
"""

import asyncio
import io
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ("WsgiBridge",)

# A body beyond this is refused before the application reads it (the largest the API
# accepts, a fee estimate's transaction, is 1 MiB).
MAX_BODY_BYTES = 4 * 1024 * 1024
_TOO_LARGE = (
    413,
    [(b"content-type", b"application/json; charset=utf-8")],
    b'{"_status":{"messages":[{"message":"Payload too large"}]}}',
)


class WsgiBridge:
    def __init__(self, application: Callable, *, threads: int):
        self.application = application
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wsgi")

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        body = await _read_body(receive)
        if body is None:
            status, headers, content = _TOO_LARGE
        else:
            environ = _environ(scope, body)
            loop = asyncio.get_running_loop()
            status, headers, content = await loop.run_in_executor(self.executor, self._call, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _call(self, environ: dict) -> tuple[int, list, bytes]:
        started = []

        def start_response(status: str, headers: list, exc_info=None):
            started[:] = [status, headers]

        result = self.application(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        status, headers = started
        return (
            int(status[:3]),
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            content,
        )


async def _read_body(receive: Callable) -> bytes | None:
    chunks, size = [], 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        if chunk:
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return None
            chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _environ(scope: dict, body: bytes) -> dict:
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    path = scope.get("raw_path") or scope["path"].encode()
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", ""),
        # WSGI carries the path as its bytes in latin-1 (PEP 3333), undecoded.
        "PATH_INFO": path.partition(b"?")[0].decode("latin-1") if scope.get("raw_path") else scope["path"],
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_TYPE" or name == "CONTENT_LENGTH":
            environ[name] = value
            continue
        key = f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ
