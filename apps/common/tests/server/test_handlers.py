import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client

from apps.common.database.fixtures import load_rows
from apps.common.server.handlers import MirrorWSGIHandler, wsgi_environ
from apps.common.server.middleware import MAX_URI_LENGTH

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def test_transaction_kept_open(connection_kept_open):
    """Every test here calls the application itself."""


BLOCK = {
    "consensus_start": 1_700_000_000_000_000_000,
    "consensus_end": 1_700_000_001_000_000_000,
    "count": 3,
    "digest_algorithm": 0,
    "file_hash": "aa",
    "gas_used": -1,
    "hash": "ab" * 48,
    "index": 7,
    "load_start": 0,
    "load_end": 1,
    "name": "2023-11-14T22_13_20.000000000Z.rcd.gz",
    "prev_hash": "cd" * 48,
    "sidecar_count": 0,
    "version": 6,
}

REQUESTS = [
    ("GET", "/api/v1/blocks", "", {}),
    ("GET", "/api/v1/blocks", "limit=1&order=asc", {}),
    ("GET", "/api/v1/blocks/7", "", {}),
    ("GET", "/api/v1/blocks/8", "", {}),
    ("GET", "/api/v1/blocks/7", "x=1", {}),
    ("GET", "/api/v1/blocks", "limit=x&order=up", {}),
    ("GET", "/api/v1/nothing", "", {}),
    ("POST", "/api/v1/blocks", "", {}),
    ("OPTIONS", "/api/v1/blocks", "", {"HTTP_ACCESS_CONTROL_REQUEST_HEADERS": "x-a"}),
    ("GET", "/api/v1/blocks", "", {"HTTP_AUTHORIZATION": "Basic bm86dXNlcg=="}),
    ("GET", "/api/v1/blocks", "", {"HTTP_AUTHORIZATION": "Bearer x"}),
    ("GET", "/api/v1/blocks", "a=" + "1" * MAX_URI_LENGTH, {}),
    ("GET", "/api/v1/blocks", "", {"HTTP_X_BIG": "1" * MAX_URI_LENGTH}),
    ("GET", "/api/v1/blocks", "", {"HTTP_HOST": "bad host"}),
    ("GET", "/health/liveness", "", {}),
]


def call(application, method: str, path: str, query: str, headers: dict) -> tuple[str, list, bytes]:
    environ = wsgi_environ(method, path, query, headers)
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer.update(status=status, headers=response_headers)

    body = application(environ, start_response)
    try:
        content = b"".join(body)
    finally:
        if hasattr(body, "close"):
            body.close()
    return answer["status"], answer["headers"], content


@pytest.mark.parametrize(("method", "path", "query", "headers"), REQUESTS)
def test_the_api_chain_answers_as_the_whole_middleware_does(method, path, query, headers):
    load_rows({"record_file": [BLOCK]}, source="test")
    served = call(MirrorWSGIHandler(), method, path, query, headers)

    assert served == call(WSGIHandler(), method, path, query, headers)
    if path == "/api/v1/blocks/7" and not query:
        assert b'"number":7' in served[2]


@pytest.mark.parametrize(
    ("setting", "value", "scheme", "expected"),
    [
        ("SECURE_HSTS_SECONDS", 60, "https", ("200 OK", ("Strict-Transport-Security", "max-age=60"))),
        ("SECURE_SSL_REDIRECT", True, "http", ("301 Moved Permanently", ("Location", "https://127.0.0.1:8000/api/v1/blocks/7"))),
    ],
)
def test_an_https_deployment_answers_as_the_whole_middleware_does(settings, setting, value, scheme, expected):
    load_rows({"record_file": [BLOCK]}, source="test")
    setattr(settings, setting, value)
    https = {"wsgi.url_scheme": scheme}

    served = call(MirrorWSGIHandler(), "GET", "/api/v1/blocks/7", "", https)

    assert served == call(WSGIHandler(), "GET", "/api/v1/blocks/7", "", https)
    status, header = expected
    assert served[0] == status and header in served[1]


def test_api_requests_skip_the_site_middleware(monkeypatch):
    called = []
    monkeypatch.setattr("whitenoise.middleware.WhiteNoiseMiddleware.__call__", lambda self, request: called.append(1))
    application = MirrorWSGIHandler()

    status, _, _ = call(application, "GET", "/api/v1/blocks", "", {})

    assert status.startswith("200") and not called


def test_site_pages_keep_the_whole_middleware():
    status, headers, _ = call(MirrorWSGIHandler(), "GET", "/admin/login/", "", {})

    assert status.startswith("200")
    assert ("X-Frame-Options", "DENY") in headers
    assert any(name == "Set-Cookie" and "csrftoken=" in value for name, value in headers)


def test_an_api_answer_carries_its_length_and_a_host_not_allowed_is_a_400(settings):
    load_rows({"record_file": [BLOCK]}, source="test")
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    application = MirrorWSGIHandler()

    status, headers, body = call(application, "GET", "/api/v1/blocks/7", "", {})
    refused = call(application, "GET", "/api/v1/blocks/7", "", {"HTTP_HOST": "elsewhere.example"})

    assert status == "200 OK" and dict(headers)["Content-Length"] == str(len(body))
    assert refused[0] == "400 Bad Request"
    assert dict(refused[1])["Access-Control-Allow-Origin"] == "*"
    assert refused[2] == b'{"_status":{"messages":[{"message":"Bad request"}]}}'


def test_the_test_client_takes_the_api_chain():
    assert Client().handler.__class__.__name__ == "MirrorClientHandler"


@pytest.mark.parametrize(
    "api_middleware",
    [
        ["apps.common.server.middleware.MirrorApiMiddleware", "django.middleware.security.SecurityMiddleware"],
        ["apps.common.server.middleware.NoSuchMiddleware"],
    ],
)
def test_api_middleware_must_follow_middleware(settings, api_middleware):
    settings.API_MIDDLEWARE = api_middleware

    with pytest.raises(ImproperlyConfigured, match="API_MIDDLEWARE must list middleware of MIDDLEWARE"):
        MirrorWSGIHandler()



def test_server_serves_a_kept_list_answer_whole_without_the_database(settings, django_assert_num_queries):
    load_rows({"record_file": [BLOCK]}, source="test")
    settings.MIRROR = {**settings.MIRROR, "LIST_CACHE_TTL": {"blocks": 60}}
    application = MirrorWSGIHandler()

    first = call(application, "GET", "/api/v1/blocks", "limit=1", {})
    with django_assert_num_queries(0):
        again = call(application, "GET", "/api/v1/blocks", "limit=1", {})

    assert first[0] == "200 OK"
    assert again == first
    assert dict(again[1])["Content-Length"] == str(len(again[2]))


def test_a_host_once_allowed_is_refused_once_the_settings_refuse_it(settings):
    load_rows({"record_file": [BLOCK]}, source="test")
    application = MirrorWSGIHandler()
    host = {"HTTP_HOST": "mirror.example"}

    settings.ALLOWED_HOSTS = ["mirror.example"]
    allowed = [call(application, "GET", "/api/v1/blocks/7", "", host)[0] for _ in range(2)]
    settings.ALLOWED_HOSTS = ["elsewhere.example"]
    refused = call(application, "GET", "/api/v1/blocks/7", "", host)

    assert allowed == ["200 OK", "200 OK"]
    assert refused[0] == "400 Bad Request"


class RecordingViewMiddleware:
    seen: list[str] = []

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        self.seen.append(request.path)


def test_an_api_chain_with_view_middleware_runs_it(settings):
    load_rows({"record_file": [BLOCK]}, source="test")
    recording = f"{__name__}.RecordingViewMiddleware"
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, recording]
    settings.API_MIDDLEWARE = [*settings.API_MIDDLEWARE, recording]

    status, _, content = call(MirrorWSGIHandler(), "GET", "/api/v1/blocks/7", "", {})

    assert status == "200 OK" and b'"number":7' in content
    assert RecordingViewMiddleware.seen == ["/api/v1/blocks/7"]
