"""A cache shared on Redis, left alone for a while once it fails.

The caches on Redis (the list routes', apps/common/server/list_cache.py; the status page's,
apps/status/caching.py) only spare reads: without Redis the service answers uncached. A Redis
that refuses costs a request little, but one that stops answering costs each call the client's
timeout (bounded in settings). So after a call fails, `OutageBackoff` tells its cache to make
none for `BACKOFF` seconds; the first call after tries Redis again, and once one succeeds the
cache is used as before. A process thus waits out at most one timeout per back-off.
"""

import logging
from time import monotonic

from redis.exceptions import RedisError

__all__ = ("BACKOFF", "OutageBackoff")

BACKOFF = 1.0

logger = logging.getLogger(__name__)


class OutageBackoff:
    def __init__(self, cache_name: str):
        self.cache_name = cache_name
        # Until when (`monotonic()`) the cache is left alone; 0.0 while it answers. A hot path
        # may read it (`failing`) to skip the calls below while the cache answers.
        self.failing = 0.0

    def allows_calls(self) -> bool:
        return not self.failing or monotonic() >= self.failing

    def failed(self, error: RedisError) -> None:
        if not self.failing:
            logger.warning("%s is unreachable, answers go uncached: %s", self.cache_name, error)
        self.failing = monotonic() + BACKOFF

    def answered(self) -> None:
        if self.failing:
            logger.warning("%s answers again", self.cache_name)
            self.failing = 0.0
