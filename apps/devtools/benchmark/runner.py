"""Running both services on one database and measuring them with wrk.

Our service is `scripts/run-server` (granian); the upstream is the comparator
kit in `/work/shared/bench/upstream` (`start.sh PORT` / `stop.sh PORT`). Both
listen on loopback only and are stopped when the `services` context ends, also
on an error, Ctrl-C or SIGTERM.

Besides wrk's figures, each run reports the CPU time the server's processes
(ours: granian and its workers; the upstream: its Node process) spent per
request, read from /proc before and after: on a shared machine it varies far
less than requests per second.
"""

import json
import math
import os
import secrets
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Hashable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict

from apps.common.interrupts import sigterm_as_interrupt

PROJECT = Path(__file__).resolve().parents[3]
UPSTREAM_KIT = Path(os.environ.get("MIRROR_UPSTREAM_KIT", "/work/shared/bench/upstream"))
UPSTREAM_CACHE = os.environ.get("MIRROR_UPSTREAM_CACHE", "/tmp/upstream-bench")
LATENCY_SCRIPT = Path(__file__).with_name("latency.lua")
READY_PATH = "/api/v1/blocks?limit=1"


class BenchError(Exception):
    pass


@dataclass(frozen=True)
class Service:
    base: str
    pid: int


@dataclass(frozen=True)
class Response:
    status: int
    body: object


def fetch(base: str, path: str, timeout: float = 30) -> Response:
    try:
        with urllib.request.urlopen(base + path, timeout=timeout) as response:
            status, data = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, data = error.code, error.read()
    try:
        return Response(status, json.loads(data) if data else {})
    except ValueError:
        return Response(status, data.decode(errors="replace")[:200])


def _wait_ready(base: str, seconds: float, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise BenchError(f"{base}: the server exited with {process.returncode}")
        try:
            if fetch(base, READY_PATH, timeout=2).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise BenchError(f"{base}: not answering {READY_PATH} after {seconds:.0f} s")


@contextmanager
def our_service(
    conninfo: str, port: int, workers: int, log: Path, settings: dict[str, str] | None = None
) -> Iterator[Service]:
    """`settings`: more environment variables for the server (MIRROR_DATABASE_REPLICAS, say)."""
    environment = {
        **os.environ,
        # Replicas of some other database, set for the caller's own use, would serve its reads.
        "MIRROR_DATABASE_REPLICAS": "",
        **(settings or {}),
        "DATABASE_URL": database_url(conninfo),
        "MIRROR_BIND": f"127.0.0.1:{port}",
        "MIRROR_WORKERS": str(workers),
        # A service on DATABASE_URL refuses to start without a secret; the benchmark's is throwaway.
        "MIRROR_SECRET_KEY": os.environ.get("MIRROR_SECRET_KEY") or secrets.token_urlsafe(50),
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            [PROJECT / "scripts" / "run-server"], cwd=PROJECT, env=environment, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, 60, process)
        yield Service(base, process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def upstream_service(conninfo: str, port: int) -> Iterator[Service]:
    params = conninfo_to_dict(conninfo)
    environment = {
        **os.environ,
        "MIRROR_UPSTREAM_CACHE": UPSTREAM_CACHE,
        "PGHOST": str(params.get("host", "127.0.0.1")),
        "PGPORT": str(params.get("port", 5432)),
        "PGDATABASE": str(params["dbname"]),
        "PGUSER": str(params.get("user", "postgres")),
        "HIERO_MIRROR_REST_LOG_LEVEL": "warn",
    }
    if params.get("password"):
        environment["PGPASSWORD"] = str(params["password"])
    started = subprocess.run(
        [UPSTREAM_KIT / "start.sh", str(port)], env=environment, capture_output=True, text=True, timeout=600
    )
    try:
        if started.returncode != 0:
            raise BenchError(f"upstream start.sh failed ({started.returncode}): {started.stderr.strip()[-500:]}")
        pid = int((Path(UPSTREAM_CACHE) / "run" / f"rest_{port}.pid").read_text())
        yield Service(f"http://127.0.0.1:{port}", pid)
    finally:
        subprocess.run([UPSTREAM_KIT / "stop.sh", str(port)], env=environment, capture_output=True, timeout=60)


@contextmanager
def services(conninfo: str, *, port: int, upstream_port: int | None, workers: int, log_dir: Path):
    """{"ours": Service, "upstream": Service (unless upstream_port is None)}."""
    # The servers run in sessions of their own: a SIGTERM must stop them on its way out.
    with sigterm_as_interrupt(), ExitStack() as stack:
        bases = {"ours": stack.enter_context(our_service(conninfo, port, workers, log_dir / f"ours-{port}.log"))}
        if upstream_port is not None:
            bases["upstream"] = stack.enter_context(upstream_service(conninfo, upstream_port))
        yield bases


def database_url(conninfo: str) -> str:
    """A URL dj-database-url reads; a socket directory goes in the host query parameter."""
    params = conninfo_to_dict(conninfo)
    user = params.get("user", "postgres")
    password = f":{params['password']}" if params.get("password") else ""
    host = str(params.get("host", "127.0.0.1"))
    port = params.get("port", 5432)
    if host.startswith("/"):
        return f"postgresql://{user}{password}@:{port}/{params['dbname']}?host={host}"
    return f"postgresql://{user}{password}@{host}:{port}/{params['dbname']}"


def json_difference(ours: object, theirs: object, path: str = "$") -> str | None:
    """Where two JSON documents first differ (numbers compare by value), or None."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours or key not in theirs:
                return f"{path}.{key}: {'missing' if key not in ours else 'extra'} in ours"
            if difference := json_difference(ours[key], theirs[key], f"{path}.{key}"):
                return difference
        return None
    if isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            return f"{path}: {len(ours)} items in ours, {len(theirs)} upstream"
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            if difference := json_difference(mine, other, f"{path}[{index}]"):
                return difference
        return None
    numbers = (int, float)
    same = (
        ours == theirs and type(ours) is type(theirs)
        if not (isinstance(ours, numbers) and isinstance(theirs, numbers))
        or isinstance(ours, bool) or isinstance(theirs, bool)
        else ours == theirs
    )
    return None if same else f"{path}: {json.dumps(ours)[:80]} in ours, {json.dumps(theirs)[:80]} upstream"


def cpu_seconds(root: int) -> float:
    """User plus system CPU time of process `root` and its live descendants."""
    parents, times = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name (field 2) may hold spaces and parentheses: fields are counted after its ")".
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended while /proc was read
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        times[pid] = int(fields[11]) + int(fields[12])
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(times.get(pid, 0) for pid in tree) / os.sysconf("SC_CLK_TCK")


def run_wrk(url: str, *, connections: int, seconds: int, server_pid: int) -> dict:
    """req/s, p50 and p99 (ms), errors, and the server's CPU ms per request of one wrk run (one thread)."""
    command = [
        "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(LATENCY_SCRIPT), url,
    ]
    cpu_before = cpu_seconds(server_pid)
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    cpu_spent = cpu_seconds(server_pid) - cpu_before
    report = next((line for line in result.stdout.splitlines() if line.startswith('{"requests"')), None)
    if report is None:
        raise BenchError(f"wrk gave no report for {url}: {result.stderr.strip() or result.stdout[-300:]}")
    figures = json.loads(report)
    elapsed = figures["duration_us"] / 1e6
    return {
        "rps": round(figures["requests"] / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(figures["p50_us"] / 1000, 2),
        "p99_ms": round(figures["p99_us"] / 1000, 2),
        "requests": figures["requests"],
        "errors": figures["non_2xx"] + figures["socket_errors"],
        "cpu_ms_per_request": round(cpu_spent * 1000 / figures["requests"], 3) if figures["requests"] else None,
    }


def run_wrk_by_turns(
    targets: dict[Hashable, tuple[str, int]], *, connections: int, seconds: int, repeat: int
) -> dict:
    """For each named target (its URL and its server's pid): of `repeat` wrk runs, each on new
    connections, the one with the median rate (the lower middle one of an even count), and
    every run's rate as `runs_rps`.

    The targets take turns, one run each per round, and the one that runs first alternates
    from round to round: a change in the machine's load while they are measured (another
    process, a cache warming) weighs on every target alike, not on whichever ran while it
    lasted, so their ratio holds when their rates move.

    Our workers each listen on their own socket, and the kernel hands each new connection
    to one of them by a hash of its addresses, blind to load: one run in eight at `-c4`
    puts all four connections on one of two workers, and that run's rate halves. One run
    is one draw of that; the median of several is the rate a client typically gets. The
    upstream, one process, is measured the same way.
    """
    runs: dict[Hashable, list[dict]] = {name: [] for name in targets}
    order = list(targets)
    for round_ in range(repeat):
        for name in order if round_ % 2 == 0 else reversed(order):
            url, server_pid = targets[name]
            runs[name].append(run_wrk(url, connections=connections, seconds=seconds, server_pid=server_pid))
    return {name: _median_run(found) for name, found in runs.items()}


def _median_run(runs: list[dict]) -> dict:
    median = sorted(runs, key=lambda run: run["rps"])[(len(runs) - 1) // 2]
    return {**median, "runs_rps": [run["rps"] for run in runs]}


def ratio(ours: float | None, theirs: float | None) -> float | None:
    return round(ours / theirs, 2) if ours is not None and theirs and not math.isnan(theirs) else None
