"""Routing: the router of the API's viewsets, and an index that resolves a path in one step.

Django resolves a path by walking the URLconf's tree: each include matches its prefix, tries
its patterns one by one (each a regular expression) and wraps the match it finds in a new
`ResolverMatch`, per request, over every route of the API under nested includes; this index
resolves a path in one lookup plus at most a few pattern matches.

`route_index(resolver)` flattens the tree once into its routes in Django's order, each with
the literal text its includes put before it (`/api/v1/`) and the literal segments its path
must begin with (`api/v1/blocks`). A path tries only the routes whose literal segments it
has, in order, matching only the route's own pattern against the rest of the path, and gets
the `ResolverMatch` Django would build (view, arguments, name, namespaces, route). A route
under an include whose prefix is not plain text (a capture, a regular expression) cannot be
flattened: a path that reaches one answers None, and the caller resolves it Django's way.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from django.urls import URLResolver
from django.urls.resolvers import RegexPattern, ResolverMatch, RoutePattern
from rest_framework.routers import SimpleRouter

__all__ = ("MirrorRouter", "RouteIndex", "route_index")


class MirrorRouter(SimpleRouter):
    """Routes with or without a trailing slash, as Express matches them."""

    def __init__(self):
        super().__init__()
        self.trailing_slash = "/?"


@dataclass(frozen=True, slots=True)
class _Route:
    prefix: str
    pattern: RoutePattern | RegexPattern
    callback: object
    url_name: str | None
    app_names: tuple
    namespaces: tuple
    route: str
    include_kwargs: dict
    default_kwargs: dict


class RouteIndex:
    def __init__(self, resolver: URLResolver):
        routes = list(_flatten(resolver, prefix="", include_kwargs={}, app_names=(), namespaces=(), route=""))
        keys = [_literal_segments(route) for route in routes]
        self._depth = max(len(key) for key in keys)
        # Each key holds, in order, every route whose segments begin the key's: the routes a path
        # beginning with those segments, and no longer known ones, may match.
        self._candidates = {
            key: [route for route, its in zip(routes, keys) if key[: len(its)] == its] for key in set(keys)
        }
        # Of those, by a path's last segment: the routes that may match a path ending in it
        # (those whose pattern ends in that literal segment, or in none).
        self._by_last_segment = {key: _by_last_segment(candidates) for key, candidates in self._candidates.items()}
        self._routes = routes

    def last_segments(self, wanted: Callable[[Callable], bool]) -> frozenset[str] | None:
        """The last segments of the paths routed to a view `wanted` accepts (a path ending in
        any other reaches none of them); None when one of their patterns fixes no last segment."""
        if None in self._routes:
            return None
        lasts = {_last_literal_segment(route) for route in self._routes if wanted(route.callback)}
        return None if None in lasts else frozenset(lasts)

    def resolve(self, path: str) -> ResolverMatch | None:
        """The match Django would find for `path`; None when it finds none, or when only
        Django can tell."""
        segments = path.split("/", self._depth)[: self._depth]
        for length in range(len(segments), -1, -1):
            by_last_segment = self._by_last_segment.get(tuple(segments[:length]))
            if by_last_segment is not None:
                break
        else:
            return None
        ending, any_ending = by_last_segment
        candidates = ending.get(path.rstrip("/").rpartition("/")[2], any_ending)
        for route in candidates:
            if route is None:
                return None
            if not path.startswith(route.prefix):
                continue
            match = route.pattern.match(path[len(route.prefix) :])
            if match:
                _, args, captured = match
                return ResolverMatch(
                    route.callback,
                    args,
                    {**route.include_kwargs, **captured, **route.default_kwargs},
                    route.url_name,
                    list(route.app_names),
                    list(route.namespaces),
                    route.route,
                    captured_kwargs=captured,
                    extra_kwargs={**route.include_kwargs, **route.default_kwargs},
                )
        return None


@lru_cache(maxsize=8)
def route_index(resolver: URLResolver) -> RouteIndex:
    """The index of a URLconf's resolver (`django.urls.get_resolver()`), built on first use."""
    return RouteIndex(resolver)


def _flatten(resolver: URLResolver, *, prefix, include_kwargs, app_names, namespaces, route):
    """The resolver's routes in order; None for each under a prefix that is not plain text."""
    literal = _plain_text(resolver.pattern)
    prefix = None if prefix is None or literal is None else prefix + literal
    include_kwargs = {**include_kwargs, **resolver.default_kwargs}
    app_names, namespaces = (*app_names, resolver.app_name), (*namespaces, resolver.namespace)
    for pattern in resolver.url_patterns:
        # Django's `ResolverMatch.route` joins the patterns below the outermost resolver.
        joined = _join_route(route, str(pattern.pattern))
        if isinstance(pattern, URLResolver):
            yield from _flatten(
                pattern,
                prefix=prefix,
                include_kwargs=include_kwargs,
                app_names=app_names,
                namespaces=namespaces,
                route=joined,
            )
        elif prefix is None:
            yield None
        else:
            yield _Route(
                prefix=prefix,
                pattern=pattern.pattern,
                callback=pattern.callback,
                url_name=pattern.name,
                app_names=app_names,
                namespaces=namespaces,
                route=joined,
                include_kwargs=include_kwargs,
                default_kwargs=pattern.default_args,
            )


def _join_route(outer: str, inner: str) -> str:
    return outer + inner.removeprefix("^") if outer else inner


# A character a regular expression may escape though it stands for itself.
_ESCAPED_PLAIN = re.compile(r"\\([^A-Za-z0-9])")
_SPECIAL = re.compile(r"[.^$*+?{}\[\]\\|()]")


def _plain_text(pattern) -> str | None:
    """The text an include's prefix pattern matches, when it matches only that."""
    if not isinstance(pattern, RoutePattern | RegexPattern) or pattern.regex.groups:
        return None
    body = pattern.regex.pattern
    if not body.startswith("^"):
        return None
    text = _ESCAPED_PLAIN.sub("", body[1:])
    return None if _SPECIAL.search(text) else _ESCAPED_PLAIN.sub(r"\1", body[1:])


# `blocks/…`, `blocks/?$`, `blocks$`, `blocks\Z`: a segment the path must have as it is.
_LITERAL_SEGMENT = re.compile(r"([A-Za-z0-9_-]*)(/(?!\?)|/\?\$|\$|\\Z)")


# `…/nfts/?$`, `…/nfts$`, `…/nfts\Z`: a pattern every path it matches ends in as its last segment.
_LAST_LITERAL_SEGMENT = re.compile(r"(?:^\^|/)([A-Za-z0-9_-]+)(?:/\?\$|\$|\\Z)$")


def _last_literal_segment(route: _Route | None) -> str | None:
    """The last segment of every path the route matches, when its pattern fixes one; None
    for a route that may match a path ending in anything, or when the pattern does not
    say plainly (an alternation, the `/` escaped or inside a character class)."""
    if route is None:
        return None
    body = route.pattern.regex.pattern
    match = _LAST_LITERAL_SEGMENT.search(body)
    if match is None or "|" in body or not _at_top_level(body, match.start()):
        return None
    return match[1]


def _at_top_level(body: str, position: int) -> bool:
    """Whether the character at `position` of a regular expression is itself, unescaped and
    outside any character class."""
    index, in_class = 0, False
    while index < position:
        character = body[index]
        if character == "\\":
            index += 2
            continue
        if in_class:
            in_class = character != "]"
        elif character == "[":
            in_class = True
            # A `]` first in the class (after an optional `^`) stands for itself.
            index += 2 if body[index + 1 : index + 2] == "^" else 1
            if body[index : index + 1] == "]":
                index += 1
            continue
        index += 1
    return index == position and not in_class


def _by_last_segment(candidates: list) -> tuple[dict[str, list], list]:
    """`candidates` for each last segment a pattern fixes, and for any other, in order."""
    lasts = [_last_literal_segment(route) for route in candidates]
    any_ending = [route for route, last in zip(candidates, lasts) if last is None]
    ending = {
        fixed: [route for route, last in zip(candidates, lasts) if last in (None, fixed)]
        for fixed in set(lasts) - {None}
    }
    return ending, any_ending


def _literal_segments(route: _Route | None) -> tuple[str, ...]:
    """The segments (split at `/`) every path the route matches begins with; () for a route
    that cannot be flattened, which every path may reach."""
    if route is None:
        return ()
    *segments, _partial = route.prefix.split("/")
    if _partial:
        return tuple(segments)
    body, position = route.pattern.regex.pattern.removeprefix("^"), 0
    while match := _LITERAL_SEGMENT.match(body, position):
        segments.append(match[1])
        if match[2] != "/":
            break
        position = match.end()
    return tuple(segments)
