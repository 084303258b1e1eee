"""Each request's granian protocol object, the one through which its answer is sent.

A WSGI application answers by returning from its call, on the thread granian called it on.
Two parts of the request path need to answer otherwise: the deadline of an unfinished body
(`apps.common.server.request_body`), from a thread of its own, and a read handed to the thread
holding a read turn (`apps.common.server.lanes`), from that thread. Both send through the
request's protocol object, which `expose_granian_protocol` puts in the environ under
`GRANIAN_PROTOCOL`. granian sends a request's first answer and ignores any later one, so
the answer its runner sends when the application returns changes nothing then.
"""

__all__ = ("GRANIAN_PROTOCOL", "expose_granian_protocol", "send_answer")

GRANIAN_PROTOCOL = "mirror.granian_protocol"


def expose_granian_protocol() -> None:
    """Puts each request's granian protocol object in its environ (`GRANIAN_PROTOCOL`).

    granian wraps the application in a runner it builds per worker process, after importing
    the application; the runner alone holds the protocol object. This wraps that runner
    (granian 2.8's `_wsgi_call_wrap`, pinned in requirements.txt; `test_request_body` and
    `test_lanes` fail if granian stops calling it)."""
    try:
        from granian.server import mp
    except ImportError:
        return
    build_runner = mp._wsgi_call_wrap
    if getattr(build_runner, "exposes_protocol", False):
        return

    def build_runner_exposing_protocol(*args, **kwargs):
        runner = build_runner(*args, **kwargs)

        def run(protocol, scope):
            scope[GRANIAN_PROTOCOL] = protocol
            return runner(protocol, scope)

        return run

    build_runner_exposing_protocol.exposes_protocol = True
    mp._wsgi_call_wrap = build_runner_exposing_protocol


def send_answer(protocol, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
    protocol.response_bytes(int(status[:3]), headers, body)
