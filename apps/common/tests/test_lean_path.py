import json
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.test import Client, RequestFactory
from rest_framework.permissions import AllowAny
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from apps.blocks.api.serializers import BlockSerializer
from apps.blocks.api.views import BlockViewSet
from apps.common.api.renderers import MirrorJSONRenderer
from apps.common.api.views import _reads_without_checks

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def test_api_requests_skip_the_site_middleware(client):
    response = client.get("/api/v1/blocks")

    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")


def test_api_post_is_not_a_csrf_failure(client):
    response = client.post("/api/v1/blocks")

    assert response.status_code == 404
    assert response.json() == {"_status": {"messages": [{"message": "Not found"}]}}


def test_admin_keeps_the_site_middleware(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert "csrftoken" in response.cookies


def test_renderer_is_compact_utf8():
    assert MirrorJSONRenderer().render({"memo": "é", "list": [1, None]}) == '{"memo":"é","list":[1,null]}'.encode()


def test_renderer_falls_back_for_what_orjson_cannot_render():
    rendered = MirrorJSONRenderer().render({"wei": 2**70})

    assert json.loads(rendered) == {"wei": 2**70}


def test_requests_keep_only_the_signal_receivers_that_do_something():
    # In a process of its own: Django's test client connects some of them again after each
    # request (as CaptureQueriesContext does `reset_queries`).
    script = (
        "import django; django.setup(); from django.core import signals; "
        "print([[r().__name__ for _, r, _ in s.receivers] for s in (signals.request_started, signals.request_finished)])"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=settings.BASE_DIR, capture_output=True, text=True, check=True)

    assert done.stdout.splitlines()[-1] == "[[], ['close_old_connections']]"


def test_a_row_serializer_is_built_once_for_every_request(client, monkeypatch):
    client.get("/api/v1/blocks")
    built = []
    build = BaseSerializer.__init__
    monkeypatch.setattr(BaseSerializer, "__init__", lambda self, *args, **kwargs: built.append(self) or build(self, *args, **kwargs))

    assert client.get("/api/v1/blocks").status_code == 200
    assert built == []
    assert BlockSerializer.shared() is BlockSerializer.shared()


def test_a_read_runs_its_action_on_djangos_request_and_other_methods_take_drfs_dispatch(client, monkeypatch):
    seen = []
    retrieve = BlockViewSet.retrieve
    monkeypatch.setattr(
        BlockViewSet, "retrieve", lambda self, request, **kwargs: seen.append(type(request)) or retrieve(self, request, **kwargs)
    )
    initial = APIView.initial
    monkeypatch.setattr(APIView, "initial", lambda self, request, *args, **kwargs: seen.append("initial") or initial(self, request, *args, **kwargs))

    assert client.get("/api/v1/blocks/0").status_code == 404
    assert client.head("/api/v1/blocks/0").status_code == 404
    assert client.get("/api/v1/blocks/0?unknown=1").json() == {"_status": {"messages": [{"message": "Unknown query parameter: unknown"}]}}
    # The router answers another method before any view; called directly, the view dispatches it through DRF.
    post = BlockViewSet.as_view({"get": "retrieve"})(RequestFactory().post("/api/v1/blocks/0"), hash_or_number="0")

    assert seen == [WSGIRequest, WSGIRequest, WSGIRequest, "initial"]
    assert post.status_code == 404  # as the upstream answers a method a route lacks


def test_a_route_with_a_check_of_its_own_takes_drfs_dispatch_for_reads_too():
    class Checked(BlockViewSet):
        permission_classes = (AllowAny,)

    class Throttled(BlockViewSet):
        throttle_classes = (AnonRateThrottle,)

    class Started(BlockViewSet):
        def initial(self, request, *args, **kwargs):
            super().initial(request, *args, **kwargs)

    assert _reads_without_checks(BlockViewSet)
    assert not any(_reads_without_checks(view) for view in (Checked, Throttled, Started))
