"""CPU cost per request of the whole request path, in process, without HTTP.

Calls the server's WSGI application (`mirror.wsgi`'s, what granian calls) with a prepared environ in a loop and reports,
per URL, the process CPU time (`time.process_time`) and wall time per request, the statements
run and the wall time spent waiting on them, and the Python function calls a request makes.
CPU time is what matters on a shared machine: it does not count time spent waiting for
PostgreSQL or for another process's turn. The call count does not vary with the machine's
load at all, so it tells a small gain from noise.

    DATABASE_URL=... MIRROR_SECRET_KEY=x manage.py profile_requests /api/v1/blocks/500 --requests 2000
    manage.py profile_requests /api/v1/blocks/500 --profile 25    # where the time goes (cProfile)
"""

import cProfile
import io
import pstats
from time import perf_counter, process_time

from django.core.management.base import BaseCommand
from django.db import connection

from apps.common.server.handlers import MirrorWSGIHandler, wsgi_environ


class Command(BaseCommand):
    help = "CPU µs per request of each URL through the WSGI application (no HTTP), optionally profiled."

    def add_arguments(self, parser):
        parser.add_argument("urls", nargs="+", help="paths with their query, e.g. /api/v1/blocks/500")
        parser.add_argument("--requests", type=int, default=1000, help="measured requests per URL")
        parser.add_argument("--warmup", type=int, default=50, help="unmeasured requests per URL first")
        parser.add_argument("--profile", type=int, metavar="N", help="print the N costliest functions (cProfile)")
        parser.add_argument("--header", action="append", default=[], help="`Name: value`, e.g. Authorization")

    def handle(self, *args, urls, requests, warmup, profile, header, **options):
        application = MirrorWSGIHandler()
        headers = {
            "HTTP_" + name.strip().upper().replace("-", "_"): value.strip()
            for name, _, value in (item.partition(":") for item in header)
        }
        self.stdout.write(f"{'url':<70} {'status':>6} {'cpu µs':>8} {'wall µs':>8} {'sql':>4} {'sql wall µs':>11} {'calls':>6}")
        for url in urls:
            request = _Request(application, url, headers)
            for _ in range(warmup):
                request.send()
            timer = _StatementTimer()
            with connection.execute_wrapper(timer):
                # CPU time, not wall time: waiting for PostgreSQL or for the CPU costs this process nothing.
                profiler = cProfile.Profile(process_time) if profile else None
                wall, cpu = perf_counter(), process_time()
                if profiler:
                    profiler.enable()
                for _ in range(requests):
                    request.send()
                if profiler:
                    profiler.disable()
                cpu, wall = process_time() - cpu, perf_counter() - wall
            self.stdout.write(
                f"{url[:70]:<70} {request.status:>6} {cpu / requests * 1e6:>8.0f} {wall / requests * 1e6:>8.0f}"
                f" {timer.count / requests:>4.1f} {timer.seconds / requests * 1e6:>11.0f}"
                f" {_calls_per_request(request):>6.0f}"
            )
            if profiler:
                report = io.StringIO()
                pstats.Stats(profiler, stream=report).sort_stats("tottime").print_stats(profile)
                self.stdout.write(report.getvalue())


def _calls_per_request(request: "_Request", count: int = 20) -> float:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(count):
        request.send()
    profiler.disable()
    return pstats.Stats(profiler).total_calls / count


class _Request:
    def __init__(self, application, url: str, headers: dict[str, str]):
        path, _, query = url.partition("?")
        self.application = application
        self.environ = wsgi_environ("GET", path, query, {"HTTP_ACCEPT": "*/*", **headers})
        self.status = ""

    def send(self) -> None:
        environ = {**self.environ, "wsgi.input": io.BytesIO()}
        body = self.application(environ, self._start_response)
        try:
            for _ in body:
                pass
        finally:
            if hasattr(body, "close"):
                body.close()

    def _start_response(self, status, headers, exc_info=None):
        self.status = status.split(" ", 1)[0]


class _StatementTimer:
    def __init__(self):
        self.count = 0
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        started = perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += perf_counter() - started
            self.count += 1
