"""The service's wall clock, which the conformance runner can set."""

import time
from contextlib import contextmanager
from contextvars import ContextVar

_frozen_at: ContextVar[int | None] = ContextVar("frozen_at", default=None)


def now_ns() -> int:
    frozen = _frozen_at.get()
    return time.time_ns() if frozen is None else frozen


@contextmanager
def frozen_at(nanos: int):
    token = _frozen_at.set(nanos)
    try:
        yield
    finally:
        _frozen_at.reset(token)
