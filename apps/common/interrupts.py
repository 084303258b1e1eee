"""SIGTERM ending a process as Ctrl-C does.

Python's default for SIGTERM ends the process at once: no `finally` block, context manager
or pytest teardown runs, so the servers and clusters it started in sessions of their own
outlive it, with their files. Within `sigterm_as_interrupt()` the first SIGTERM raises
KeyboardInterrupt in the main thread instead, and the cleanup runs as after a Ctrl-C; later
ones are ignored, so that they do not cut that cleanup short (SIGKILL still ends it).
"""

import signal
from contextlib import contextmanager

__all__ = ("sigterm_as_interrupt",)


@contextmanager
def sigterm_as_interrupt():
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    # A handler rather than SIG_IGN: a process started during the cleanup inherits an
    # ignored signal, and would then ignore its own SIGTERM.
    signal.signal(signal.SIGTERM, _ignore)
    raise KeyboardInterrupt


def _ignore(signum, frame):
    pass
