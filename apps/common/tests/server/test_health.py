import pytest
from django.test import Client

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.clock import frozen_at
from apps.common.tests.api.test_exceptions import record_file_locked_elsewhere

SECOND = 10**9
NOW = 1_700_000_000 * SECOND


def test_liveness_reads_nothing(client):
    # Without the `db` fixture any query would raise.
    response = client.get("/health/liveness")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_readiness_without_age_limit_needs_only_the_database(client, db):
    response = client.get("/health/readiness")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("block_age", "status"), [(0, 200), (60, 200), (61, 503)])
def test_readiness_checks_the_newest_block_against_the_limit(client, settings, db, block_age, status):
    settings.READINESS_MAX_BLOCK_AGE = 60
    create_record_files(record_file(1, NOW - 500 * SECOND), record_file(2, NOW - block_age * SECOND))

    with frozen_at(NOW):
        response = client.get("/health/readiness")

    assert response.status_code == status
    if status == 503:
        assert response.json() == {"status": "error", "reason": "newest block is 61 s old (limit 60 s)"}


def test_readiness_with_age_limit_and_no_block_is_503(client, settings, db):
    settings.READINESS_MAX_BLOCK_AGE = 60

    response = client.get("/health/readiness")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "reason": "no block"}


@pytest.mark.django_db(transaction=True)
def test_readiness_without_database_is_503_and_liveness_stays_200(client):
    with record_file_locked_elsewhere():
        readiness = client.get("/health/readiness")
        liveness = client.get("/health/liveness")

    assert readiness.status_code == 503
    assert readiness.json() == {"status": "error", "reason": "database unavailable"}
    assert liveness.status_code == 200


def test_health_routes_are_not_api_routes(client, db):
    response = client.get("/health/liveness")

    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness"])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options", "trace"])
def test_a_probe_answers_other_methods_405_in_json(path, method):
    # CSRF checks on, as on the server: they used to answer Django's HTML 403 first.
    client = Client(enforce_csrf_checks=True)

    response = getattr(client, method)(path)

    assert response.status_code == 405
    assert response.json() == {"_status": {"messages": [{"message": "Method not allowed"}]}}
    assert response["Allow"] == "GET, HEAD"


def test_a_probe_answers_head(client):
    assert client.head("/health/liveness").status_code == 200
