"""The Cache-Control (and other headers) of a route's successful answers, and how long the
list-route cache (`apps.common.server.list_cache`) keeps a route's answers: a list view marks
its answer with `KeepFor`, the server door keeps what is marked.

A route declares the upstream's Cache-Control for it (`MirrorViewSet.cache_control`); the
operator may change it in the upstream's own settings (apps/common/configuration.py): the
headers of every route (`response.headers.default`) and those of one route
(`response.headers.path`), the Java service's (`hiero.mirror.restJava...`) for the routes the
upstream serves from that service.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

from apps.common.configuration import route_shape

_MAX_AGE = re.compile(r"max-age=(\d+)")
# A named group of a route's pattern, with one level of nested parentheses (a lookahead).
_ROUTE_PARAMETER = re.compile(r"\(\?P<\w+>(?:[^()]|\([^()]*\))*\)|<[^<>]+>")


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


def response_headers(request, *, cache_control: str | None, java: bool) -> dict[str, str]:
    """The configured default headers, the route's own Cache-Control over them, and what is
    configured for the route over both."""
    prefix = "JAVA_" if java else ""
    headers = settings.MIRROR[f"{prefix}RESPONSE_HEADERS_DEFAULT"]
    if cache_control:
        headers = {**headers, "cache-control": cache_control}
    if by_route := settings.MIRROR[f"{prefix}RESPONSE_HEADERS_PATH"]:
        match = getattr(request, "resolver_match", None)
        if configured := by_route.get(django_route_shape(match.route if match else "")):
            headers = {**headers, **configured}
    return headers


@lru_cache(maxsize=256)
def django_route_shape(route: str) -> str:
    """A resolved route's pattern (`api/v1/accounts/(?P<id>[^/]+)/rewards/?$`) in the shape
    `route_shape` gives the upstream's routes (`api/v1/accounts/*/rewards`)."""
    return route_shape(_ROUTE_PARAMETER.sub(":", route.removeprefix("^")).removesuffix("$").removesuffix("/?"))
