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

The key is the normalized request: the path, the query as the service reads it
(names lower-cased, values in their order, which `links.next` repeats) and the
caller's page-size maximum (Basic-auth users may have their own). The answer is
stored rendered, with its headers, in the `lists` cache of `settings.CACHES`:
local memory per process by default, Redis shared by all processes when
`MIRROR_REDIS_URL` is set.
"""

import hashlib
import re

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse

from apps.common.query import QueryParams

CACHE_ALIAS = "lists"
# What a stored answer keeps besides its body.
_KEPT_HEADERS = ("Content-Type", "Cache-Control", "Link")
_MAX_AGE = re.compile(r"max-age=(\d+)")


def time_to_live(*, results_key: str, opted_in: bool | int, cache_control: str) -> int:
    """Seconds a route's list answers are kept (0: not cached)."""
    configured = settings.MIRROR.get("LIST_CACHE_TTL", {}).get(results_key)
    if configured is not None:
        return int(configured)
    if opted_in is True:
        match = _MAX_AGE.search(cache_control)
        return int(match.group(1)) if match else 0
    return int(opted_in)


def cache_key(*, path: str, params: QueryParams, limit_max: int | None) -> str:
    normalized = repr((path, list(params.items()), limit_max))
    return "list:" + hashlib.blake2b(normalized.encode(), digest_size=20).hexdigest()


def cached_response(key: str) -> HttpResponse | None:
    stored = caches[CACHE_ALIAS].get(key)
    if stored is None:
        return None
    body, headers = stored
    return HttpResponse(body, headers=headers)


def store(key: str, response, ttl: int) -> None:
    """Keeps a rendered answer (`response.render()` first for a DRF Response)."""
    headers = {name: response[name] for name in _KEPT_HEADERS if response.has_header(name)}
    caches[CACHE_ALIAS].set(key, (response.content, headers), ttl)


def clear() -> None:
    caches[CACHE_ALIAS].clear()
