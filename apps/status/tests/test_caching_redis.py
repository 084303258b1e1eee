"""The status page's cache (django-cachalot's) on a real Redis shared with production servers:
an edit made in another process shows in a server's next answer, and a Redis down leaves the
status routes answering, read uncached, until it is back."""

import time

import pytest

from apps.common import shared_cache
from apps.status.models import Component
from apps.status.tests.conftest import STATUS_ROUTES

pytestmark = pytest.mark.django_db(transaction=True)

COMPONENTS = "/api/v2/components.json"
# Far above a request's cost with Redis refusing, far below one waiting on it unbounded.
SLOWEST_ANSWER_WITHOUT_REDIS = 1.0


@pytest.fixture
def status_cache_on_redis(settings, redis_server):
    """This process's status cache on the servers' Redis, as every host of a deployment has it."""
    settings.CACHES = {
        **settings.CACHES,
        "status": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": "status",
            "OPTIONS": settings.REDIS_TIMEOUTS,
        },
    }


def database_description(server) -> str:
    answer = server.get(COMPONENTS)
    assert answer.status == 200, answer.body
    return {component["name"]: component["description"] for component in answer.json()["components"]}["Database"]


def describe_database(description: str) -> None:
    database = Component.objects.get(name="Database")
    database.description = description
    database.save()


def status_keys(redis_server) -> list[bytes]:
    with redis_server.client() as client:
        return client.keys("status:*")


def test_an_edit_in_another_process_shows_in_the_next_answer(
    start_production_server, redis_server, status_cache_on_redis
):
    """The server holds its snapshot for 30 s: only the stamp it reads on Redis tells it of the edit."""
    server = start_production_server(MIRROR_REDIS_URL=redis_server.url, MIRROR_STATUS_SNAPSHOT_MAX_AGE="30")
    assert server.get_when_served(COMPONENTS).status == 200
    before = [database_description(server) for _ in range(5)]

    describe_database("The mirror's PostgreSQL.")

    assert status_keys(redis_server)
    assert "The mirror's PostgreSQL." not in before
    assert database_description(server) == "The mirror's PostgreSQL."


def test_with_redis_down_the_status_routes_answer_and_edits_show_again_once_it_is_back(
    start_production_server, redis_server, status_cache_on_redis
):
    max_age = 2
    server = start_production_server(MIRROR_REDIS_URL=redis_server.url, MIRROR_STATUS_SNAPSHOT_MAX_AGE=str(max_age))
    assert server.get_when_served(COMPONENTS).status == 200

    redis_server.stop()
    answers, durations = [], []
    for route in STATUS_ROUTES * 3:
        started = time.monotonic()
        answers.append(server.get(route))
        durations.append(time.monotonic() - started)

    assert {answer.status for answer in answers} == {200}
    assert max(durations) < SLOWEST_ANSWER_WITHOUT_REDIS

    redis_server.start()
    describe_database("Back on Redis.")
    # The snapshot read while Redis was down is held for its age, then read again.
    deadline = time.monotonic() + max_age + 5
    while database_description(server) != "Back on Redis.":
        assert time.monotonic() < deadline, "the edit never showed once Redis was back"
        time.sleep(0.1)
    describe_database("The mirror's PostgreSQL.")

    assert database_description(server) == "The mirror's PostgreSQL."


def test_a_redis_that_stops_answering_costs_the_status_routes_one_timeout_per_back_off(
    start_production_server, redis_server, status_cache_on_redis, settings
):
    server = start_production_server(MIRROR_REDIS_URL=redis_server.url, MIRROR_STATUS_SNAPSHOT_MAX_AGE="5")
    assert server.get_when_served(COMPONENTS).status == 200
    socket_timeout = settings.REDIS_TIMEOUTS["SOCKET_TIMEOUT"]

    redis_server.freeze()
    answers, durations = [], []
    burst_started = time.monotonic()
    for route in STATUS_ROUTES * 3:
        started = time.monotonic()
        answers.append(server.get(route))
        durations.append(time.monotonic() - started)
    elapsed = time.monotonic() - burst_started
    redis_server.thaw()

    assert {answer.status for answer in answers} == {200}
    assert max(durations) < SLOWEST_ANSWER_WITHOUT_REDIS
    waits = [duration for duration in durations if duration >= socket_timeout]
    assert 1 <= len(waits) <= 1 + elapsed / shared_cache.BACKOFF
