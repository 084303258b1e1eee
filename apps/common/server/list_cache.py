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
bytes. So the key is the request as it arrives, not as a route reads it: the path,
the query, and what else changes an answer: `Authorization` (a Basic-auth user's
page-size maximum, or a 401), `Host` (a 400 when not allowed) and the scheme, as
sent or as a trusted proxy's `X-Forwarded-Proto` (the HTTPS redirect and the HSTS
header). A request whose headers the service refuses as too large (431), or whose
address is too long (414), never takes the shortcut.

The query is keyed as every route reads it: its `name=value` pairs decoded
(`parse_qsl`), so spellings that decode alike share an entry (`0.0.5` and
`0%2E0%2E5`, `+` and `%20`, `a` and `a=`, empty fields). The order of the pairs is
kept: `links.next` and the `Link` header repeat the parameters in the order they
were first named, so `limit=2&order=asc` and `order=asc&limit=2` answer different
bodies. A name's case is kept too (the Java-style routes read names as sent). A query
that is not ASCII (bytes the server handed undecoded, which Django's `request.GET`
decodes as UTF-8 and `parse_qsl` does not) or that has too many fields to be read
(a 400) is keyed as written.

Only paths that a list answer was kept for in this process are looked up, so single-id
lookups never wait on the cache (with Redis, a round trip). The answers live in the
`lists` cache of `settings.CACHES`: by default local memory per process, bounded by
the bytes it keeps (`MIRROR_LIST_CACHE_MAX_BYTES`, apps/common/server/bounded_cache.py);
with `MIRROR_REDIS_URL`, Redis shared by all processes, bounded by its own
`maxmemory`.
"""

import hashlib
import re
from functools import lru_cache
from threading import Lock
from time import perf_counter
from urllib.parse import parse_qsl, quote

from django.core.cache import caches
from django.http import HttpResponse

from apps.common import observability
from apps.common.query.params import PARAMETER_LIMIT
from apps.common.server.middleware import oversize_error

CACHE_ALIAS = "lists"
_MAX_AGE = re.compile(r"max-age=(\d+)")
# Paths a list answer was kept for, in this process. A route opted in by settings may
# have an id in its path, so the set is bounded by the bytes its paths take: past
# the bound it starts again empty, and the paths of answers kept after fill it anew.
_cached_paths: set[str] = set()
_cached_paths_bytes = 0
_cached_paths_lock = Lock()
MAX_CACHED_PATHS_BYTES = 2**20
# A path's string object and its slot in the set.
_PATH_OVERHEAD_BYTES = 100
# Characters that decode to themselves and that `_canonical_query` writes as they
# are: a query made only of them, in `name=value` fields, is already canonical.
_NAME_SAFE = "!$'()*,;:@/[]"
_VALUE_SAFE = _NAME_SAFE + "="
_CANONICAL_FIELD = rf"[\w{re.escape('-.~' + _NAME_SAFE)}]*=[\w{re.escape('-.~' + _VALUE_SAFE)}]*"
_CANONICAL_QUERY = re.compile(rf"(?:{_CANONICAL_FIELD}(?:&{_CANONICAL_FIELD})*)?", re.ASCII)
# Decoding and re-encoding a query costs more than serving the answer kept for it, and
# clients that encode `:` or `.` send the same queries again and again: the latest short
# ones are remembered (a bounded number of bounded strings).
REMEMBERED_QUERIES = 1024
MAX_REMEMBERED_QUERY_LENGTH = 512


def cached_answer(environ: dict) -> tuple[str, list, bytes] | None:
    """The kept answer to the request `environ` describes: (status line, headers, body)."""
    if environ.get("PATH_INFO") not in _cached_paths or environ["REQUEST_METHOD"] != "GET":
        return None
    if "HTTP_IF_NONE_MATCH" in environ:  # a conditional request: its route decides (`api.conditional`)
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
    keep_for = getattr(response, "keep_for", None)
    if keep_for is None or keep_for.seconds <= 0 or response.status_code != 200 or environ["REQUEST_METHOD"] != "GET":
        return
    status = f"{response.status_code} {response.reason_phrase}"
    kept = (status, list(response.items()), response.content, keep_for.route)
    caches[CACHE_ALIAS].set(_key(environ), kept, keep_for.seconds)
    if environ["PATH_INFO"] not in _cached_paths:
        _remember_path(environ["PATH_INFO"])


def clear() -> None:
    caches[CACHE_ALIAS].clear()


def _remember_path(path: str) -> None:
    global _cached_paths_bytes
    size = len(path) + _PATH_OVERHEAD_BYTES
    with _cached_paths_lock:
        if _cached_paths_bytes + size > MAX_CACHED_PATHS_BYTES:
            _cached_paths.clear()
            _cached_paths_bytes = 0
        if path not in _cached_paths:
            _cached_paths.add(path)
            _cached_paths_bytes += size


def _canonical_query(query: str) -> str:
    """The query as its decoded pairs, re-encoded one way; as written when routes could
    read two spellings of it apart (see the module's docstring)."""
    if _CANONICAL_QUERY.fullmatch(query) or query.count("&") >= PARAMETER_LIMIT or not query.isascii():
        return query
    if len(query) > MAX_REMEMBERED_QUERY_LENGTH:
        return _reencoded(query)
    return _remembered_reencoding(query)


def _reencoded(query: str) -> str:
    return "&".join(
        f"{quote(name, safe=_NAME_SAFE)}={quote(value, safe=_VALUE_SAFE)}"
        for name, value in parse_qsl(query, keep_blank_values=True)
    )


_remembered_reencoding = lru_cache(maxsize=REMEMBERED_QUERIES)(_reencoded)


def _key(environ: dict) -> str:
    request = "\n".join(
        (
            environ["PATH_INFO"],
            _canonical_query(environ.get("QUERY_STRING", "")),
            environ.get("HTTP_AUTHORIZATION", ""),
            environ.get("HTTP_HOST", ""),
            environ.get("wsgi.url_scheme", ""),
            environ.get("HTTP_X_FORWARDED_PROTO", ""),
        )
    )
    return "list:" + hashlib.blake2b(request.encode(), digest_size=20).hexdigest()
