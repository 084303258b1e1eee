"""The production server's main process: granian, then the run's directory deleted, however
granian ends.

`scripts/run-server` keeps what one run shares on disk in a directory of its own: the
workers' load board (apps/common/server/balancing.py), their metrics files
(apps/common/observability.py) and the contract executors' sockets
(apps/contracts/evm/pool.py). It execs `python -m apps.common.server.run_granian RUN_DIR
<granian's options>`. On SIGTERM or SIGINT granian stops its workers and returns, and this
process stops the children it still has and deletes RUN_DIR; so it does when granian gives up
(a worker crash loop, a bad option). The workers are forked from this process and never
return through it.

The contract executors' pool, started by run-server before it became this process, is such a
child. It watches for its parent's exit, but only once it has loaded the application: one
still loading when the server stopped never saw it, and ran on.

A worker is forked with the main process's signal handlers, which only mark the main
process's state, and puts its own in place once it has loaded the application, seconds
later: a stop signal arriving in between was lost, and granian then waited for that worker
forever. A worker starts with the default handlers instead, so that such a signal ends it.
"""

import os
import shutil
import signal
import sys
import time
from contextlib import suppress
from pathlib import Path

STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}
CHILDREN_STOP_SECONDS = 10


def main() -> None:
    run_dir = sys.argv.pop(1)
    # Until granian puts its own handlers in place: a SIGTERM while it starts still deletes the directory.
    signal.signal(signal.SIGTERM, _exit)
    # Blocked across the fork, so that none reaches a worker before its handlers are the defaults.
    os.register_at_fork(before=_block_stop_signals, after_in_parent=_unblock_stop_signals, after_in_child=_as_worker)
    try:
        from granian.cli import entrypoint

        entrypoint()
    finally:
        try:
            _stop_children()
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)


def _exit(signum, frame):
    sys.exit(128 + signum)


def _stop_children() -> None:
    """SIGTERM to each child, SIGKILL to the ones left after CHILDREN_STOP_SECONDS."""
    pid = os.getpid()
    children = {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    for child in children:
        with suppress(ProcessLookupError):
            os.kill(child, signal.SIGTERM)
    deadline = time.monotonic() + CHILDREN_STOP_SECONDS
    while (children := {child for child in children if not _collected(child)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    for child in children:
        with suppress(ProcessLookupError, ChildProcessError):
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)


def _collected(child: int) -> bool:
    """Whether `child` has exited, its status collected now or before."""
    with suppress(ChildProcessError):
        return os.waitpid(child, os.WNOHANG)[0] != 0
    return True


def _block_stop_signals() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def _unblock_stop_signals() -> None:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _as_worker() -> None:
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    _unblock_stop_signals()


if __name__ == "__main__":
    main()
