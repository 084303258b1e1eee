import base64
import json
import time

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client, RequestFactory, override_settings

from apps.blocks.api.views import BlockViewSet
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common import list_cache
from apps.common.conformance import clear_caches

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000


class CachedBlockViewSet(BlockViewSet):
    """Blocks opted in to the list-route cache the way a list route opts in."""

    list_cache = True
    cache_control = {"list": "public, max-age=7", "retrieve": "public, max-age=600"}


class TenSecondBlockViewSet(BlockViewSet):
    list_cache = 10


def cached_blocks_caching_for(seconds: int):
    return override_settings(MIRROR={**settings.MIRROR, "LIST_CACHE_TTL": {"blocks": seconds}})


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, T + number * 1000) for number in range(1, 4)))


def add_block(number: int) -> None:
    create_record_files(record_file(number, T + number * 1000))


def numbers(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [block["number"] for block in json.loads(response.content)["blocks"]]


def list_blocks(viewset, url: str):
    response = viewset.as_view({"get": "list"})(RequestFactory().get(url))
    return response.render() if hasattr(response, "render") else response


def test_opted_in_route_serves_the_same_answer_until_its_time_to_live_ends(blocks, monkeypatch):
    first = list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=2")
    add_block(4)
    again = list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=2")

    assert numbers(first) == [3, 2]
    assert again.content == first.content
    assert again["Link"] == '</api/v1/blocks?limit=2&block.number=lt:2>; rel="next"'
    assert again["Cache-Control"] == "public, max-age=7"
    assert again["Content-Type"] == "application/json; charset=utf-8"

    later = time.time() + 8
    monkeypatch.setattr("django.core.cache.backends.locmem.time.time", lambda: later)
    assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=2")) == [4, 3]


def test_route_not_opted_in_is_read_fresh(blocks):
    list_blocks(BlockViewSet, "/api/v1/blocks")
    add_block(4)

    assert numbers(list_blocks(BlockViewSet, "/api/v1/blocks")) == [4, 3, 2, 1]


def test_each_normalized_request_has_its_own_answer(blocks):
    list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=2&order=asc")
    add_block(4)

    # Other values, another order of parameters (links.next repeats it) or another path: read afresh.
    assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=3&order=asc")) == [1, 2, 3]
    assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks?order=asc&limit=2")) == [1, 2]
    assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks/?limit=2&order=desc")) == [4, 3]
    # Names are read case-insensitively, so they share the answer.
    assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks?LIMIT=2&order=asc")) == [1, 2]


def test_errors_are_not_cached(blocks):
    response = list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=x")

    assert response.status_code == 400
    assert json.loads(response.content) == {"_status": {"messages": [{"message": "Invalid parameter: limit"}]}}
    assert list_blocks(CachedBlockViewSet, "/api/v1/blocks?limit=x").status_code == 400
    assert not caches[list_cache.CACHE_ALIAS]._cache


def test_settings_opt_a_route_in_by_its_results_key(client, blocks):
    with cached_blocks_caching_for(60):
        first = client.get("/api/v1/blocks")
        add_block(4)
        again = client.get("/api/v1/blocks")

    assert numbers(first) == [3, 2, 1]
    assert again.content == first.content
    assert again["Cache-Control"] == "public, max-age=1"
    assert again["Access-Control-Allow-Origin"] == "*"


def test_settings_turn_an_opted_in_route_off(blocks):
    with cached_blocks_caching_for(0):
        list_blocks(CachedBlockViewSet, "/api/v1/blocks")
        add_block(4)

        assert numbers(list_blocks(CachedBlockViewSet, "/api/v1/blocks")) == [4, 3, 2, 1]


def test_lookup_of_one_block_is_always_fresh(client, blocks):
    with cached_blocks_caching_for(60):
        client.get("/api/v1/blocks")
        add_block(4)

        assert client.get("/api/v1/blocks/4").json()["number"] == 4
        assert numbers(client.get("/api/v1/blocks")) == [3, 2, 1]


def test_callers_with_their_own_page_size_maximum_have_their_own_answers(client, blocks):
    users = [{"username": "alice", "password": "secret", "limit": 3}]
    alice = {"Authorization": "Basic " + base64.b64encode(b"alice:secret").decode()}

    with cached_blocks_caching_for(60), override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 2}):
        anonymous = client.get("/api/v1/blocks?limit=3")
        with_limit = client.get("/api/v1/blocks?limit=3", headers=alice)

    assert numbers(anonymous) == [3, 2]
    assert numbers(with_limit) == [3, 2, 1]


@pytest.mark.parametrize(
    ("opted_in", "cache_control", "configured", "seconds"),
    [
        (True, "public, max-age=10", None, 10),
        (True, "public, max-age=10", 3, 3),
        (True, "public, max-age=10", 0, 0),
        (5, "public, max-age=10", None, 5),
        (False, "public, max-age=10", None, 0),
        (False, "public, max-age=10", 4, 4),
        (True, "no-store", None, 0),
    ],
)
def test_time_to_live(opted_in, cache_control, configured, seconds):
    overrides = {} if configured is None else {"tokens": configured}
    with override_settings(MIRROR={**settings.MIRROR, "LIST_CACHE_TTL": overrides}):
        ttl = list_cache.time_to_live(results_key="tokens", opted_in=opted_in, cache_control=cache_control)

    assert ttl == seconds


def test_number_of_seconds_opts_in_for_that_long(blocks):
    list_blocks(TenSecondBlockViewSet, "/api/v1/blocks")
    add_block(4)

    assert numbers(list_blocks(TenSecondBlockViewSet, "/api/v1/blocks")) == [3, 2, 1]


def test_conformance_runner_clears_every_cache(blocks):
    list_blocks(CachedBlockViewSet, "/api/v1/blocks")
    caches["default"].set("tokens", 1)

    clear_caches()

    assert not caches[list_cache.CACHE_ALIAS]._cache
    assert caches["default"].get("tokens") is None
