"""Our OpenAPI document: served, complete, browsable, and in step with the upstream's."""

import os
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from apps.common.pages import api_routes

REFERENCE = Path(
    os.environ.get("MIRROR_REFERENCE_OPENAPI", Path(settings.BASE_DIR).parent / "shared" / "reference" / "openapi.yml")
)
_PATH_PARAMETER = re.compile(r"\{[^}]+\}")


def template(path: str) -> str:
    """`/api/v1/blocks/{hashOrNumber}` -> `/api/v1/blocks/{}`: routes match whatever their
    path parameters are called."""
    return _PATH_PARAMETER.sub("{}", path)


@pytest.fixture(scope="module")
def document(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/v1/docs/openapi.yml")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


@pytest.fixture(scope="module")
def reference():
    if not REFERENCE.is_file():
        pytest.skip(f"no reference OpenAPI document at {REFERENCE}")
    return yaml.safe_load(REFERENCE.read_text())


def resolve(document: dict, node: dict) -> dict:
    while "$ref" in node:
        *_, kind, name = node["$ref"].split("/")
        node = document["components"][kind][name]
    return node


def test_swagger_ui_is_served_from_our_static_files(client):
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/api/v1/docs/openapi.yml" in html
    scripts = re.findall(r'src="([^"]+)"', html)
    assert scripts and all(src.startswith("/static/drf_spectacular_sidecar/") for src in scripts)
    assert client.get(scripts[0]).status_code == 200


def test_the_landing_page_links_the_docs(client):
    html = client.get("/").content.decode()
    assert 'href="/api/v1/docs"' in html
    assert 'href="/api/v1/docs/openapi.yml"' in html


def test_the_document_is_openapi_3_1(document):
    assert document["openapi"] == "3.1.0"
    assert document["info"]["title"] == settings.SPECTACULAR_SETTINGS["TITLE"]


# Not operations of their own: the docs themselves, and the `?token.id=` short forms of the
# token routes, which answer exactly as the documented long form they abbreviate.
UNDOCUMENTED = {
    "/api/v1/docs",
    "/api/v1/docs/openapi.yml",
    "/api/v1/tokens/balances",
    "/api/v1/tokens/nfts",
    "/api/v1/tokens/nfts/{}",
    "/api/v1/tokens/nfts/{}/transactions",
}


def test_the_document_names_every_served_api_route(document):
    served = {template(route) for routes in api_routes().values() for route in routes}
    documented = {template(path) for path in document["paths"]}
    assert served - UNDOCUMENTED == documented


def test_every_operation_documents_its_error_envelope(document):
    for path, operations in document["paths"].items():
        for operation in operations.values():
            assert operation["responses"]["400"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }, path
            if "{" in path:
                assert "404" in operation["responses"], path


def test_a_list_route_documents_its_envelope_and_filter_parameters(document):
    blocks = document["paths"]["/api/v1/blocks"]["get"]
    assert {parameter["name"] for parameter in blocks["parameters"]} == {"block.number", "limit", "order", "timestamp"}
    body = blocks["responses"]["200"]["content"]["application/json"]["schema"]
    assert body["properties"]["blocks"] == {"type": "array", "items": {"$ref": "#/components/schemas/Block"}}
    assert body["properties"]["links"] == {"$ref": "#/components/schemas/Links"}


def test_our_paths_take_the_reference_parameters(document, reference):
    ours = {template(path): operations for path, operations in document["paths"].items()}
    compared = 0
    for path, operations in reference["paths"].items():
        if template(path) not in ours or "get" not in operations:
            continue
        ours_get = ours[template(path)].get("get")
        assert ours_get is not None, f"GET {path} is not documented"
        expected = {
            (parameter["name"], parameter["in"])
            for parameter in map(lambda p: resolve(reference, p), operations["get"].get("parameters", ()))
            if parameter["in"] == "query"
        }
        actual = {(parameter["name"], parameter["in"]) for parameter in ours_get.get("parameters", ()) if parameter["in"] == "query"}
        assert expected <= actual, path
        path_parameters = [p for p in ours_get.get("parameters", ()) if p["in"] == "path"]
        assert len(path_parameters) == path.count("{"), path
        compared += 1
    assert compared >= 30


def test_our_component_schemas_have_the_reference_properties_and_types(document, reference):
    theirs = reference["components"]["schemas"]
    shared = sorted(set(document["components"]["schemas"]) & set(theirs))
    assert {"AccountBalance", "Block", "Error", "Key", "Links", "Nft", "Schedule", "TimestampRange", "TopicMessage"} <= set(shared)
    for name in shared:
        assert shape(document, document["components"]["schemas"][name]) == shape(reference, theirs[name]), name


def shape(document: dict, schema: dict):
    """A schema's property names with their types and formats, recursively, `$ref`s resolved."""
    schema = resolve(document, schema)
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            merged.update(resolve(document, part))
        schema = merged
    if "oneOf" in schema:
        return tuple(shape(document, part) for part in schema["oneOf"])
    if "properties" in schema:
        return {name: shape(document, value) for name, value in schema["properties"].items()}
    if schema.get("type") == "array" or "items" in schema:
        return ("array", shape(document, schema.get("items", {})))
    kinds = schema.get("type")
    return (tuple(kinds) if isinstance(kinds, list) else kinds, schema.get("format"))
