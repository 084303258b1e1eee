import pytest
from django.urls import Resolver404, URLResolver, get_resolver, include, path
from django.urls.resolvers import RegexPattern

from apps.common.api.routers import SegmentIndexedResolver

PATHS = [
    "/api/v1/blocks",
    "/api/v1/blocks/",
    "/api/v1/blocks/500",
    "/api/v1/blocks/stream",
    "/api/v1/topics/0.0.7/messages/stream",
    "/api/v1/accounts/0.0.1/transactions/stream",
    "/api/v1/blocks/500/",
    "/api/v1/blocksx",
    "/api/v1/Blocks",
    "/api/v1/transactions/0.0.1-1-1",
    "/api/v1/balances",
    "/api/v1/accounts",
    "/api/v1/accounts/0.0.1",
    "/api/v1/accounts/0.0.1/rewards",
    "/api/v1/accounts/0.0.1/allowances/nfts",
    "/api/v1/accounts/0.0.1/airdrops/pending",
    "/api/v1/topics/0.0.1",
    "/api/v1/topics/0.0.1/messages/1",
    "/api/v1/topics/messages/1.2",
    "/api/v1/tokens/0.0.1/nfts/1/transactions",
    "/api/v1/tokens/nfts",
    "/api/v1/schedules/0.0.1",
    "/api/v1/contracts/results/logs",
    "/api/v1/contracts/0.0.1/results/1.2",
    "/api/v1/contracts/results/0x01/opcodes",
    "/api/v1/network/supply",
    "/api/v1/network/fees",
    "/api/v1/nothing",
    "/api/v1/",
    "/api/v1",
    "/api/v1/docs",
    "/api/v2/status.json",
    "/api/v3/x",
    "/health/liveness",
    "/admin/",
    "/",
]


def as_separate_includes(patterns: list) -> list:
    """The URLconf as Django alone would route it: each app's URLconf its own include."""
    plain = []
    for pattern in patterns:
        if isinstance(pattern, SegmentIndexedResolver) and pattern.namespace is None:
            for app in pattern.url_patterns:
                plain.append(path(str(pattern.pattern), include((app.urlconf_name, app.app_name), app.namespace)))
        else:
            plain.append(pattern)
    return plain


def outcome(resolver, path_: str):
    try:
        match = resolver.resolve(path_)
    except Resolver404:
        return None
    return (match.func, match.args, match.kwargs, match.url_name, match.route, match.namespaces, match.app_names)


@pytest.mark.parametrize("path_", PATHS)
def test_indexed_routes_resolve_as_django_alone_does(path_):
    indexed = get_resolver()
    plain = URLResolver(RegexPattern(r"^/"), as_separate_includes(indexed.url_patterns))

    assert outcome(indexed, path_) == outcome(plain, path_)


def test_a_route_is_found_among_its_own_apps_patterns_only():
    api = next(p for p in get_resolver().url_patterns if isinstance(p, SegmentIndexedResolver))
    by_segment, any_segment = api._index

    # The streams' `blocks/stream` comes first, so `blocks/{id}` does not take it.
    streams, blocks = by_segment["blocks"].url_patterns
    assert (streams.namespace, blocks.namespace) == ("streams", "blocks-api")
    assert any_segment.url_patterns == []
