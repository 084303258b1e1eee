import re

import pytest
from django.core.management import call_command
from django.db import connection

from apps.common.server.pages import UPSTREAM_OPENAPI_URL, api_routes
from apps.common.tests.test_demo import DEMO


@pytest.fixture
def unreachable_database(django_db_blocker, tmp_path):
    """The default connection pointed at a socket directory where no server listens."""
    with django_db_blocker.unblock():
        connection.close()
        original = dict(connection.settings_dict)
        connection.settings_dict["HOST"] = str(tmp_path)
        try:
            yield
        finally:
            connection.close()
            connection.settings_dict.update(original)


def links(response) -> list[str]:
    return re.findall(r'href="([^"]+)"', response.content.decode())


def test_api_routes_are_read_from_the_urlconf():
    routes = api_routes()

    assert "/api/v1/blocks" in routes["blocks-api"]
    assert "/api/v1/blocks/{hash_or_number}" in routes["blocks-api"]
    assert "/api/v2/summary.json" in routes["status-api"]
    assert all(route.startswith("/api/") for family in routes.values() for route in family)


@pytest.mark.django_db
def test_landing_page_links_the_api_its_docs_the_status_routes_and_the_admin(client):
    response = client.get("/")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    hrefs = links(response)
    assert {"/api/v1/blocks", "/api/v1/transactions", "/api/v1/balances"} <= set(hrefs)
    assert {"/api/v2/summary.json", "/api/v2/status.json"} <= set(hrefs)
    assert UPSTREAM_OPENAPI_URL in hrefs
    assert "/admin/" in hrefs
    assert "<code>/api/v1/blocks/{hash_or_number}</code>" in response.content.decode()


@pytest.mark.django_db
def test_every_local_link_of_the_landing_page_is_served(admin_client, settings):
    # With the demo's rows, as on a first start: the network routes answer 404 without their system files.
    call_command("loadfixtures", "--if-empty", DEMO)
    call_command("seedstatus")
    # As `scripts/run-server` serves them: the stream paths redirect to the stream server.
    settings.STREAM_BIND = "127.0.0.1:8001"
    local = [href for href in links(admin_client.get("/")) if href.startswith("/")]

    assert len(local) > 10
    for href in local:
        # A route may ask for a query parameter (a 400 then); none may be missing or fail.
        expected = (307,) if href.endswith("/stream") else (200, 400)
        assert admin_client.get(href).status_code in expected, href


def test_admin_without_slash_redirects(client):
    response = client.get("/admin")

    assert (response.status_code, response["Location"]) == (301, "/admin/")


def test_admin_answers_the_outage_page_when_the_database_is_unreachable(client, unreachable_database):
    client.cookies["sessionid"] = "s" * 32

    response = client.get("/admin/")

    assert response.status_code == 503
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["Retry-After"] == "30"
    assert b"Service unavailable" in response.content


def test_admin_login_answers_the_outage_page_when_the_database_is_unreachable(client, unreachable_database):
    response = client.post("/admin/login/", {"username": "root", "password": "secret"})

    assert response.status_code == 503
    assert b"Service unavailable" in response.content


def test_landing_page_needs_no_database(client, unreachable_database):
    assert client.get("/").status_code == 200


def test_api_keeps_its_json_envelope_when_the_database_is_unreachable(client, unreachable_database):
    response = client.get("/api/v1/blocks")

    assert response.status_code == 503
    assert response.json() == {"_status": {"messages": [{"message": "Service unavailable"}]}}
