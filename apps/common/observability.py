"""Request metrics and access logs: one middleware, free when both are off.

- `settings.METRICS_ENABLED` (`MIRROR_METRICS=true`): `/metrics` answers the Prometheus
  text format with
  `mirror_http_requests_total{method,route,status}`,
  `mirror_http_request_duration_seconds{method,route}` (histogram),
  `mirror_database_query_duration_seconds` (histogram, every statement) and
  `mirror_database_errors_total` (requests a database failure answered 503); with read
  replicas, `mirror_database_replica_lag_seconds{replica}` (NaN while unknown) and
  `mirror_database_replica_in_use{replica}` (1 or 0), as the process answering sees them
  (apps/common/database/replicas.py).
  `route` is the route template (`/api/v1/blocks/{hash_or_number}`), never the path,
  so a scanner cannot grow the label set; a request no route matched is `unmatched`.
  `scripts/run-server` gives the workers a PROMETHEUS_MULTIPROC_DIR in the run's directory
  (deleted when the server exits, apps/common/server/run_granian.py), and `/metrics` sums
  every worker's figures.
- `settings.ACCESS_LOG_ENABLED` (`MIRROR_ACCESS_LOG=true`): one JSON line per request
  on the `apps.access` logger: method, route, status, duration_ms, bytes.

With both off the middleware removes itself from the chain (MiddlewareNotUsed) and the
database timer is never installed.

`report_database_failure` counts a request that a database failure answered 503 and logs it:
one line with the reason, at most one a second per process; the failures left out are
counted in the next line, so an outage under load writes a line a second, not three a
request.
"""

import json
import logging
import math
import os
import re
import threading
from functools import cache
from time import monotonic, perf_counter

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import Http404, HttpResponse

__all__ = (
    "ObservabilityMiddleware",
    "before_scrape",
    "metrics",
    "observe",
    "report_database_failure",
    "set_replica_gauges",
    "time_database_queries",
)

access_logger = logging.getLogger("apps.access")

UNMATCHED_ROUTE = "unmatched"
DATABASE_QUERY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20)


class ObservabilityMiddleware:
    def __init__(self, get_response):
        if not (settings.METRICS_ENABLED or settings.ACCESS_LOG_ENABLED):
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        started = perf_counter()
        response = self.get_response(request)
        route = request.resolver_match.route if request.resolver_match else None
        observe(request.method, route, response.status_code, perf_counter() - started, _body_size(response))
        return response


def observe(method: str, route: str | None, status: int, seconds: float, size: int | None) -> None:
    """Counts one answer in the metrics and the access log, whichever are on. `route` is
    the pattern of the URL that matched (`resolver_match.route`), None for no match; the
    list-route cache calls this for the answers it serves without Django."""
    if not (settings.METRICS_ENABLED or settings.ACCESS_LOG_ENABLED):
        return
    template = _route_template(route) if route else UNMATCHED_ROUTE
    if settings.METRICS_ENABLED:
        instruments = _instruments()
        instruments.requests.labels(method, template, status).inc()
        instruments.request_seconds.labels(method, template).observe(seconds)
    if settings.ACCESS_LOG_ENABLED:
        access_logger.info(
            json.dumps(
                {
                    "method": method,
                    "route": template,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 3),
                    "bytes": size,
                },
                separators=(",", ":"),
            )
        )


def metrics(request) -> HttpResponse:
    if not settings.METRICS_ENABLED:
        raise Http404
    from prometheus_client import (
        CONTENT_TYPE_LATEST,
        REGISTRY,
        CollectorRegistry,
        generate_latest,
    )
    from prometheus_client.multiprocess import MultiProcessCollector

    for hook in _scrape_hooks:
        hook()
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


def time_database_queries(sender, connection, **kwargs) -> None:
    """`connection_created` receiver: times every statement of the new connection."""
    if settings.METRICS_ENABLED and _time_statement not in connection.execute_wrappers:
        connection.execute_wrappers.append(_time_statement)


class _OncePerSecond:
    """Logs the first of the failures of each second; the others are counted into the next line."""

    PERIOD_SECONDS = 1.0

    def __init__(self, logger: logging.Logger):
        self._logger = logger
        self._next_line_at = 0.0
        self._left_out = 0
        self._lock = threading.Lock()

    def report(self, what: str, reason: Exception) -> None:
        now = monotonic()
        with self._lock:
            if now < self._next_line_at:
                self._left_out += 1
                return
            left_out, self._left_out = self._left_out, 0
            self._next_line_at = now + self.PERIOD_SECONDS
        # psycopg's messages span lines (the error, then libpq's hints): one line each.
        line = " ".join(str(reason).split()) or type(reason).__name__
        if left_out:
            line += f" ({left_out} more since the previous line)"
        self._logger.warning("%s: %s", what, line)


_database_failures = _OncePerSecond(logging.getLogger("apps.common"))


def report_database_failure(reason: Exception, what: str = "database failure") -> None:
    if settings.METRICS_ENABLED:
        _instruments().database_errors.inc()
    _database_failures.report(what, reason)


def _time_statement(execute, sql, params, many, context):
    started = perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        _instruments().query_seconds.observe(perf_counter() - started)


# What the layers above set just before a scrape (`before_scrape`).
_scrape_hooks: list = []


def before_scrape(hook) -> None:
    """`hook()` runs as `/metrics` is answered: a layer above sets its gauges from its state
    then (`set_replica_gauges`)."""
    if hook not in _scrape_hooks:
        _scrape_hooks.append(hook)


def set_replica_gauges(replica: str, lag: float | None, in_use: bool) -> None:
    instruments = _instruments()
    instruments.replica_lag.labels(replica).set(math.nan if lag is None else lag)
    instruments.replica_in_use.labels(replica).set(1 if in_use else 0)


class _Instruments:
    def __init__(self):
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter(
            "mirror_http_requests", "HTTP requests answered", ["method", "route", "status"]
        )
        self.request_seconds = Histogram(
            "mirror_http_request_duration_seconds", "Time to answer a request", ["method", "route"]
        )
        self.query_seconds = Histogram(
            "mirror_database_query_duration_seconds", "Time of a database statement", buckets=DATABASE_QUERY_BUCKETS
        )
        self.database_errors = Counter("mirror_database_errors", "Requests a database failure answered 503")
        # Set as `/metrics` is answered, from the answering process's view: the newest wins across workers.
        self.replica_lag = Gauge(
            "mirror_database_replica_lag_seconds", "How far a read replica's replay is behind the primary",
            ["replica"], multiprocess_mode="livemostrecent",
        )
        self.replica_in_use = Gauge(
            "mirror_database_replica_in_use", "Whether API requests read a replica (1) or not (0)",
            ["replica"], multiprocess_mode="livemostrecent",
        )


@cache
def _instruments() -> _Instruments:
    # Created on first use: prometheus_client is imported only when metrics are on, and
    # reads PROMETHEUS_MULTIPROC_DIR at import.
    return _Instruments()


@cache
def _route_template(route: str) -> str:
    return "/" + readable_route(route.replace("^", ""))


def _body_size(response) -> int | None:
    if response.streaming:
        length = response.get("Content-Length")
        return int(length) if length else None
    return len(response.content)


_NAMED_GROUP_START = re.compile(r"\(\?P<(\w+)>")


def readable_route(route: str) -> str:
    return _named_groups_as_placeholders(route).removesuffix("$").removesuffix("/?")


def _named_groups_as_placeholders(route: str) -> str:
    """Each `(?P<name>...)` as `{name}`, whatever groups it nests."""
    while match := _NAMED_GROUP_START.search(route):
        depth, end = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(route[end], 0) if route[end - 1] != "\\" else 0
            end += 1
        route = f"{route[: match.start()]}{{{match[1]}}}{route[end:]}"
    return route
