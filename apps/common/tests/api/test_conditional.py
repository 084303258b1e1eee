import hashlib

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from apps.common.api.conditional import entity_tag, tag

BODY = b'{"nodes":[]}'
TAG = '"0' + hashlib.md5(BODY).hexdigest() + '"'


def request(method="GET", **headers):
    return RequestFactory().generic(method, "/api/v1/network/nodes", **headers)


def answer(status=200, **headers):
    response = HttpResponse(BODY, status=status, content_type="application/json")
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def test_the_tag_is_a_zero_then_the_bodys_md5():
    assert entity_tag(BODY) == TAG
    assert tag(request(), answer())["ETag"] == TAG


@pytest.mark.parametrize("if_none_match", [TAG, f"W/{TAG}", f'"x", {TAG}', "*"])
def test_a_request_holding_the_tag_is_answered_304_without_a_body(if_none_match):
    response = tag(request(HTTP_IF_NONE_MATCH=if_none_match), answer(Cache_Control="public, max-age=10"))

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == TAG
    assert response["Cache-Control"] == "public, max-age=10"


def test_another_tag_is_answered_in_full():
    response = tag(request(HTTP_IF_NONE_MATCH='"0abc"'), answer())

    assert (response.status_code, response.content) == (200, BODY)


@pytest.mark.parametrize(
    ("method", "status", "headers"),
    [("POST", 200, {}), ("GET", 400, {}), ("GET", 404, {}), ("GET", 200, {"Cache_Control": "no-store"})],
)
def test_only_a_get_or_head_answered_2xx_and_storable_is_tagged(method, status, headers):
    response = tag(request(method, HTTP_IF_NONE_MATCH=TAG), answer(status, **headers))

    assert not response.has_header("ETag")
    assert response.status_code == status


def test_a_2xx_other_than_200_is_tagged_but_never_304():
    response = tag(request(HTTP_IF_NONE_MATCH=TAG), answer(206))

    assert (response.status_code, response["ETag"]) == (206, TAG)


@pytest.mark.django_db
def test_a_java_served_route_answers_its_tag_and_then_304(client):
    first = client.get("/api/v1/accounts/0.0.1001/allowances/nfts")
    again = client.get("/api/v1/accounts/0.0.1001/allowances/nfts", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert first["ETag"] == entity_tag(first.content)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", first["ETag"])


@pytest.mark.django_db
def test_a_node_served_route_sends_no_tag(client):
    response = client.get("/api/v1/blocks", HTTP_IF_NONE_MATCH="*")

    assert response.status_code == 200
    assert not response.has_header("ETag")
