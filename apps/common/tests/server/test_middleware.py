"""TRACE, and the policy headers of the service's pages (apps/common/server/middleware.py)."""

import pytest
from django.test import Client

METHOD_NOT_ALLOWED = {"_status": {"messages": [{"message": "Method not allowed"}]}}


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/v1/blocks", "GET, HEAD, OPTIONS"),
        ("/api/v1/blocks/1", "GET, HEAD, OPTIONS"),
        ("/api/v1/network/fees", "GET, HEAD, OPTIONS, POST"),
        ("/api/v1/contracts/call", "GET, HEAD, OPTIONS, POST"),
        ("/api/v1/docs", "GET, HEAD, OPTIONS"),
        ("/api/v2/status.json", "GET, HEAD, OPTIONS"),
        ("/api/v1/hedera/0.0.7", "GET, HEAD"),
        ("/", "GET, HEAD"),
        ("/health/liveness", "GET, HEAD"),
        ("/metrics", "GET, HEAD"),
        ("/admin/", "GET, HEAD, POST"),
        ("/admin/login/", "GET, HEAD, POST"),
        ("/no/such/page", "GET, HEAD"),
    ],
)
def test_trace_is_405_in_the_envelope_on_every_path(db, path, allow):
    response = Client().generic("TRACE", path, HTTP_COOKIE="sessionid=secret")

    assert (response.status_code, response.json()) == (405, METHOD_NOT_ALLOWED)
    assert response["Allow"] == allow
    assert b"secret" not in response.content


@pytest.mark.parametrize("path", ["/", "/admin/login/", "/api/v1/docs"])
def test_pages_are_never_framed_and_load_only_their_own_resources(db, path):
    response = Client().get(path)

    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    policy = response["Content-Security-Policy"].split("; ")
    assert {"frame-ancestors 'none'", "script-src 'self'", "default-src 'self'"} <= set(policy)


def test_the_landing_page_answers_other_methods_405_in_json():
    response = Client(enforce_csrf_checks=True).post("/")

    assert (response.status_code, response.json()) == (405, METHOD_NOT_ALLOWED)


def test_the_admin_keeps_its_csrf_page(db):
    response = Client(enforce_csrf_checks=True).post("/admin/login/", {"username": "a", "password": "b"})

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "target",
    [
        "/admin/status/component/abc%00/change/",
        "/admin/status/component/?status__exact=a%00",
        "/admin/status/incident/?impact__exact=minor%00&status__exact=resolved",
    ],
)
def test_a_nul_character_in_a_page_request_is_400_not_a_database_failure(admin_client, target):
    response = admin_client.get(target)

    assert (response.status_code, response.json()) == (400, {"_status": {"messages": [{"message": "Bad request"}]}})
