"""Our OpenAPI document: served, complete, browsable, and in step with the upstream's."""

import json
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from django.conf import settings
from django.urls import resolve as resolve_url
from jsonschema import Draft202012Validator

from apps.common.api.views import AcyclicViewMixin
from apps.common.errors import MirrorApiError
from apps.common.server.pages import api_routes
from apps.devtools.conformance import case_files, cases_dir

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
    *assets, start_up = re.findall(r'src="([^"]+)"', page.content.decode())
    assert assets and all(src.startswith("/static/drf_spectacular_sidecar/") for src in assets)
    assert client.get(assets[0]).status_code == 200
    # Its start-up script, served apart from the page (which runs no inline script), reads our document.
    script = client.get(start_up)
    assert (script.status_code, script["Content-Type"]) == (200, "application/javascript")
    assert "/api/v1/docs/openapi.yml" in script.content.decode()


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
    assert body == {"$ref": "#/components/schemas/BlocksResponse"}
    envelope = resolve(document, body)["properties"]
    assert resolve(document, envelope["blocks"]) == {"type": "array", "items": {"$ref": "#/components/schemas/Block"}}
    assert envelope["links"] == {"$ref": "#/components/schemas/Links"}


def test_every_answer_of_every_operation_has_a_named_schema(document):
    components = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                content = response.get("content")
                if status.startswith("3") or "text/event-stream" in (content or {}):
                    # A redirect has no body; an event stream's events are the list items (its description).
                    continue
                schema = content["application/json"]["schema"]
                name = schema.get("$ref", "").removeprefix("#/components/schemas/")
                assert name in components, (method, path, status)
                body = components[name]
                assert body.get("properties") or body.get("allOf"), (method, path, status)


def shared_operations(document, reference):
    """(path, method, ours, theirs) of each operation both documents have."""
    for path, operations in reference["paths"].items():
        if path not in document["paths"]:
            continue
        for method, theirs in operations.items():
            if method in ("get", "post") and method in document["paths"][path]:
                yield path, method, document["paths"][path][method], theirs


def test_our_paths_and_their_parameters_are_named_as_the_reference(document, reference):
    ours = {template(path): path for path in document["paths"]}
    compared = 0
    for path, operations in reference["paths"].items():
        if template(path) not in ours or "get" not in operations:
            continue
        assert ours[template(path)] == path
        ours_get = document["paths"][path].get("get")
        assert ours_get is not None, f"GET {path} is not documented"
        expected = {
            (parameter["name"], parameter["in"])
            for parameter in map(lambda p: resolve(reference, p), operations["get"].get("parameters", ()))
            if parameter["in"] == "query"
        }
        actual = {(parameter["name"], parameter["in"]) for parameter in ours_get.get("parameters", ()) if parameter["in"] == "query"}
        assert expected <= actual, path
        compared += 1
    assert compared >= 30


def test_our_path_parameters_have_the_reference_schemas(document, reference):
    compared = 0
    for path, method, ours, theirs in shared_operations(document, reference):
        expected = {
            parameter["name"]: path_parameter_schema(reference, parameter)
            for parameter in map(lambda p: resolve(reference, p), theirs.get("parameters", ()))
            if parameter["in"] == "path"
        }
        actual = {
            parameter["name"]: path_parameter_schema(document, parameter)
            for parameter in ours.get("parameters", ())
            if parameter["in"] == "path"
        }
        assert actual == expected, (method, path)
        compared += len(actual)
    assert compared >= 30


def path_parameter_schema(document: dict, parameter: dict) -> dict:
    schema = resolve(document, parameter["schema"])
    return {key: schema.get(key) for key in ("type", "format", "pattern", "minimum")}


def test_our_answers_have_the_reference_schemas(document, reference):
    compared = 0
    for path, method, ours, theirs in shared_operations(document, reference):
        assert "200" in ours["responses"], (method, path)
        for status, response in theirs["responses"].items():
            # The upstream documents a 500 on some routes when its own data is missing; we never
            # answer a server error for that (the fuzz test holds us to it).
            if str(status) not in ours["responses"]:
                assert str(status) == "500", (method, path, status)
                continue
            theirs_schema = resolve(reference, response)["content"]["application/json"]["schema"]
            ours_schema = ours["responses"][str(status)]["content"]["application/json"]["schema"]
            assert shape(document, ours_schema) == shape(reference, theirs_schema), (method, path, status)
            compared += 1
    assert compared >= 100


def test_our_component_schemas_have_the_reference_properties_and_types(document, reference):
    theirs = reference["components"]["schemas"]
    shared = sorted(set(document["components"]["schemas"]) & set(theirs))
    assert {"AccountBalance", "Block", "Error", "Key", "Links", "Nft", "Schedule", "TimestampRange", "TopicMessage"} <= set(shared)
    assert len(shared) >= 100
    for name in shared:
        component = {"$ref": f"#/components/schemas/{name}"}
        assert shape(document, component) == shape(reference, component), name


# Where the upstream's answers differ from its own document, ours are described as answered
# (the fuzz test checks them): (component, property) -> why. The comparison leaves these out.
KNOWN_DIFFERENCES = {
    ("NetworkNode", "grpc_proxy_endpoint"): "null for a node without a gRPC proxy endpoint (ROUTES.md)",
    ("ContractResultDetails", "failed_initcode"): "null unless a contract creation failed (the conformance cases)",
    ("TokenRelationship", "kyc_status"): "null for some relationships (the conformance cases)",
}


def shape(document: dict, schema: dict):
    """A schema's property names with their types, formats and required properties, recursively,
    `$ref`s resolved and `allOf` parts merged."""
    name = schema.get("$ref", "").rpartition("/")[2]
    schema = resolve(document, schema)
    if "allOf" in schema:
        merged = {}
        for part in map(lambda part: resolve(document, part), schema["allOf"]):
            for key, value in part.items():
                if key in ("properties", "required"):
                    merged[key] = {**merged.get(key, {}), **(dict.fromkeys(value) if key == "required" else value)}
                else:
                    merged[key] = value
        schema = merged
    if "oneOf" in schema:
        return tuple(shape(document, part) for part in schema["oneOf"])
    if "properties" in schema:
        properties = schema["properties"].items()
        return {
            "properties": {
                key: shape(document, value) for key, value in properties if (name, key) not in KNOWN_DIFFERENCES
            },
            "required": sorted(set(schema.get("required", ()))),
        }
    if schema.get("type") == "array" or "items" in schema:
        return ("array", shape(document, schema.get("items", {})))
    kinds = schema.get("type")
    return (tuple(kinds) if isinstance(kinds, list) else kinds, schema.get("format"))


def test_the_upstream_answers_in_the_conformance_cases_match_our_schemas(document):
    """Each expected answer of the upstream-derived cases (the upstream's own bodies, which ours
    equal) validates against the schema our document gives its operation and status."""
    root = cases_dir()
    if not root.is_dir():
        pytest.skip(f"no conformance cases at {root}")
    operations = sorted(
        ((re.compile("^" + _PATH_PARAMETER.sub("[^/]+", path) + "$"), path) for path in document["paths"]),
        key=lambda operation: operation[1].count("{"),  # literal segments before the parameters they shadow
    )
    validated, failures = 0, []
    for case_file in case_files(root):
        for test in json.loads(case_file.read_text())["tests"]:
            path = urlsplit(test["url"]).path.rstrip("/")
            documented = next((path_ for pattern, path_ in operations if pattern.match(path)), None)
            # Our document describes the default settings, under which accounts show `delegation_address`.
            if documented is None or test["config"].get("response", {}).get("enableDelegationAddress") is False:
                continue
            response = document["paths"][documented]["get"]["responses"].get(str(test["status"]))
            assert response is not None, (case_file.name, test["name"], test["status"])
            body = response["content"]["application/json"]["schema"]
            validator = Draft202012Validator({**document, **body}, format_checker=Draft202012Validator.FORMAT_CHECKER)
            errors = [f"{error.json_path}: {error.message[:200]}" for error in validator.iter_errors(test["json"])]
            if errors:
                failures.append(f"{case_file.relative_to(root)} {test['name']}: {errors[:3]}")
            validated += 1
    assert not failures, "\n".join(failures)
    assert validated >= 1000


# Where a route of ours takes a query parameter in another shape than the upstream's document says,
# ours describes what the route accepts: (method, path, name) -> why.
QUERY_PARAMETER_DIFFERENCES = {
    ("get", "/api/v1/balances", "account.id"): "an operator before the account (gt:0.0.19), as the conformance cases send",
    ("get", "/api/v1/contracts/results", "from"): "a shard.realm-less account (9001) too, as the conformance cases send",
    ("get", "/api/v1/contracts/{contractIdOrAddress}/results", "from"): "a shard.realm-less account (9001) too",
    ("get", "/api/v1/topics/{topicId}/messages", "sequencenumber"): "an operator before it (gt:2), as ROUTES.md says",
    ("get", "/api/v1/network/nodes", "limit"): "pages of 10, at most 25, as the upstream answers (ROUTES.md)",
    ("get", "/api/v1/contracts", "contract.id"): "the upstream's alternation is unanchored; ours is anchored at both ends",
    ("get", "/api/v1/contracts/results", "block.number"): "hex digits only: the upstream's [a-fA-f0-9] lets ` [ ] ^ _ \\ through",
    ("get", "/api/v1/contracts/{contractIdOrAddress}/results", "block.number"): "hex digits only, as above",
    **{
        ("get", path, "timestamp"): "no ne operator: the route answers 400 for it, as the upstream's does"
        for path in (
            "/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards",
            "/api/v1/contracts/results/logs",
            "/api/v1/contracts/{contractIdOrAddress}/results/logs",
            "/api/v1/network/exchangerate",
            "/api/v1/network/fees",
            "/api/v1/network/supply",
        )
    },
}
# Query parameters one side reads and the other does not document: (method, path, name) -> why.
EXTRA_QUERY_PARAMETERS = {
    ("get", "/api/v1/contracts/{contractIdOrAddress}/results", "hbar"): "read there too, as on /contracts/results",
    ("get", "/api/v1/network/supply", "q"): "totalcoins|circulating: one figure as text (ROUTES.md)",
}


def query_parameters(document: dict, operation: dict) -> dict:
    return {
        parameter["name"]: query_parameter_schema(document, parameter["schema"])
        for parameter in map(lambda p: resolve(document, p), operation.get("parameters", ()))
        if parameter["in"] == "query"
    }


def query_parameter_schema(document: dict, schema: dict) -> dict:
    """What a client reads from a parameter's schema, `$ref`s resolved; an enum of strings is a
    string whether or not its type says so."""
    schema = resolve(document, schema)
    keys = ("format", "pattern", "enum", "default", "minimum", "maximum", "minLength", "maxLength")
    shape = {key: schema[key] for key in keys if key in schema}
    shape["type"] = schema.get("type") or ("string" if all(isinstance(value, str) for value in schema.get("enum", [0])) else None)
    if "items" in schema:
        shape["items"] = query_parameter_schema(document, schema["items"])
    return shape


def test_our_query_parameters_have_the_reference_names_and_schemas(document, reference):
    compared, mismatches = 0, []
    for path, method, ours, theirs in shared_operations(document, reference):
        ours_parameters, theirs_parameters = query_parameters(document, ours), query_parameters(reference, theirs)
        names = set(ours_parameters) ^ set(theirs_parameters)
        assert {(method, path, name) for name in names} <= set(EXTRA_QUERY_PARAMETERS), (method, path, names)
        for name in set(ours_parameters) & set(theirs_parameters):
            if (method, path, name) in QUERY_PARAMETER_DIFFERENCES:
                assert ours_parameters[name] != theirs_parameters[name], ("no longer different", method, path, name)
            elif ours_parameters[name] != theirs_parameters[name]:
                mismatches.append((method, path, name, ours_parameters[name], theirs_parameters[name]))
            compared += 1
    assert not mismatches, "\n".join(map(str, mismatches))
    assert compared >= 150


def test_the_listed_query_parameter_differences_are_all_in_the_document(document):
    for method, path, name in {**QUERY_PARAMETER_DIFFERENCES, **EXTRA_QUERY_PARAMETERS}:
        assert name in {parameter["name"] for parameter in document["paths"][path][method]["parameters"]}


def test_the_order_parameter_defaults_to_the_route_order(document):
    order = {
        path: next(p["schema"]["default"] for p in operations["get"].get("parameters", ()) if p["name"] == "order")
        for path, operations in document["paths"].items()
        if any(p["name"] == "order" for p in operations.get("get", {}).get("parameters", ()))
    }
    assert order["/api/v1/transactions"] == "desc"
    assert order["/api/v1/accounts"] == "asc"
    assert order["/api/v1/network/nodes"] == "asc"


def parameter_schema(document: dict, path: str, name: str) -> dict:
    return next(p["schema"] for p in document["paths"][path]["get"]["parameters"] if p["name"] == name)


def test_routes_the_reference_lacks_type_their_query_parameters(document):
    resume = parameter_schema(document, "/api/v1/blocks/stream", "timestamp")
    assert resume == {"type": "string", "pattern": r"^gt:\d{1,10}(\.\d{1,9})?$"}
    stream = "/api/v1/accounts/{idOrAliasOrEvmAddress}/transactions/stream"
    assert parameter_schema(document, stream, "result") == {"type": "string", "enum": ["success", "fail"]}
    assert parameter_schema(document, stream, "transactiontype") == {"$ref": "#/components/schemas/TransactionTypes"}


def test_the_supply_documents_its_text_answer_and_q(document):
    supply = document["paths"]["/api/v1/network/supply"]["get"]
    assert set(supply["responses"]["200"]["content"]) == {"application/json", "text/plain"}
    assert parameter_schema(document, "/api/v1/network/supply", "q") == {
        "type": "string",
        "enum": ["circulating", "totalcoins"],
    }


@pytest.mark.parametrize("path", ["/api/v1/docs", "/api/v1/docs/openapi.yml"])
def test_the_docs_answer_another_method_with_the_envelope(client, path):
    response = client.post(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.json() == {"_status": {"messages": [{"message": "Not found"}]}}


# --- The document's text: written for users, declared per route, never a docstring ---------------

# A value of each path parameter that the routes read as valid, so that a request reaches the query.
SAMPLE_PATH_VALUES = {
    "contractIdOrAddress": "0.0.1010",
    "hashOrNumber": "1",
    "hookId": "1",
    "idOrAliasOrEvmAddress": "0.0.1001",
    "scheduleId": "0.0.1011",
    "sequenceNumber": "1",
    "serialNumber": "1",
    "timestamp": "1700000000.000000001",
    "tokenId": "0.0.1007",
    "topicId": "0.0.1009",
    "transactionId": "0.0.1001-1700000000-000000001",
    "transactionIdOrHash": "0.0.1001-1700000000-000000001",
}


def sample_url(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda variable: SAMPLE_PATH_VALUES[variable[1]], path)


def operations(document: dict):
    """(path, method, operation) of every operation of the document."""
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def serving_view(path: str, method: str) -> tuple[type, str]:
    """The view class answering an operation, and its action (a viewset's) or handler name."""
    view = resolve_url(sample_url(path)).func
    return view.cls, getattr(view, "actions", {}).get(method, method)


def route_filterset(view_class: type, action: str):
    """The FilterSet the view reads the action's query with."""
    if declared := getattr(view_class, "query_filtersets", {}).get(action):
        return declared
    detail = action in getattr(view_class, "detail_actions", ("retrieve",))
    return getattr(view_class, "detail_filterset_class" if detail else "filterset_class")


def words(text: str) -> str:
    return " ".join(text.split())


def test_every_operation_has_a_summary_and_a_description(document):
    undescribed = [
        (method, path)
        for path, method, operation in operations(document)
        if not operation.get("summary", "").strip() or not operation.get("description", "").strip()
    ]
    assert not undescribed


def test_each_action_has_a_summary_of_its_own(document):
    """A viewset's declaration for its list is not taken for another of its actions."""
    actions_by_summary = {}
    for path, method, operation in operations(document):
        actions_by_summary.setdefault(operation["summary"], set()).add(serving_view(path, method))
    assert {summary: actions for summary, actions in actions_by_summary.items() if len(actions) > 1} == {}


def test_every_parameter_is_described(document):
    undescribed = [
        (method, path, parameter["name"])
        for path, method, operation in operations(document)
        for parameter in map(lambda p: resolve(document, p), operation.get("parameters", ()))
        if not parameter.get("description", "").strip()
    ]
    assert not undescribed


def test_a_comparison_parameter_names_its_operators(document):
    transactions = document["paths"]["/api/v1/transactions"]["get"]
    parameters = {parameter["name"]: parameter for parameter in transactions["parameters"]}
    assert "`gt:`, `gte:`, `lt:` or `lte:`" in parameters["timestamp"]["description"]
    assert "`ne:`" in parameters["account.id"]["description"]
    rewards = document["paths"]["/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards"]["get"]
    timestamp = next(parameter for parameter in rewards["parameters"] if parameter["name"] == "timestamp")
    assert "`ne:`" not in timestamp["description"]


def docstrings_of(view_class: type, action: str) -> set[str]:
    """The docstrings of the view's classes (its own and every base: DRF's, Django's, ours) and
    of the method answering the action."""
    classes = [cls.__doc__ for cls in view_class.__mro__]
    return {words(doc) for doc in [*classes, getattr(getattr(view_class, action, None), "__doc__", None)] if doc}


def test_no_text_of_the_document_is_a_docstring(document):
    docstrings = set()
    for path, method, _ in operations(document):
        docstrings |= docstrings_of(*serving_view(path, method))
    # The base of every API view, whose docstring once described 27 operations.
    assert words(AcyclicViewMixin.__doc__) in docstrings
    leaked = []
    for path, method, operation in operations(document):
        texts = [operation.get("description", ""), *(p.get("description", "") for p in operation.get("parameters", ()))]
        leaked += [(method, path, doc[:60]) for doc in docstrings for text in texts if doc in words(text)]
    assert not leaked


def test_a_view_docstring_never_becomes_a_description():
    from django.urls import path
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.views import APIView

    class DocumentedView(AcyclicViewMixin, APIView):
        """Notes for the developers of this view."""

        def get(self, request):
            """How the handler works."""

    generated = SchemaGenerator(patterns=[path("api/v1/documented", DocumentedView.as_view())]).get_schema()

    assert "description" not in generated["paths"]["/api/v1/documented"]["get"]


def test_the_status_routes_share_one_tag(document):
    tags = {path: operation["tags"] for path, _, operation in operations(document) if path.startswith("/api/v2/")}
    assert len(tags) == 8
    assert set(map(tuple, tags.values())) == {("status",)}


@pytest.mark.django_db
def test_transaction_types_are_the_ones_the_api_accepts(client, document):
    types = document["components"]["schemas"]["TransactionTypes"]["enum"]
    refused = [name for name in types if client.get(f"/api/v1/transactions?transactiontype={name}").status_code != 200]
    assert not refused
    assert "UNKNOWN" not in types
    assert client.get("/api/v1/transactions?transactiontype=UNKNOWN").status_code == 400
    # An answer still names a type this service does not know as UNKNOWN.
    assert "UNKNOWN" in document["components"]["schemas"]["TransactionTypeName"]["enum"]


def refuses_limit(response) -> bool:
    messages = response.json()["_status"]["messages"] if response.status_code == 400 else ()
    return any("limit" in f"{message['message']} {message.get('detail', '')}" for message in messages)


def read_limit(filterset_class, query: str) -> int | None:
    """The page size the FilterSet reads from `query`; None when it refuses the query."""
    filterset = filterset_class(filterset_class.read_query(query))
    try:
        filterset.validate()
        return filterset.limit_value
    except MirrorApiError:
        return None


@pytest.mark.django_db
def test_the_documented_limit_is_what_each_route_accepts(client, document):
    checked = 0
    for path, method, operation in operations(document):
        limit = next((p["schema"] for p in operation.get("parameters", ()) if p["name"] == "limit"), None)
        if limit is None:
            continue
        default, maximum = limit["default"], limit["maximum"]
        filterset_class = route_filterset(*serving_view(path, method))
        assert (read_limit(filterset_class, ""), read_limit(filterset_class, f"limit={maximum}")) == (
            default,
            maximum,
        ), path
        assert not refuses_limit(client.get(f"{sample_url(path)}?limit={maximum}")), path
        if refuses_limit(client.get(f"{sample_url(path)}?limit={maximum + 1}")):
            assert "a larger one answers 400" in operation["description"], path
        else:
            assert read_limit(filterset_class, f"limit={maximum + 1}") == maximum, path
            assert f"a larger one is read as {maximum}" in operation["description"], path
        checked += 1
    assert checked >= 30
