import base64
import json
from contextlib import contextmanager

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
)
from django.db import DatabaseError, OperationalError, connection
from django.http import Http404
from django.test import Client, RequestFactory, override_settings
from rest_framework import exceptions as drf_exceptions

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.api.exceptions import error_response, error_status_and_messages
from apps.common.api.views import (
    bad_request,
    permission_denied,
    route_not_found,
    server_error,
)
from apps.common.errors import (
    HeadersTooLarge,
    InvalidArgument,
    NotFound,
    TooManyParameters,
    Unauthorized,
    UriTooLong,
)

JSON_UTF8 = "application/json; charset=utf-8"
NOT_FOUND = {"_status": {"messages": [{"message": "Not found"}]}}


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def four_blocks(db):
    create_record_files(*(record_file(number, number * 100) for number in range(1, 5)))


@pytest.mark.parametrize(
    "path",
    ["/api/v1/hedera/0.0.7", "/api/v1/", "/api/v2/blocks", "/api/v1/blocks/1/transactions", "/api/"],
)
def test_unknown_api_route_is_json_404(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response.content == b'{"_status":{"messages":[{"message":"Not found"}]}}'
    assert response["Content-Type"] == JSON_UTF8
    assert response["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_other_method_on_get_route_is_404(client, method, db):
    response = getattr(client, method)("/api/v1/blocks")

    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert response["Content-Type"] == JSON_UTF8


def test_post_to_block_detail_is_404(client, db):
    response = client.post("/api/v1/blocks/1", data="{}", content_type="application/json")

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


def test_post_to_unknown_api_route_is_404(client):
    response = client.post("/api/v1/hedera/0.0.7")

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


@pytest.mark.parametrize("path", ["/nothing", "/static/missing.css", "/api"])
def test_unknown_non_api_path_is_json_404(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert response["Content-Type"] == JSON_UTF8


@contextmanager
def record_file_locked_elsewhere():
    """Another session holds an exclusive lock on `record_file`; ours gives up waiting after 100 ms."""
    params = connection.get_connection_params()
    params = {key: value for key, value in params.items() if key not in ("cursor_factory", "context")}
    with psycopg.connect(**params) as blocker:
        blocker.execute("lock table record_file in access exclusive mode")
        with connection.cursor() as cursor:
            cursor.execute("set lock_timeout = '100ms'")
        try:
            yield
        finally:
            blocker.rollback()
            with connection.cursor() as cursor:
                cursor.execute("reset lock_timeout")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/api/v1/blocks", "/api/v1/blocks/1"])
def test_database_failure_is_503(client, path):
    with record_file_locked_elsewhere():
        response = client.get(path)

    assert response.status_code == 503
    assert response.json() == envelope("Service unavailable")
    assert response["Content-Type"] == JSON_UTF8
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Cache-Control" not in response


def test_unknown_basic_auth_user_is_401(client, four_blocks):
    response = client.get("/api/v1/blocks", headers={"Authorization": basic("mallory", "guess")})

    assert response.status_code == 401
    assert response.json() == envelope("Invalid credentials")
    assert response["Content-Type"] == JSON_UTF8
    assert response["Access-Control-Allow-Origin"] == "*"


def test_wrong_password_is_401(client, four_blocks):
    users = [{"username": "alice", "password": "secret", "limit": 3}]

    with override_settings(MIRROR={**settings.MIRROR, "USERS": users}):
        response = client.get("/api/v1/blocks", headers={"Authorization": basic("alice", "wrong")})

    assert (response.status_code, response.json()) == (401, envelope("Invalid credentials"))


def test_unknown_user_on_unknown_route_is_401(client):
    response = client.get("/api/v1/hedera/0.0.7", headers={"Authorization": basic("mallory", "guess")})

    assert (response.status_code, response.json()) == (401, envelope("Invalid credentials"))


@pytest.mark.parametrize(
    "header",
    [
        "Bearer abc",
        "basic " + base64.b64encode(b"alice:secret").decode(),
        "Basic",
        "Basic " + base64.b64encode(b"alice").decode(),
        "Basic " + base64.b64encode(b":secret").decode(),
        "Basic abc",
    ],
)
def test_malformed_authorization_header_is_401(client, header, four_blocks):
    response = client.get("/api/v1/blocks", headers={"Authorization": header})

    assert response.status_code == 401
    assert response.json() == envelope("Invalid Authorization header format")


def test_basic_auth_credentials_that_are_not_utf8_are_unknown_credentials(client, four_blocks):
    header = "Basic " + base64.b64encode(b"\xff\xfe:x").decode()

    response = client.get("/api/v1/blocks", headers={"Authorization": header})

    assert (response.status_code, response.json()) == (401, envelope("Invalid credentials"))


def test_basic_auth_credentials_without_base64_padding_are_accepted(client, four_blocks):
    users = [{"username": "alice", "password": "pw", "limit": 3}]
    header = "Basic " + base64.b64encode(b"alice:pw").decode().rstrip("=")

    with override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 2}):
        response = client.get("/api/v1/blocks?limit=3", headers={"Authorization": header})

    assert response.status_code == 200
    assert len(response.json()["blocks"]) == 3


def test_empty_authorization_header_is_anonymous(client, four_blocks):
    response = client.get("/api/v1/blocks?limit=1", headers={"Authorization": ""})

    assert response.status_code == 200
    assert len(response.json()["blocks"]) == 1


@pytest.mark.parametrize("path", ["/api/v1/blocks", "/api/v1/blocks/1", "/api/v1/hedera/0.0.7"])
def test_cors_preflight_is_answered_before_routing(client, path, db):
    response = client.options(
        path,
        headers={"Origin": "https://explorer.example", "Access-Control-Request-Method": "GET"},
    )

    assert response.status_code == 204
    assert response.content == b""
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "GET" in response["Access-Control-Allow-Methods"].split(",")


def test_configured_user_gets_own_page_size_maximum(client, four_blocks):
    users = [{"username": "alice", "password": "secret", "limit": 3}]

    with override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 2}):
        anonymous = client.get("/api/v1/blocks?limit=4")
        alice = client.get("/api/v1/blocks?limit=4", headers={"Authorization": basic("alice", "secret")})

    assert [block["number"] for block in anonymous.json()["blocks"]] == [4, 3]
    assert [block["number"] for block in alice.json()["blocks"]] == [4, 3, 2]
    assert alice.json()["links"]["next"] == "/api/v1/blocks?limit=4&block.number=lt:2"


def test_configured_user_without_limit_gets_configured_maximum(client, four_blocks):
    users = [{"username": "bob", "password": "pw:with:colons"}]

    with override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 2}):
        response = client.get("/api/v1/blocks?limit=4", headers={"Authorization": basic("bob", "pw:with:colons")})

    assert response.status_code == 200
    assert [block["number"] for block in response.json()["blocks"]] == [4, 3]


def test_successful_response_headers(client, four_blocks):
    response = client.get("/api/v1/blocks")

    assert response.status_code == 200
    assert response["Content-Type"] == JSON_UTF8
    assert response["Access-Control-Allow-Origin"] == "*"


def test_error_response_has_cors_header_and_no_cache_control(client, db):
    response = client.get("/api/v1/blocks?foo=1")

    assert response.status_code == 400
    assert response.json() == envelope("Unknown query parameter: foo")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Content-Type"] == JSON_UTF8
    assert "Cache-Control" not in response
    assert "Link" not in response


def test_error_body_is_compact_json(client, db):
    response = client.get("/api/v1/blocks?limit=x&foo=1")

    assert response.content == (
        b'{"_status":{"messages":[{"message":"Invalid parameter: limit"},'
        b'{"message":"Unknown query parameter: foo"}]}}'
    )


def test_non_ascii_is_sent_as_utf8(client, db):
    create_record_files(record_file(1, 100, name="bloc-é.rcd"))

    response = client.get("/api/v1/blocks/1")

    assert "bloc-é.rcd".encode() in response.content
    assert json.loads(response.content.decode("utf-8"))["name"] == "bloc-é.rcd"


@pytest.mark.parametrize(
    ("exception", "status", "messages"),
    [
        (
            InvalidArgument("Invalid parameter: a", "Unknown query parameter: b"),
            400,
            ["Invalid parameter: a", "Unknown query parameter: b"],
        ),
        (
            InvalidArgument.for_params("account.id", "limit"),
            400,
            ["Invalid parameter: account.id", "Invalid parameter: limit"],
        ),
        (NotFound(), 404, ["Not found"]),
        (NotFound("No such topic"), 404, ["No such topic"]),
        (Unauthorized("Invalid credentials"), 401, ["Invalid credentials"]),
        (Http404(), 404, ["Not found"]),
        (drf_exceptions.NotFound(), 404, ["Not found"]),
        (drf_exceptions.MethodNotAllowed("POST"), 404, ["Not found"]),
        (drf_exceptions.ParseError("JSON parse error"), 400, ["JSON parse error"]),
        (TooManyParameters(1000), 400, ["Parameter limit exceeded. Only 1000 parameters allowed."]),
        (TooManyFieldsSent("too many"), 400, ["Parameter limit exceeded. Only 1000 parameters allowed."]),
        (DisallowedHost("Invalid HTTP_HOST header"), 400, ["Bad request"]),
        (RequestDataTooBig("too big"), 400, ["Bad request"]),
        (BadRequest("bad"), 400, ["Bad request"]),
        (PermissionDenied(), 403, ["Forbidden"]),
        (UriTooLong(), 414, ["URI too long"]),
        (HeadersTooLarge(), 431, ["Request header fields too large"]),
        (OperationalError("canceling statement due to statement timeout"), 503, ["Service unavailable"]),
        (DatabaseError(), 503, ["Service unavailable"]),
        (ValueError("boom"), 500, ["Internal error"]),
        (KeyError("boom"), 500, ["Internal error"]),
    ],
)
def test_error_status_and_messages(exception, status, messages):
    assert error_status_and_messages(exception) == (status, messages)


def test_error_response_is_compact_json_envelope():
    response = error_response(InvalidArgument("Invalid parameter: limit"))

    assert response.status_code == 400
    assert response["Content-Type"] == JSON_UTF8
    assert response.content == b'{"_status":{"messages":[{"message":"Invalid parameter: limit"}]}}'


def test_route_not_found_view():
    response = route_not_found(RequestFactory().get("/api/v1/nothing"))

    assert (response.status_code, json.loads(response.content)) == (404, NOT_FOUND)


def test_server_error_view():
    response = server_error(RequestFactory().get("/api/v1/blocks"))

    assert response.status_code == 500
    assert json.loads(response.content) == envelope("Internal error")
    assert response["Content-Type"] == JSON_UTF8


@pytest.mark.parametrize(
    ("view", "exception", "status", "body"),
    [
        (bad_request, DisallowedHost("Invalid HTTP_HOST header"), 400, envelope("Bad request")),
        (bad_request, None, 400, envelope("Bad request")),
        (permission_denied, PermissionDenied(), 403, envelope("Forbidden")),
        (permission_denied, None, 403, envelope("Forbidden")),
    ],
)
def test_error_handler_views(view, exception, status, body):
    response = view(RequestFactory().get("/api/v1/blocks"), exception)

    assert (response.status_code, json.loads(response.content)) == (status, body)
    assert response["Content-Type"] == JSON_UTF8


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "garbage", "application/json"])
@pytest.mark.parametrize(("path", "status"), [("/api/v1/blocks", 200), ("/api/v1/blocks/9", 404)])
def test_any_accept_header_is_answered_json(client, db, accept, path, status):
    response = client.get(path, headers={"Accept": accept})

    assert response.status_code == status
    assert response["Content-Type"] == JSON_UTF8
    assert response.json()


def test_format_parameter_is_an_unknown_query_parameter(client, db):
    response = client.get("/api/v1/blocks?format=xml")

    assert (response.status_code, response.json()) == (400, envelope("Unknown query parameter: format"))


def test_unrouted_post_passes_csrf_checks():
    response = Client(enforce_csrf_checks=True).post("/api/v1/hedera/0.0.7", data={"a": "1"})

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


def test_uri_over_16_kib_is_414(client):
    response = client.get("/api/v1/blocks?limit=" + "1" * (16 * 1024))

    assert (response.status_code, response.json()) == (414, envelope("URI too long"))
    assert response["Access-Control-Allow-Origin"] == "*"


def test_headers_over_16_kib_are_431(client):
    response = client.get("/api/v1/blocks", headers={"Cookie": "c" * (16 * 1024)})

    assert (response.status_code, response.json()) == (431, envelope("Request header fields too large"))


def test_uri_and_headers_of_16_kib_are_served(client, db):
    query = "limit=1&" + "block.number=gte:1&" * 100
    response = client.get("/api/v1/blocks?" + query, headers={"Cookie": "c" * (15 * 1024)})

    assert response.status_code == 200


def test_size_limits_apply_to_api_paths_only(client):
    response = client.get("/nothing?" + "x" * (16 * 1024), headers={"Cookie": "c" * (16 * 1024)})

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


def test_head_request_on_list_route(client, four_blocks):
    response = client.head("/api/v1/blocks")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"


def test_cors_preflight_allows_the_requested_headers(client, db):
    response = client.options(
        "/api/v1/transactions",
        headers={
            "Origin": "https://wallet.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization,x-custom",
        },
    )

    assert response.status_code == 204
    assert response["Access-Control-Allow-Headers"] == "authorization,x-custom"
    assert response["Vary"] == "Access-Control-Request-Headers"


@pytest.mark.parametrize("path", ["/", "/health/liveness", "/admin/login/"])
def test_cors_applies_to_api_paths_only(client, db, path):
    response = client.get(path, headers={"Origin": "https://explorer.example"})
    preflight = client.options(
        path, headers={"Origin": "https://explorer.example", "Access-Control-Request-Method": "GET"}
    )

    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response
    assert "Access-Control-Allow-Origin" not in preflight
