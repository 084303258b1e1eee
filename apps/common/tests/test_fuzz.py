"""Schemathesis drives every operation of our OpenAPI document against the app, in process,
over the demo dataset: no answer is a server error, and each answer has a documented status
and matches its documented schema. Bounded and seeded, so a run is short and repeatable."""

from pathlib import Path

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.db import close_old_connections
from hypothesis import HealthCheck, given, seed, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"
EXAMPLES_PER_OPERATION = 40
SEED = 20261123
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@pytest.fixture
def app(db):
    """The WSGI app on the test's connection: a request must not close it mid-transaction,
    as Django's own test client ensures too."""
    call_command("loadfixtures", DEMO)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def test_every_operation_answers_as_documented(app):
    schema = schemathesis.openapi.from_wsgi("/api/v1/docs/openapi.yml", app)
    failures = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 50
    for operation in operations:
        failures += fuzz(operation)
    assert not failures, "\n".join(failures)


def fuzz(operation) -> list[str]:
    failures = []

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(case=operation.as_strategy())
    def run(case):
        case.call_and_validate(checks=CHECKS)

    try:
        run()
    except (Exception, FailureGroup) as error:  # each operation's failures are reported; the run goes on
        failures.append(f"{operation.label}: {str(error)[:2000]}")
    return failures
