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

Only the paths of the list routes that keep answers are looked up, so single-id lookups
never wait on the cache (with Redis, a round trip): a path is resolved once through the
URLconf to the viewset and action it routes to (`route_index`), and the route's
time-to-live is read from settings at each request. A process thus serves answers other
processes kept. The answers live in the `lists` cache of `settings.CACHES`: by default
local memory per process, bounded by the bytes it keeps (`MIRROR_LIST_CACHE_MAX_BYTES`,
apps/common/server/bounded_cache.py); with `MIRROR_REDIS_URL`, Redis shared by all
processes, bounded by its own `maxmemory`.

A Redis that refuses, drops or times out (its client's timeouts are bounded in settings)
is left alone for a second (apps/common/shared_cache.py): requests meanwhile are answered
uncached, and the first one after tries Redis again, so answers are kept again once it is
back. A request looks the cache up once: the thread lanes (apps/common/server/lanes.py)
look first and the handler behind them would look again, so a miss is marked in the
request's environ.
"""

import hashlib
import re
from functools import lru_cache
from time import perf_counter
from urllib.parse import parse_qsl, quote

from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.urls import get_resolver
from redis.exceptions import RedisError

from apps.common import observability
from apps.common.api.routers import route_index
from apps.common.query.params import PARAMETER_LIMIT
from apps.common.server.middleware import oversize_error
from apps.common.shared_cache import OutageBackoff

CACHE_ALIAS = "lists"
_outage = OutageBackoff("the list-route cache")
# Set in a request's environ once its lookup missed.
LOOKED_UP = "mirror.list_cache.looked_up"
# The viewsets of the latest short paths requested, resolved once each (a bounded number of
# bounded strings: the paths of routes with an id in them are many).
REMEMBERED_PATHS = 4096
MAX_REMEMBERED_PATH_LENGTH = 512
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
    if environ["REQUEST_METHOD"] != "GET" or LOOKED_UP in environ or not _keeps_answers(environ.get("PATH_INFO", "")):
        return None
    if "HTTP_IF_NONE_MATCH" in environ:  # a conditional request: its route decides (`api.conditional`)
        return None
    # `_outage.failing`: while the cache answers, its checks cost no call.
    if oversize_error(environ) is not None or (_outage.failing and not _outage.allows_calls()):
        return None
    started = perf_counter()
    try:
        kept = caches[CACHE_ALIAS].get(_key(environ))
    except RedisError as error:
        _outage.failed(error)
        return None
    if _outage.failing:
        _outage.answered()
    if kept is None:
        environ[LOOKED_UP] = True
        return None
    status, headers, body, route = kept
    observability.observe("GET", route, int(status[:3]), perf_counter() - started, len(body))
    return status, headers, body


def keep(environ: dict, response: HttpResponse) -> None:
    """Keeps `response` (rendered, through every middleware) when its view asked for it."""
    keep_for = getattr(response, "keep_for", None)
    if keep_for is None or keep_for.seconds <= 0 or response.status_code != 200 or environ["REQUEST_METHOD"] != "GET":
        return
    if _outage.failing and not _outage.allows_calls():
        return
    status = f"{response.status_code} {response.reason_phrase}"
    kept = (status, list(response.items()), response.content, keep_for.route)
    try:
        caches[CACHE_ALIAS].set(_key(environ), kept, keep_for.seconds)
    except RedisError as error:
        _outage.failed(error)
        return
    if _outage.failing:
        _outage.answered()


def clear() -> None:
    caches[CACHE_ALIAS].clear()


def _keeps_answers(path: str) -> bool:
    """Whether `path` routes to a list that keeps its answers under the settings in force. A
    path whose last segment ends no such route's is refused at once; the others are decided
    once per short path. Both are forgotten when the settings change (the tests change them)."""
    endings = _caching_route_endings()
    if endings is not None and path.rstrip("/").rpartition("/")[2] not in endings:
        return False
    return _remembered_decision(path) if len(path) <= MAX_REMEMBERED_PATH_LENGTH else _decide(path)


def _keeps(view) -> bool:
    """Whether `view` (a URLconf callback) is a list that keeps its answers."""
    actions = getattr(view, "actions", None)
    if not actions or actions.get("get") != "list":
        return False
    configured = settings.MIRROR.get("LIST_CACHE_TTL", {}).get(view.cls.results_key)
    # Opted in: its time-to-live may still be 0 (a Cache-Control without max-age), a lookup that misses.
    return bool(view.cls.list_cache) if configured is None else configured > 0


def _decide(path: str) -> bool:
    match = route_index(get_resolver()).resolve(path)
    return match is not None and _keeps(match.func)


_remembered_decision = lru_cache(maxsize=REMEMBERED_PATHS)(_decide)


@lru_cache(maxsize=1)
def _caching_route_endings() -> frozenset[str] | None:
    return route_index(get_resolver()).last_segments(_keeps)


@receiver(setting_changed)
def _forget_decisions(*, setting: str, **kwargs) -> None:
    if setting in ("MIRROR", "ROOT_URLCONF"):
        _remembered_decision.cache_clear()
        _caching_route_endings.cache_clear()


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
