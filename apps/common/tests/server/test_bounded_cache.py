import pickle
import time

import pytest

from apps.common.server.bounded_cache import (
    ENTRY_OVERHEAD_BYTES,
    LARGEST_ENTRY_FRACTION,
    ByteBoundedCache,
)

MAX_BYTES = 100_000


@pytest.fixture
def cache(request):
    """A cache of its own (instances sharing a LOCATION share a store for the whole process)."""
    store = ByteBoundedCache(f"test-{request.node.nodeid}", {"OPTIONS": {"MAX_BYTES": MAX_BYTES}})
    store.clear()
    yield store
    store.clear()


def kept_bytes(cache: ByteBoundedCache) -> int:
    """What the kept entries really take: their pickled values and keys, and the allowance for each."""
    return sum(len(value) + len(key) + ENTRY_OVERHEAD_BYTES for key, value in cache._cache.items())


def body(size: int, seed: int = 0) -> bytes:
    return bytes([seed % 256]) * size


def test_unique_keys_of_large_values_stay_under_the_byte_bound(cache):
    for number in range(200):
        cache.set(f"answer-{number}", body(9_000, number), 60)
        assert cache.size_in_bytes == kept_bytes(cache) <= MAX_BYTES

    assert 9 <= len(cache._cache) <= MAX_BYTES // 9_000
    assert cache.get("answer-199") == body(9_000, 199)
    assert cache.get("answer-0") is None


def test_the_least_recently_used_go_first(cache):
    for number in range(10):
        cache.set(f"answer-{number}", body(9_000, number), 60)
    cache.get("answer-0")

    cache.set("answer-10", body(9_000, 10), 60)
    cache.set("answer-11", body(9_000, 11), 60)

    assert cache.get("answer-0") == body(9_000, 0)
    assert cache.get("answer-1") is None
    assert cache.get("answer-2") is None
    assert cache.get("answer-3") == body(9_000, 3)


def test_a_value_over_its_share_of_the_bound_is_not_kept_and_drops_nothing(cache):
    cache.set("small", body(100), 60)
    largest = MAX_BYTES // LARGEST_ENTRY_FRACTION

    cache.set("large", body(largest), 60)

    assert cache.get("large") is None
    assert cache.get("small") == body(100)
    assert cache.size_in_bytes == kept_bytes(cache)


def test_a_value_over_its_share_of_the_bound_forgets_the_one_it_replaces(cache):
    cache.set("answer", body(100), 60)

    cache.set("answer", body(MAX_BYTES), 60)

    assert cache.get("answer") is None
    assert cache.size_in_bytes == 0


def test_replacing_deleting_expiring_and_clearing_release_the_bytes(cache, monkeypatch):
    cache.set("answer", body(5_000), 60)
    cache.set("answer", body(1_000), 60)
    assert cache.size_in_bytes == kept_bytes(cache) == len(pickle.dumps(body(1_000), cache.pickle_protocol)) + len(
        cache.make_key("answer")
    ) + ENTRY_OVERHEAD_BYTES

    cache.delete("answer")
    assert cache.size_in_bytes == 0

    cache.set("brief", body(1_000), 1)
    later = time.time() + 2
    monkeypatch.setattr("django.core.cache.backends.locmem.time.time", lambda: later)
    assert cache.get("brief") is None
    assert cache.size_in_bytes == 0

    cache.set("answer", body(1_000), 60)
    cache.clear()
    assert cache.size_in_bytes == 0
    assert not cache._cache


def test_instances_of_one_location_share_the_store_and_its_bound(cache, request):
    other_thread = ByteBoundedCache(f"test-{request.node.nodeid}", {"OPTIONS": {"MAX_BYTES": MAX_BYTES}})

    for number in range(30):
        (cache if number % 2 else other_thread).set(f"answer-{number}", body(9_000, number), 60)

    assert cache.size_in_bytes == other_thread.size_in_bytes == kept_bytes(cache) <= MAX_BYTES
    assert other_thread.get("answer-29") == body(9_000, 29)
