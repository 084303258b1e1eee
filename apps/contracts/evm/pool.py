"""The execution pool: contract calls and opcode traces run in processes of their own.

py-evm is pure Python: an execution holds the interpreter lock for as long as it runs (up
to `WEB3["TIMEOUT_SECONDS"]`), so run by a server worker it would stop that worker's reads.
Under `scripts/run-server` a pool of `WEB3["EXECUTORS"]` executor processes runs them
instead (`python -m apps.contracts.evm`, started with the server, one machine-wide
pool, at a lower CPU priority than the workers), and a worker hands each job over a Unix
socket in `WEB3["EXECUTOR_DIR"]` and waits for the answer with the interpreter lock
released, on one of its side lanes (`apps.common.server.lanes`), while its read threads go on
serving.

- Admission: a job takes a free executor by an exclusive `flock` on its slot file (the
  kernel frees the slot of a worker that dies). One that finds none free within
  `ADMISSION_WAIT`, or refused by the rate limits, answers 429 then, instead of queueing;
  one that finds no side lane of its worker free answers 429 at once.
- Time: an executor arms an alarm at the time limit plus `ALARM_GRACE`, which interrupts
  the pure-Python code the clock checks do not reach; it then answers 503 and exits, and
  the pool forks a fresh one. A worker waits at most the limit plus `ANSWER_GRACE`, then
  answers 503 and kills the executor (a C call the alarm cannot interrupt).

Jobs and answers are pickles: the socket directory is private to the server's user.
Without `EXECUTOR_DIR` (tests, the development server) a job runs in the calling thread.
"""

import fcntl
import logging
import os
import pickle
import re
import shutil
import signal
import socket
import struct
import sys
import time
from collections.abc import Callable
from contextlib import suppress

import orjson
from django.conf import settings
from django.utils.module_loading import import_string

from apps.common.api.exceptions import error_body
from apps.common.errors import MirrorApiError
from apps.common.server.lanes import give_side_lane, holds_side_lane, take_side_lane
from apps.contracts.evm.errors import TimedOut, TooManyRequests, Web3Error

logger = logging.getLogger(__name__)

BUSY = "Too many concurrent contract executions"
# The answer of a call that finds no side lane free, before its body is read (apps.common.server.lanes).
BUSY_ANSWER = orjson.dumps(error_body(*TooManyRequests(BUSY).messages))
# How long a job may wait for a free executor: a short call frees one within milliseconds,
# a long one only after seconds, for which the client had better hear 429 now.
ADMISSION_WAIT = 0.1
ALARM_GRACE = 0.25
ANSWER_GRACE = 0.75
# How long a job may wait for its executor's socket to accept: a replaced executor is back
# within milliseconds, the pool itself a few seconds after the server starts.
CONNECT_WAIT = 5.0
RESPAWN_AFTER = 1.0
# Executors yield the CPU to the workers serving reads.
EXECUTOR_NICENESS = 10
_LENGTH = struct.Struct("!Q")
_PEER_CREDENTIALS = struct.Struct("3i")
# The routes that execute, declared as waiting on the side (apps.contracts.apps).
EXECUTION_PATH = re.compile(r"/api/v1/contracts/(call|results/[^/]+/opcodes|[^/]+/results/opcodes)/?")
CONTRACTS_PREFIX = "/api/v1/contracts/"


# -- the client side: a worker hands a job over --

def execute(function: str, *args, admit: Callable[[], None], **kwargs):
    """The function at the dotted path `function` called with `args` and `kwargs`, on an
    executor of the pool (in this thread without one), once `admit` (the rate limits) let
    it; 429 when none is free, 503 past the time limit. A path, not the function: a worker
    need not import the EVM."""
    directory = settings.WEB3["EXECUTOR_DIR"]
    if not directory:
        admit()
        return import_string(function)(*args, **kwargs)
    # Under the server, the request took its side lane before its body was read (apps.common.server.lanes).
    lane_taken_here = not holds_side_lane()
    if lane_taken_here and not take_side_lane():
        raise TooManyRequests(BUSY)
    try:
        give_up = time.monotonic() + ADMISSION_WAIT
        try:
            admit()
        except TooManyRequests:
            # Answered when the admission wait is over, as a call no executor took: clients
            # retrying at once would otherwise turn refusals into a flood the workers serve.
            time.sleep(max(give_up - time.monotonic(), 0))
            raise
        slot = _take_slot(directory, give_up)
        if slot is None:
            raise TooManyRequests(BUSY)
        index, descriptor = slot
        try:
            return _submit(socket_path(directory, index), (function, args, kwargs))
        finally:
            os.close(descriptor)
    finally:
        if lane_taken_here:
            give_side_lane()


def socket_path(directory: str, index: int) -> str:
    return os.path.join(directory, f"executor-{index}.sock")


def _take_slot(directory: str, give_up: float) -> tuple[int, int] | None:
    """(index, locked descriptor) of an executor free by `give_up`, or None."""
    size = settings.WEB3["EXECUTORS"]
    pause = 0.001
    while True:
        first = int.from_bytes(os.urandom(2), "big") % size
        for index in (*range(first, size), *range(first)):
            descriptor = os.open(os.path.join(directory, f"slot-{index}"), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                continue
            return index, descriptor
        if time.monotonic() + pause > give_up:
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def _submit(path: str, job: tuple):
    limit = settings.WEB3["TIMEOUT_SECONDS"]
    started = time.monotonic()
    give_up = started + limit + ANSWER_GRACE
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        _connect(connection, path, min(give_up, started + CONNECT_WAIT))
        try:
            _send(connection, job, give_up)
            answer = _receive(connection, give_up)
        except TimeoutError:
            _kill_peer(connection)
            raise TimedOut(limit) from None
        except (ConnectionError, EOFError):
            # The executor died with the job (its alarm fired between two steps).
            if time.monotonic() - started >= limit:
                raise TimedOut(limit) from None
            raise
    return _outcome(answer)


def _connect(connection: socket.socket, path: str, give_up: float) -> None:
    while True:
        try:
            connection.connect(path)
            return
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() >= give_up:
                raise Web3Error(503, "Contract execution is unavailable") from None
            time.sleep(0.01)


def _kill_peer(connection: socket.socket) -> None:
    pid, _, _ = _PEER_CREDENTIALS.unpack(
        connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEER_CREDENTIALS.size)
    )
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _outcome(answer: tuple):
    kind, *rest = answer
    if kind == "value":
        return rest[0]
    if kind == "error":
        status, messages = rest
        error = MirrorApiError(*messages)
        error.status_code = status
        raise error
    if kind == "database":
        from django.db import OperationalError

        raise OperationalError(rest[0])
    raise RuntimeError(f"the contract executor failed: {rest[0]}")


def _send(connection: socket.socket, message, give_up: float) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    connection.settimeout(max(give_up - time.monotonic(), 0.001))
    connection.sendall(_LENGTH.pack(len(data)) + data)


def _receive(connection: socket.socket, give_up: float | None = None):
    (length,) = _LENGTH.unpack(_read(connection, _LENGTH.size, give_up))
    return pickle.loads(_read(connection, length, give_up))


def _read(connection: socket.socket, size: int, give_up: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if give_up is not None:
            connection.settimeout(max(give_up - time.monotonic(), 0.001))
        chunk = connection.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


# -- the pool: a supervisor forking one executor per slot --


class _Interrupted(BaseException):
    """The alarm: past every `except Exception` of the code it interrupts."""


def _alarm(signum, frame):
    raise _Interrupted


def run_job(job: tuple) -> tuple[tuple, bool]:
    """(answer, interrupted): the job run within the time limit, an interruption answered
    as past it."""
    from django.db import DatabaseError, close_old_connections

    function, args, kwargs = job
    limit = settings.WEB3["TIMEOUT_SECONDS"]
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, limit + ALARM_GRACE)
            try:
                close_old_connections()
                return ("value", import_string(function)(*args, **kwargs)), False
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except MirrorApiError as error:
            return ("error", error.status_code, error.messages), False
        except DatabaseError as error:
            return ("database", str(error)), False
        except Exception as error:
            logger.exception("contract execution failed")
            return ("crash", repr(error)), False
    except _Interrupted:
        timed_out = TimedOut(limit)
        return ("error", timed_out.status_code, timed_out.messages), True
    finally:
        signal.signal(signal.SIGALRM, previous)


def _serve_slot(directory: str, index: int) -> None:
    """One executor: one job at a time on its socket, until the pool goes or an alarm fired."""
    pool = os.getppid()
    path = socket_path(directory, index)
    with suppress(FileNotFoundError):
        os.unlink(path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen()
        listener.settimeout(1.0)
        while os.getppid() == pool:
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(None)
                try:
                    job = _receive(connection)
                except (OSError, EOFError):
                    continue
                answer, interrupted = run_job(job)
                with suppress(OSError):
                    _send(connection, answer, time.monotonic() + 10)
            if interrupted:
                # The alarm may have struck anywhere, a database exchange included: a fresh
                # executor takes over.
                return


def _fork(directory: str, index: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    status = 0
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        # A Ctrl-C reaches the whole process group: the pool stops its executors itself.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        os.nice(EXECUTOR_NICENESS)
        _serve_slot(directory, index)
    except BaseException:
        logger.exception("contract executor %d stopped", index)
        status = 1
    finally:
        os._exit(status)


def serve(directory: str) -> None:
    """Runs the pool until the process that started it (the server) is gone or stops it."""
    import gc

    from django.db import connections

    # Loaded once here, shared by every fork.
    import apps.contracts.evm.executor  # noqa: F401
    import apps.contracts.evm.replay  # noqa: F401

    size = settings.WEB3["EXECUTORS"]
    server = os.getppid()
    connections.close_all()
    gc.freeze()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    executors: dict[int, tuple[int, float]] = {}

    def start(index: int) -> None:
        executors[_fork(directory, index)] = index, time.monotonic()

    for index in range(size):
        start(index)
    try:
        while os.getppid() == server:
            signal.sigtimedwait({signal.SIGCHLD}, 1.0)
            while executors:
                pid, status = os.waitpid(-1, os.WNOHANG)
                if not pid:
                    break
                index, started = executors.pop(pid)
                if status and time.monotonic() - started < RESPAWN_AFTER:
                    # One that fails as it starts is not forked again in a tight loop.
                    time.sleep(RESPAWN_AFTER)
                start(index)
    finally:
        for pid in executors:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(directory, ignore_errors=True)

