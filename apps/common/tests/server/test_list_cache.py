import base64
import json
import logging
import random
import string
import time
from urllib.parse import parse_qsl

import pytest
from django.conf import settings
from django.core.cache import caches
from django.http import QueryDict
from django.test import Client, RequestFactory, override_settings
from django.urls import resolve

from apps.blocks.api.views import BlockViewSet
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.api import cache_policy
from apps.common.query.params import PARAMETER_LIMIT
from apps.common.server import list_cache
from apps.common.server.middleware import MAX_HEADERS_SIZE
from apps.devtools.conformance import clear_caches

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000


class CachedBlockViewSet(BlockViewSet):
    """Blocks opted in to the list-route cache the way a list route opts in."""

    list_cache = True
    cache_control = {"list": "public, max-age=7", "retrieve": "public, max-age=600"}


class TenSecondBlockViewSet(BlockViewSet):
    list_cache = 10


def blocks_kept_for(seconds: int):
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


def keep_for(viewset, url: str):
    request = RequestFactory().get(url)
    request.resolver_match = resolve(request.path)
    return getattr(viewset.as_view({"get": "list"})(request), "keep_for", None)


def test_opted_in_view_asks_for_its_answer_to_be_kept_for_its_max_age(blocks):
    kept_for = keep_for(CachedBlockViewSet, "/api/v1/blocks?limit=2")

    assert kept_for == cache_policy.KeepFor(7, resolve("/api/v1/blocks").route)


def test_a_number_of_seconds_opts_in_for_that_long(blocks):
    assert keep_for(TenSecondBlockViewSet, "/api/v1/blocks").seconds == 10


def test_route_not_opted_in_keeps_nothing(blocks, client):
    assert keep_for(BlockViewSet, "/api/v1/blocks") is None

    client.get("/api/v1/blocks")
    add_block(4)

    assert numbers(client.get("/api/v1/blocks")) == [4, 3, 2, 1]


def test_kept_answer_is_served_whole_until_its_time_to_live_ends(client, blocks, monkeypatch):
    with blocks_kept_for(60):
        first = client.get("/api/v1/blocks?limit=2")
        add_block(4)
        again = client.get("/api/v1/blocks?limit=2")

        assert numbers(first) == [3, 2]
        assert again.content == first.content
        assert again.status_code == 200
        assert dict(again.items()) == dict(first.items())
        assert again["Link"] == '</api/v1/blocks?limit=2&block.number=lt:2>; rel="next"'
        assert again["Access-Control-Allow-Origin"] == "*"

        later = time.time() + 61
        monkeypatch.setattr("django.core.cache.backends.locmem.time.time", lambda: later)
        assert numbers(client.get("/api/v1/blocks?limit=2")) == [4, 3]


def test_each_request_read_another_way_has_its_own_answer(client, blocks):
    with blocks_kept_for(60):
        first = client.get("/api/v1/blocks?limit=2&order=asc")
        add_block(4)

        # Other values, parameters in another order or named in another case, another path:
        # read afresh.
        assert numbers(client.get("/api/v1/blocks?limit=3&order=asc")) == [1, 2, 3]
        reordered = client.get("/api/v1/blocks?order=asc&limit=2")
        assert numbers(reordered) == [1, 2]
        assert numbers(client.get("/api/v1/blocks?LIMIT=2&order=asc")) == [1, 2]
        assert numbers(client.get("/api/v1/blocks/?limit=2&order=desc")) == [4, 3]
        assert numbers(client.get("/api/v1/blocks?limit=2&order=asc")) == [1, 2]

    # Why the order of the parameters is part of the key: the next page repeats it.
    assert first.json()["links"]["next"] == "/api/v1/blocks?limit=2&order=asc&block.number=gt:2"
    assert reordered.json()["links"]["next"] == "/api/v1/blocks?order=asc&limit=2&block.number=gt:2"


@pytest.mark.parametrize(
    "spelling",
    [
        "limit=%32&order=%61sc",
        "limit=2&&order=asc&",
        "%6Cimit=2&order=asc",
    ],
)
def test_spellings_that_decode_alike_share_one_entry_and_one_read(client, blocks, spelling, django_assert_num_queries):
    with blocks_kept_for(60):
        first = client.get("/api/v1/blocks?limit=2&order=asc")
        add_block(0)
        with django_assert_num_queries(0):
            again = client.get(f"/api/v1/blocks?{spelling}")

    assert numbers(first) == [1, 2]
    assert again.content == first.content
    assert again["Link"] == first["Link"] == '</api/v1/blocks?limit=2&order=asc&block.number=gt:2>; rel="next"'
    assert len(caches[list_cache.CACHE_ALIAS]._cache) == 1


QUERY_ALPHABET = string.printable + "%%%%++&&&===" + "0123456789abcdefABCDEF" * 2


def random_query(rng: random.Random) -> str:
    return "".join(rng.choice(QUERY_ALPHABET) for _ in range(rng.randrange(40)))


def respelled(pairs: list[tuple[str, str]], rng: random.Random) -> str:
    """`pairs` written one of the many ways that decode to them."""

    def spell(text: str, reserved: str) -> str:
        out = []
        for char in text:
            if char == " ":
                out.append(rng.choice(["+", "%20"]))
            elif (
                char in reserved
                or char in "%+&"
                or not char.isascii()
                or not char.isalnum() and rng.random() < 0.5
                or rng.random() < 0.2
            ):
                out.append("".join(rng.choice([f"%{byte:02X}", f"%{byte:02x}"]) for byte in char.encode()))
            else:
                out.append(char)
        return "".join(out)

    fields = [f"{spell(name, '=')}={spell(value, '')}" for name, value in pairs]
    for _ in range(rng.randrange(3)):
        fields.insert(rng.randrange(len(fields) + 1), "")
    return "&".join(fields)


def test_a_query_keyed_as_its_pairs_reads_as_the_query_itself():
    """Two queries share a key only if every route reads them alike: the key's query decodes
    to the pairs the query decodes to, as routes (`parse_qsl`) and Django (`QueryDict`) read them."""
    rng = random.Random(29)
    for _ in range(5_000):
        query = random_query(rng)
        canonical = list_cache._canonical_query(query)

        assert parse_qsl(canonical, keep_blank_values=True) == parse_qsl(query, keep_blank_values=True)
        assert list(QueryDict(canonical).lists()) == list(QueryDict(query).lists())
        assert list_cache._canonical_query(canonical) == canonical


def test_spellings_of_the_same_pairs_share_a_key():
    rng = random.Random(5)
    for _ in range(2_000):
        pairs = parse_qsl(random_query(rng), keep_blank_values=True)

        assert list_cache._canonical_query(respelled(pairs, rng)) == list_cache._canonical_query(
            respelled(pairs, rng)
        ), pairs


def test_a_query_routes_could_read_apart_from_its_spellings_is_keyed_as_written():
    undecoded = "name=\xc3\xa9"  # bytes the server handed as they came: Django reads them as UTF-8
    many_fields = "limit=2" + "&" * PARAMETER_LIMIT

    assert list_cache._canonical_query(undecoded) == undecoded
    assert list_cache._canonical_query("name=%C3%83%C2%A9") != undecoded
    assert list_cache._canonical_query(many_fields) == many_fields


def test_a_spelling_with_too_many_fields_is_refused_even_for_a_kept_answer(client, blocks):
    with blocks_kept_for(60):
        kept = client.get("/api/v1/blocks?limit=2")
        padded = client.get("/api/v1/blocks?limit=2" + "&" * PARAMETER_LIMIT)

    assert numbers(kept) == [3, 2]
    assert padded.status_code == 400


def test_unique_queries_of_large_answers_keep_the_process_cache_under_its_byte_bound(client, settings):
    bound = 256 * 1024
    settings.CACHES = {**settings.CACHES, "lists": {**settings.CACHES["lists"], "OPTIONS": {"MAX_BYTES": bound}}}
    create_record_files(*(record_file(number, T + number * 1000) for number in range(1, 31)))
    store = caches[list_cache.CACHE_ALIAS]

    with blocks_kept_for(60):
        for upper in range(100, 160):
            answer = client.get(f"/api/v1/blocks?limit=25&block.number=lt:{upper}")
            assert len(numbers(answer)) == 25
            assert len(answer.content) > 10_000
            assert sum(len(key) + len(value) for key, value in store._cache.items()) <= bound

        add_block(31)
        latest = client.get("/api/v1/blocks?limit=25&block.number=lt:159")

    assert latest.content == answer.content


def test_an_answer_another_process_kept_is_served_on_the_first_request(client, blocks):
    """A process serves what the cache holds for a list route, not only what it kept itself."""
    with blocks_kept_for(60):
        kept = client.get("/api/v1/blocks")
        add_block(4)
        list_cache._remembered_decision.cache_clear()  # as a process that has looked nothing up

        assert client.get("/api/v1/blocks").content == kept.content


@pytest.mark.parametrize(
    ("path", "looked_up"),
    [
        ("/api/v1/blocks", True),
        ("/api/v1/blocks/", True),
        ("/api/v1/blocks/4", False),
        ("/api/v1/transactions", False),
        ("/api/v2/summary.json", False),
        ("/api/v1/unknown", False),
    ],
)
def test_only_the_paths_of_lists_that_keep_answers_are_looked_up(path, looked_up):
    with blocks_kept_for(60):
        assert list_cache._keeps_answers(path) is looked_up


@pytest.mark.parametrize("path", ["/api/v1/blocks/4", "/api/v1/transactions/0.0.8-1700000000-000000000"])
def test_a_path_ending_as_no_keeping_list_does_is_refused_without_being_routed(path, monkeypatch):
    monkeypatch.setattr(list_cache, "_remembered_decision", lambda path: pytest.fail(f"{path} was routed"))

    assert list_cache._keeps_answers(path) is False


def test_a_route_turned_off_by_settings_is_no_longer_looked_up():
    assert list_cache._keeps_answers("/api/v1/accounts")
    with override_settings(MIRROR={**settings.MIRROR, "LIST_CACHE_TTL": {"accounts": 0}}):
        assert not list_cache._keeps_answers("/api/v1/accounts")


def test_errors_are_not_kept(client, blocks):
    with blocks_kept_for(60):
        response = client.get("/api/v1/blocks?limit=x")
        assert client.get("/api/v1/blocks?limit=x").status_code == 400

    assert response.status_code == 400
    assert json.loads(response.content) == {"_status": {"messages": [{"message": "Invalid parameter: limit"}]}}
    assert not caches[list_cache.CACHE_ALIAS]._cache


def test_headers_too_large_are_refused_even_for_a_kept_answer(client, blocks):
    with blocks_kept_for(60):
        client.get("/api/v1/blocks")
        response = client.get("/api/v1/blocks", headers={"X-Padding": "x" * MAX_HEADERS_SIZE})

    assert response.status_code == 431


def test_a_plain_http_request_is_still_redirected_after_a_secure_answer_was_kept(client, blocks, settings):
    settings.SECURE_SSL_REDIRECT = True
    with blocks_kept_for(60):
        secure = client.get("/api/v1/blocks", secure=True)
        plain = client.get("/api/v1/blocks")

    assert secure.status_code == 200
    assert plain.status_code == 301


def test_settings_turn_an_opted_in_route_off(blocks):
    with blocks_kept_for(0):
        assert keep_for(CachedBlockViewSet, "/api/v1/blocks") is None


def test_lookup_of_one_block_is_always_fresh(client, blocks):
    with blocks_kept_for(60):
        client.get("/api/v1/blocks")
        add_block(4)

        assert client.get("/api/v1/blocks/4").json()["number"] == 4
        assert numbers(client.get("/api/v1/blocks")) == [3, 2, 1]


def test_callers_with_their_own_page_size_maximum_have_their_own_answers(client, blocks):
    users = [{"username": "alice", "password": "secret", "limit": 3}]
    alice = {"Authorization": "Basic " + base64.b64encode(b"alice:secret").decode()}
    mallory = {"Authorization": "Basic " + base64.b64encode(b"mallory:guess").decode()}

    with blocks_kept_for(60), override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 2}):
        anonymous = client.get("/api/v1/blocks?limit=3")
        with_limit = client.get("/api/v1/blocks?limit=3", headers=alice)
        unknown = client.get("/api/v1/blocks?limit=3", headers=mallory)

    assert numbers(anonymous) == [3, 2]
    assert numbers(with_limit) == [3, 2, 1]
    assert unknown.status_code == 401


def test_kept_answers_are_counted_under_their_route(client, blocks, settings):
    settings.ACCESS_LOG_ENABLED = True
    lines: list[dict] = []

    class Collect(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(record.getMessage()))

    logger = logging.getLogger("apps.access")
    logger.addHandler(collect := Collect())
    try:
        with blocks_kept_for(60):
            client.get("/api/v1/blocks")
            kept = client.get("/api/v1/blocks")
    finally:
        logger.removeHandler(collect)

    assert [(line["route"], line["status"], line["bytes"]) for line in lines] == [
        ("/api/v1/blocks", 200, len(kept.content)),
        ("/api/v1/blocks", 200, len(kept.content)),
    ]


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
        ttl = cache_policy.time_to_live(results_key="tokens", opted_in=opted_in, cache_control=cache_control)

    assert ttl == seconds


def test_conformance_runner_clears_every_cache(client, blocks):
    with blocks_kept_for(60):
        client.get("/api/v1/blocks")
    caches["default"].set("tokens", 1)

    clear_caches()

    assert not caches[list_cache.CACHE_ALIAS]._cache
    assert caches["default"].get("tokens") is None
