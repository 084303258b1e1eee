import json
import logging
import time

import pytest
from django.core.exceptions import MiddlewareNotUsed
from django.db import connection
from prometheus_client import REGISTRY

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.database.watch import watch_of
from apps.common.observability import ObservabilityMiddleware, _OncePerSecond
from apps.common.tests.api.test_exceptions import record_file_locked_elsewhere


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_ENABLED = True


@pytest.fixture
def access_lines(settings):
    settings.ACCESS_LOG_ENABLED = True
    lines: list[dict] = []

    class Collect(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(record.getMessage()))

    handler = Collect()
    logger = logging.getLogger("apps.access")
    logger.addHandler(handler)
    yield lines
    logger.removeHandler(handler)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_middleware_leaves_the_chain_when_metrics_and_logs_are_off(settings):
    settings.METRICS_ENABLED = settings.ACCESS_LOG_ENABLED = False

    with pytest.raises(MiddlewareNotUsed):
        ObservabilityMiddleware(lambda request: None)


def test_metrics_route_is_404_when_off(client, settings):
    settings.METRICS_ENABLED = False

    assert client.get("/metrics").status_code == 404


def test_requests_are_counted_and_timed_per_route_template(client, db, metrics_on):
    create_record_files(record_file(1, 100), record_file(2, 200))
    route = "/api/v1/blocks/{hash_or_number}"
    before = sample("mirror_http_requests_total", method="GET", route=route, status="200")
    timed_before = sample("mirror_http_request_duration_seconds_count", method="GET", route=route)
    missing_before = sample("mirror_http_requests_total", method="GET", route=route, status="404")

    client.get("/api/v1/blocks/1")
    client.get("/api/v1/blocks/2")
    client.get("/api/v1/blocks/9")

    assert sample("mirror_http_requests_total", method="GET", route=route, status="200") == before + 2
    assert sample("mirror_http_requests_total", method="GET", route=route, status="404") == missing_before + 1
    assert sample("mirror_http_request_duration_seconds_count", method="GET", route=route) == timed_before + 3


def test_unrouted_requests_share_one_label(client, db, metrics_on):
    before = sample("mirror_http_requests_total", method="OPTIONS", route="unmatched", status="204")

    client.options("/api/v1/blocks/some/path/nobody/knows")

    assert sample("mirror_http_requests_total", method="OPTIONS", route="unmatched", status="204") == before + 1


def test_metrics_route_answers_prometheus_text(client, db, metrics_on):
    client.get("/health/liveness")

    response = client.get("/metrics")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    text = response.content.decode()
    assert 'mirror_http_requests_total{method="GET",route="/health/liveness",status="200"}' in text
    assert "mirror_database_query_duration_seconds_bucket" in text
    assert "mirror_database_errors_total" in text


@pytest.mark.django_db(transaction=True)
def test_database_statements_are_timed(client, metrics_on):
    connection.close()  # the timer is installed on the next connection
    before = sample("mirror_database_query_duration_seconds_count")

    client.get("/api/v1/blocks")

    assert sample("mirror_database_query_duration_seconds_count") > before
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_database_failures_are_counted(client, metrics_on):
    before = sample("mirror_database_errors_total")

    with record_file_locked_elsewhere():
        response = client.get("/api/v1/blocks")

    assert response.status_code == 503
    assert sample("mirror_database_errors_total") == before + 1


def test_access_log_is_one_json_line_per_request(client, db, access_lines):
    create_record_files(record_file(1, 100))

    found = client.get("/api/v1/blocks/1")
    client.get("/api/v1/blocks?limit=x")
    client.options("/api/v1/blocks")

    assert access_lines[0] == {
        "method": "GET",
        "route": "/api/v1/blocks/{hash_or_number}",
        "status": 200,
        "duration_ms": access_lines[0]["duration_ms"],
        "bytes": len(found.content),
    }
    assert access_lines[0]["duration_ms"] > 0
    assert [(line["route"], line["status"]) for line in access_lines[1:]] == [
        ("/api/v1/blocks", 400),
        ("unmatched", 204),
    ]
    assert access_lines[2]["bytes"] == 0


def test_access_log_writes_nothing_when_off(client, db, settings, access_lines):
    settings.ACCESS_LOG_ENABLED = False

    client.get("/health/liveness")

    assert access_lines == []


def test_metrics_of_every_worker_are_summed(start_production_server):
    server = start_production_server(MIRROR_METRICS="true", MIRROR_WORKERS="2")
    server.get_when_served("/health/liveness")
    for _ in range(19):
        assert server.get("/health/liveness").status == 200

    text = server.get("/metrics").body.decode()

    assert 'mirror_http_requests_total{method="GET",route="/health/liveness",status="200"} 20.0' in text


class _OncePerTenthOfASecond(_OncePerSecond):
    PERIOD_SECONDS = 0.1


def test_failures_are_logged_a_line_a_period_with_the_number_left_out(caplog):
    failures = _OncePerTenthOfASecond(logging.getLogger("apps.common"))

    with caplog.at_level(logging.WARNING, "apps.common"):
        for _ in range(50):
            failures.report("database failure", OSError("connection failed:\n\tthe server closed it"))
        time.sleep(0.15)
        failures.report("database failure", OSError("again"))

    assert caplog.messages == [
        "database failure: connection failed: the server closed it",
        "database failure: again (49 more since the previous line)",
    ]


@pytest.mark.django_db
def test_an_answer_a_database_failure_makes_503_is_not_logged_again_per_request(client, caplog):
    watch = watch_of(connection)
    watch.unresponsive = True
    try:
        with caplog.at_level(logging.WARNING):
            answers = [client.get("/api/v1/blocks/1") for _ in range(20)]
    finally:
        watch.unresponsive = False

    assert {answer.status_code for answer in answers} == {503}
    assert [record for record in caplog.records if record.name == "django.request"] == []
    assert len([message for message in caplog.messages if message.startswith("database failure")]) <= 1
