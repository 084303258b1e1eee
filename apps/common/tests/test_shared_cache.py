import time

from redis.exceptions import ConnectionError as RedisConnectionError

from apps.common import shared_cache
from apps.common.shared_cache import OutageBackoff


def test_a_failed_call_leaves_the_cache_alone_for_the_back_off(monkeypatch):
    monkeypatch.setattr(shared_cache, "BACKOFF", 0.2)
    outage = OutageBackoff("a cache")
    assert outage.allows_calls()

    outage.failed(RedisConnectionError("refused"))
    left_alone = not outage.allows_calls()
    time.sleep(0.25)

    assert left_alone
    assert outage.allows_calls()


def test_an_outage_is_logged_when_it_starts_and_when_it_ends(caplog):
    outage = OutageBackoff("a cache")

    for _ in range(3):
        outage.failed(RedisConnectionError("refused"))
    outage.answered()
    outage.answered()

    assert [record.getMessage() for record in caplog.records] == [
        "a cache is unreachable, answers go uncached: refused",
        "a cache answers again",
    ]
