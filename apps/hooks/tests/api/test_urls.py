import pytest
from django.urls import get_resolver

from apps.common.api.routers import route_index
from apps.hooks.api.views import HookStorageViewSet, HookViewSet


@pytest.mark.parametrize(
    "path, view, kwargs",
    [
        ("/api/v1/accounts/0.0.1001/hooks", HookViewSet, {"id": "0.0.1001"}),
        ("/api/v1/accounts/0x" + "ab" * 20 + "/hooks/", HookViewSet, {"id": "0x" + "ab" * 20}),
        ("/api/v1/accounts/1001/hooks/7/storage", HookStorageViewSet, {"id": "1001", "hook_id": "7"}),
        ("/api/v1/accounts/1001/hooks/-1/storage/", HookStorageViewSet, {"id": "1001", "hook_id": "-1"}),
    ],
)
def test_the_routes_resolve_to_the_hook_views(path, view, kwargs):
    resolver = get_resolver()
    match = resolver.resolve(path)

    assert (match.func.cls, match.kwargs) == (view, kwargs)
    indexed = route_index(resolver).resolve(path)
    assert (indexed.func, indexed.kwargs, indexed.route) == (match.func, match.kwargs, match.route)


@pytest.mark.parametrize(
    "path", ["/api/v1/accounts/1001/hooks/7", "/api/v1/accounts/1001/hooks/7/storage/x", "/api/v1/accounts//hooks"]
)
def test_other_paths_under_hooks_are_not_routes_of_theirs(path):
    match = get_resolver().resolve(path)

    assert getattr(match.func, "cls", None) not in (HookViewSet, HookStorageViewSet)


def test_the_routes_answer_get_only(client):
    response = client.post("/api/v1/accounts/1001/hooks")

    assert response.status_code in (404, 405)
    assert "_status" in response.json()
