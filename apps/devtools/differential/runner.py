"""Sends each query to our service and to the upstream's, compares the answers, and reports
the differences by class with the smallest query showing each."""

import http.client
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from apps.devtools.differential.compare import Answer, differences
from apps.devtools.differential.queries import Query


class Fetcher:
    """GET over one kept-alive connection per thread and base URL."""

    def __init__(self, timeout: float = 30):
        self.timeout = timeout
        self.local = threading.local()

    def get(self, base: str, url: str) -> Answer:
        connections = self.local.__dict__.setdefault("connections", {})
        for attempt in range(2):
            connection = connections.get(base)
            if connection is None:
                parts = urlsplit(base)
                connection = connections[base] = http.client.HTTPConnection(
                    parts.hostname, parts.port, timeout=self.timeout
                )
            try:
                connection.request("GET", url)
                response = connection.getresponse()
                body = response.read()
                headers = {name.lower(): value for name, value in response.getheaders()}
                if response.will_close:
                    connection.close()
                    connections.pop(base)
                return Answer(response.status, body, headers)
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                connection.close()
                connections.pop(base, None)
                if attempt:
                    raise
        raise AssertionError("unreachable")


@dataclass
class Outcome:
    query: Query
    ours: Answer
    theirs: Answer
    differences: list[tuple[str, str]]


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def equal(self) -> int:
        return sum(not outcome.differences for outcome in self.outcomes)

    def by_route(self) -> dict[str, tuple[int, int]]:
        """route -> (queries, equal answers)."""
        table = defaultdict(lambda: [0, 0])
        for outcome in self.outcomes:
            table[outcome.query.route][0] += 1
            table[outcome.query.route][1] += not outcome.differences
        return {route: tuple(counts) for route, counts in table.items()}

    def by_class(self) -> dict[tuple[str, str], list[Outcome]]:
        """(route, class of difference) -> the outcomes showing it, the smallest query first."""
        classes = defaultdict(list)
        for outcome in self.outcomes:
            for kind, _ in outcome.differences:
                classes[outcome.query.route, kind].append(outcome)
        for outcomes in classes.values():
            outcomes.sort(key=lambda outcome: (len(outcome.query.url), outcome.query.url))
        return dict(sorted(classes.items()))


def run(queries: list[Query], ours: str, upstream: str, *, threads: int = 8,
        progress: Callable[[int, int], None] | None = None) -> Report:
    fetcher = Fetcher()
    report = Report()
    done = 0
    lock = threading.Lock()

    def ask(query: Query) -> Outcome:
        nonlocal done
        mine, theirs = fetcher.get(ours, query.url), fetcher.get(upstream, query.url)
        outcome = Outcome(query, mine, theirs, differences(mine, theirs))
        with lock:
            done += 1
            if progress and (done % 25 == 0 or done == len(queries)):
                progress(done, len(queries))
        return outcome

    with ThreadPoolExecutor(threads) as pool:
        report.outcomes = list(pool.map(ask, queries))
    return report


def stderr_progress(done: int, total: int) -> None:
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} queries\033[K")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def render(report: Report, *, examples: int = 1) -> str:
    """The run's table (route, queries, equal) and its differences by class, each with its smallest query."""
    lines = ["| route | queries | equal |", "|---|---:|---:|"]
    for route, (queries, equal) in sorted(report.by_route().items()):
        lines.append(f"| `{route}` | {queries} | {equal} |")
    total = len(report.outcomes)
    lines.append(f"| all | {total} | {report.equal} |")
    classes = report.by_class()
    lines.append("")
    lines.append(f"{len(classes)} classes of difference")
    for (route, kind), outcomes in classes.items():
        lines.append(f"\n## {route}: {kind} ({len(outcomes)} queries)")
        for outcome in outcomes[:examples]:
            url = outcome.query.url if len(outcome.query.url) <= 300 else outcome.query.url[:300] + "…"
            lines.append(f"  GET {url}  [{outcome.query.mode}]")
            detail = dict(outcome.differences).get(kind, "")
            if detail:
                lines.append(f"    {detail}")
            lines.append(f"    ours     {outcome.ours.status} {_excerpt(outcome.ours, kind)}")
            lines.append(f"    upstream {outcome.theirs.status} {_excerpt(outcome.theirs, kind)}")
    return "\n".join(lines)


def _excerpt(answer: Answer, kind: str) -> str:
    if kind.startswith("header "):
        name = kind.split()[1]
        return repr(answer.headers.get(name))
    text = answer.body.decode("utf-8", "replace")
    return text if len(text) <= 400 else text[:400] + "…"

