import pytest
from django.urls import Resolver404, URLResolver, get_resolver, include, path, re_path
from django.urls.resolvers import RegexPattern

from apps.common.api.routers import RouteIndex, route_index

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
    "/api/v1/accounts/0.0.1/allowances/tokens",
    "/api/v1/tokens/0.0.1/balances",
    "/api/v1/contracts/call",
    "/api/v1/blocks//",
    "/api/v1/docs/openapi.yml",
    "/admin/accounts/entity/1/change/",
    "/admin/login/",
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


def outcome(match):
    if match is None:
        return None
    return (
        match.func, match.args, match.kwargs, match.url_name, match.route, match.namespaces, match.app_names,
        match.captured_kwargs, match.extra_kwargs, match.view_name,
    )


def django_outcome(resolver, path_: str):
    try:
        return outcome(resolver.resolve(path_))
    except Resolver404:
        return None


@pytest.mark.parametrize("path_", PATHS)
def test_the_index_resolves_as_django_does(path_):
    resolver = get_resolver()

    assert outcome(route_index(resolver).resolve(path_)) == django_outcome(resolver, path_)


@pytest.mark.parametrize("path_", [p for p in PATHS if p.startswith("/api/")])
def test_every_api_path_resolves_in_the_index(path_):
    # The catch-all `^api/` answers what no route does, so no API path is left to Django.
    assert route_index(get_resolver()).resolve(path_) is not None


def test_a_path_tries_only_the_routes_its_segments_allow():
    index = route_index(get_resolver())

    def namespaces(*segments):
        return [route.namespaces[-1] for route in index._candidates["", "api", "v1", *segments] if route.namespaces[-1]]

    assert namespaces("blocks") == ["blocks-api", "blocks-api"]
    # The streams' `blocks/stream` comes first, so `blocks/{id}` does not take it.
    assert namespaces("blocks", "stream") == ["streams", "blocks-api", "blocks-api"]


def test_a_route_under_a_prefix_that_is_not_plain_text_is_left_to_django():
    urls = [
        path("plain/<int:number>", view, name="plain"),
        re_path(r"^(?P<version>v[0-9])/", include([path("items", view, name="items")])),
        path("after", view, name="after"),
    ]
    resolver = URLResolver(RegexPattern(r"^/"), urls)
    index = RouteIndex(resolver)

    assert outcome(index.resolve("/plain/5")) == django_outcome(resolver, "/plain/5")
    assert index.resolve("/plain/5").kwargs == {"number": 5}
    assert index.resolve("/v1/items") is None
    # A later route is reached past the one Django must try first only by Django.
    assert index.resolve("/after") is None
    assert django_outcome(resolver, "/after") is not None


def view(request, **kwargs):
    return None


def test_a_path_tries_only_the_routes_its_last_segment_allows():
    index = route_index(get_resolver())
    ending, any_ending = index._by_last_segment["", "api", "v1", "accounts"]

    names = [route.url_name for route in ending["nfts"]]
    assert "account-nft-list" in names
    assert "account-reward-list" not in names
    # A route ending in a capture (`accounts/{id}`) may match any last segment.
    assert all(route in ending["nfts"] for route in any_ending)


@pytest.mark.parametrize(
    ("pattern", "last"),
    [
        (r"^items/(?P<pk>[^/.]+)/nfts/?$", "nfts"),
        (r"^items/(?P<pk>[^/.]+)/nfts$", "nfts"),
        (r"^items/(?P<pk>[0-9]+)/nfts\Z", "nfts"),
        (r"^items/(?P<pk>[^/.]+)/?$", None),
        (r"^items/(?P<pk>[^/.]+)/nfts+$", None),
        (r"^items/[a/]nfts$", None),
        (r"^items/[]/]nfts$", None),
        (r"^items/[^]/]nfts$", None),
        (r"^items/x\/nfts$", None),
        (r"^items/x|y/nfts$", None),
        (r"^items/(?:/nfts)?$", None),
    ],
)
def test_a_last_segment_is_read_only_from_a_plain_pattern(pattern, last):
    resolver = URLResolver(RegexPattern(r"^/"), [re_path(pattern, view, name="item")])
    index = RouteIndex(resolver)
    ending, any_ending = index._by_last_segment["", "items"]

    assert (list(ending) == [last]) if last else (ending == {} and len(any_ending) == 1)


@pytest.mark.parametrize("path_", ["/items/1/nfts", "/items/1/nfts/", "/items/1/other", "/items/1", "/items/1/x/nfts"])
def test_the_last_segment_index_resolves_as_django_does(path_):
    urls = [
        re_path(r"^items/(?P<pk>[^/.]+)/nfts/?$", view, name="nfts"),
        re_path(r"^items/(?P<pk>[^/.]+)/?$", view, name="item"),
        re_path(r"^items/(?P<rest>.+)$", view, name="rest"),
    ]
    resolver = URLResolver(RegexPattern(r"^/"), urls)

    assert outcome(RouteIndex(resolver).resolve(path_)) == django_outcome(resolver, path_)
