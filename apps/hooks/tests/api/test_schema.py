"""The hook routes in our OpenAPI document: named, typed and shaped as the upstream's document
has them, and answering as documented (schemathesis, in process, as `test_fuzz` drives every route)."""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client
from hypothesis import HealthCheck, given, seed, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.test import Client as WsgiClient

from apps.accounts.tests.factories import create_entity
from apps.common.tests.api.test_openapi import (
    REFERENCE,
    path_parameter_schema,
    query_parameters,
    resolve,
    shape,
)
from apps.hooks.tests.factories import T, create_change, create_hook, create_slot

HOOKS = "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks"
STORAGE = "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks/{hookId}/storage"
COMPONENTS = ("Hook", "HookStorage", "HooksResponse", "HooksStorageResponse")


@pytest.fixture(scope="module")
def document(django_db_blocker):
    import yaml

    with django_db_blocker.unblock():
        response = Client().get("/api/v1/docs/openapi.yml")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


@pytest.fixture(scope="module")
def reference():
    import yaml

    if not REFERENCE.is_file():
        pytest.skip(f"no reference OpenAPI document at {REFERENCE}")
    return yaml.safe_load(REFERENCE.read_text())


@pytest.mark.parametrize("path", [HOOKS, STORAGE])
def test_each_route_is_documented_with_its_envelope_and_errors(document, path):
    operation = document["paths"][path]["get"]
    names = {"Hooks": "HooksResponse", "Storage": "HooksStorageResponse"}
    expected = names["Storage" if path == STORAGE else "Hooks"]

    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": f"#/components/schemas/{expected}"
    }
    assert {"400", "404"} <= set(operation["responses"])


@pytest.mark.parametrize("name", COMPONENTS)
def test_the_components_have_the_reference_shapes(document, reference, name):
    component = {"$ref": f"#/components/schemas/{name}"}

    assert shape(document, component) == shape(reference, component)


@pytest.mark.parametrize("path", [HOOKS, STORAGE])
def test_the_parameters_are_the_references(document, reference, path):
    ours, theirs = document["paths"][path]["get"], reference["paths"][path]["get"]

    assert query_parameters(document, ours) == query_parameters(reference, theirs)
    assert {
        parameter["name"]: path_parameter_schema(document, parameter)
        for parameter in ours["parameters"] if parameter["in"] == "path"
    } == {
        resolve(reference, parameter)["name"]: path_parameter_schema(reference, resolve(reference, parameter))
        for parameter in theirs["parameters"] if resolve(reference, parameter)["in"] == "path"
    }


def test_the_order_defaults(document):
    def order(path):
        parameters = document["paths"][path]["get"]["parameters"]
        return next(p["schema"]["default"] for p in parameters if p["name"] == "order")

    assert (order(HOOKS), order(STORAGE)) == ("desc", "asc")


@pytest.fixture
def app(db, connection_kept_open):
    create_entity(1001, alias=b"\x01" * 32, evm_address=b"\xab" * 20)
    for hook_id in (1, 2):
        create_hook(1001, hook_id)
    create_hook(1001, 3, contract_id=None, created_timestamp=None, timestamp_range=None, admin_key=None)
    for number in (1, 2, 3):
        create_slot(1001, 1, number)
        create_change(1001, 1, number, T + number, written=None if number == 3 else b"\x01")
    return WSGIHandler()


DATA_URLS = (
    "/api/v1/accounts/0.0.1001/hooks",
    "/api/v1/accounts/0.0.1001/hooks?limit=1",
    "/api/v1/accounts/0.0.1001/hooks/1/storage",
    "/api/v1/accounts/0.0.1001/hooks/1/storage?timestamp=1726874345.123456790",
)


def test_answers_over_data_match_their_schemas(app):
    schema = schemathesis.openapi.from_wsgi("/api/v1/docs/openapi.yml", app)
    client = WsgiClient(app)
    for url in DATA_URLS:
        response = client.get(url)
        assert response.status_code == 200, (url, response.get_data(as_text=True)[:300])
        schema.find_operation_by_path("GET", url.partition("?")[0]).validate_response(response)


def test_every_generated_request_answers_as_documented(app):
    schema = schemathesis.openapi.from_wsgi("/api/v1/docs/openapi.yml", app)
    operations = [
        result.ok() for result in schema.get_all_operations() if result.ok().path in (HOOKS, STORAGE)
    ]
    assert len(operations) == 2
    for operation in operations:

        @seed(20261128)
        @settings(
            max_examples=60,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
        )
        @given(case=operation.as_strategy())
        def run(case):
            case.call_and_validate(checks=[not_a_server_error, status_code_conformance, response_schema_conformance])

        run()
