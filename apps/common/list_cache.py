"""The list-route cache: whole answers of list routes, served again for a time-to-live.

The importer writes from another process, so nothing tells the service that a
list changed: an answer is kept for its route's time-to-live and then read
afresh. Only list answers are kept (200s of a viewset's `list`); a lookup of
one id is always read fresh.

A list viewset opts in on `MirrorViewSet` (see `list_cache` there):

    class TokenViewSet(MirrorViewSet):
        results_key = "tokens"
        cache_control = {"list": "public, max-age=10"}
        list_cache = True   # kept for its Cache-Control max-age, here 10 s

`list_cache = <seconds>` sets another time-to-live. `settings.MIRROR["LIST_CACHE_TTL"]`
(environment `MIRROR_LIST_CACHE_TTL=tokens=5,accounts=0`) maps a route's
`results_key` to seconds and overrides the viewset, 0 turning it off.

The answer is kept whole, as the server sent it: status, every header the view and
the middleware set, body. It is served again at the door of the application, before
Django builds a request, resolves a route or runs middleware (`MirrorWSGIHandler`,
and the test suite's client): a kept answer costs the server little more than its
bytes. So the key is the request as it arrives, not as the service reads it: the
path, the query string as written, and what else changes an answer:
`Authorization` (a Basic-auth user's page-size maximum, or a 401), `Host` (a 400 when
not allowed) and the scheme, as sent or as a trusted proxy's `X-Forwarded-Proto`
(the HTTPS redirect and the HSTS header). A query written another way is read once
more and kept under its own key. A request whose headers the service refuses as too
large (431) never takes the shortcut.

Only paths that a list answer was kept for in this process are looked up, so single-id
lookups never wait on the cache (with Redis, a round trip). The answers live in the
`lists` cache of `settings.CACHES`: local memory per process by default, Redis shared
by all processes when `MIRROR_REDIS_URL` is set.
"""

import hashlib
import re
from dataclasses import dataclass
from time import perf_counter

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse

from apps.common import observability
from apps.common.middleware import oversize_error

CACHE_ALIAS = "lists"
_MAX_AGE = re.compile(r"max-age=(\d+)")
# Paths a list answer was kept for, in this process; bounded, as a route opted in by
# settings may have an id in its path.
_cached_paths: set[str] = set()
_MAX_CACHED_PATHS = 10_000


@dataclass(frozen=True, slots=True)
class KeepFor:
    """What a list view attaches to its answer (`response.keep_for`): how long to keep it
    and the route template it answers, which the metrics of a kept answer are counted under."""

    seconds: int
    route: str


def time_to_live(*, results_key: str, opted_in: bool | int, cache_control: str) -> int:
    """Seconds a route's list answers are kept (0: not cached)."""
    configured = settings.MIRROR.get("LIST_CACHE_TTL", {}).get(results_key)
    if configured is not None:
        return int(configured)
    if opted_in is True:
        match = _MAX_AGE.search(cache_control)
        return int(match.group(1)) if match else 0
    return int(opted_in)


def cached_answer(environ: dict) -> tuple[str, list, bytes] | None:
    """The kept answer to the request `environ` describes: (status line, headers, body)."""
    if environ.get("PATH_INFO") not in _cached_paths or environ["REQUEST_METHOD"] != "GET":
        return None
    if oversize_error(environ) is not None:
        return None
    started = perf_counter()
    kept = caches[CACHE_ALIAS].get(_key(environ))
    if kept is None:
        return None
    status, headers, body, route = kept
    observability.observe("GET", route, int(status[:3]), perf_counter() - started, len(body))
    return status, headers, body


def keep(environ: dict, response: HttpResponse) -> None:
    """Keeps `response` (rendered, through every middleware) when its view asked for it."""
    keep_for: KeepFor | None = getattr(response, "keep_for", None)
    if keep_for is None or keep_for.seconds <= 0 or response.status_code != 200 or environ["REQUEST_METHOD"] != "GET":
        return
    status = f"{response.status_code} {response.reason_phrase}"
    kept = (status, list(response.items()), response.content, keep_for.route)
    caches[CACHE_ALIAS].set(_key(environ), kept, keep_for.seconds)
    if len(_cached_paths) < _MAX_CACHED_PATHS:
        _cached_paths.add(environ["PATH_INFO"])


def clear() -> None:
    caches[CACHE_ALIAS].clear()


def _key(environ: dict) -> str:
    request = "\n".join(
        (
            environ["PATH_INFO"],
            environ.get("QUERY_STRING", ""),
            environ.get("HTTP_AUTHORIZATION", ""),
            environ.get("HTTP_HOST", ""),
            environ.get("wsgi.url_scheme", ""),
            environ.get("HTTP_X_FORWARDED_PROTO", ""),
        )
    )
    return "list:" + hashlib.blake2b(request.encode(), digest_size=20).hexdigest()
