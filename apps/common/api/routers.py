"""Routing: the router of the API's viewsets, and an include that finds a route without
trying every pattern.

Django resolves a path by trying an include's patterns one by one, each a regular
expression: the API's ~180 patterns cost a route late in the URLconf over 100 µs a request.
`include_by_first_segment` builds an include that tries only the patterns that can match the
path's first segment (`blocks` of `blocks/500`), in their order, so the first match is the
one Django would find; a pattern whose first segment is not a plain literal is tried for any
path. An include of includes (`api/v1/` over each app's URLconf) indexes the segments of its
includes, so a path reaches only its own app's patterns.
"""

import re

from django.urls import URLResolver, include, path
from django.urls.resolvers import RegexPattern, RoutePattern
from rest_framework.routers import SimpleRouter

__all__ = ("MirrorRouter", "include_by_first_segment", "includes_by_first_segment")

# `^blocks/…`, `^blocks/?$`, `^blocks$`: a literal segment the path's first segment must equal.
_LITERAL_FIRST_SEGMENT = re.compile(r"\^([A-Za-z0-9_-]+)(?:/(?!\?)|/\?\$|\$)")


class MirrorRouter(SimpleRouter):
    """Routes with or without a trailing slash, as Express matches them."""

    def __init__(self):
        super().__init__()
        self.trailing_slash = "/?"


class SegmentIndexedResolver(URLResolver):
    """A URLResolver that hands a path to a resolver of only the patterns that can match its
    first segment; what it answers (match, route, namespaces) is what it would answer alone."""

    def resolve(self, path):
        match = self.pattern.match(str(path))
        if not match:
            return super().resolve(path)
        segment = match[0].partition("/")[0]
        by_segment, any_segment = self._index
        return by_segment.get(segment, any_segment).resolve(path)

    @property
    def _index(self) -> tuple[dict[str, URLResolver], URLResolver]:
        # Built on first use: url_patterns imports the included URLconf.
        if "_built_index" not in self.__dict__:
            segments = [_literal_first_segments(pattern) for pattern in self.url_patterns]
            known = set().union(*(found for found in segments if found is not None))
            self._built_index = (
                {
                    segment: self._resolver_of(
                        [p for p, found in zip(self.url_patterns, segments) if found is None or segment in found]
                    )
                    for segment in known
                },
                self._resolver_of([p for p, found in zip(self.url_patterns, segments) if found is None]),
            )
        return self._built_index

    def _resolver_of(self, patterns: list) -> URLResolver:
        return URLResolver(self.pattern, patterns, self.default_kwargs, self.app_name, self.namespace)


def _literal_first_segments(pattern) -> frozenset[str] | None:
    """The first segments a path must have for `pattern` to match it; None: any may match."""
    if isinstance(pattern, URLResolver) and isinstance(pattern.pattern, RoutePattern) and not str(pattern.pattern):
        # An include without a prefix of its own matches what one of its patterns matches.
        found = [_literal_first_segments(inner) for inner in pattern.url_patterns]
        return None if None in found else frozenset().union(*found)
    if not isinstance(pattern.pattern, RegexPattern):
        return None
    match = _LITERAL_FIRST_SEGMENT.match(str(pattern.pattern))
    return frozenset([match[1]]) if match else None


def include_by_first_segment(route: str, urlconf: str) -> SegmentIndexedResolver:
    """`path(route, include(urlconf))`, resolved through a first-segment index."""
    resolver = path(route, include(urlconf))
    return SegmentIndexedResolver(
        resolver.pattern, resolver.urlconf_name, resolver.default_kwargs, resolver.app_name, resolver.namespace
    )


def includes_by_first_segment(route: str, urlconfs: list[str]) -> SegmentIndexedResolver:
    """`route` over each of `urlconfs` (each keeping its namespace), resolved through one
    first-segment index."""
    resolver = path(route, include([include_by_first_segment("", urlconf) for urlconf in urlconfs]))
    return SegmentIndexedResolver(resolver.pattern, resolver.urlconf_name, resolver.default_kwargs)
