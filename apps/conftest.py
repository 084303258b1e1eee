import pytest
from django.core.cache import caches


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Each test starts with empty caches: a list answer cached by an earlier test must not answer it."""
    for cache in caches.all():
        cache.clear()
    yield
