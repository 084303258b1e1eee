import json

import pytest
from django.core.cache import close_caches
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client

from apps.common.api.renderers import MirrorJSONRenderer

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
    finished = [receiver() for _, receiver, _ in request_finished.receivers]
    started = [receiver() for _, receiver, _ in request_started.receivers]

    assert close_old_connections in started and close_old_connections in finished
    assert close_caches not in finished
    # reset_queries is dropped at startup too, but a test that counted statements (Django's
    # CaptureQueriesContext) connects it again when done.
