"""A local-memory cache bounded by the bytes it keeps, not by a number of entries.

Django's `LocMemCache` counts entries (`MAX_ENTRIES`), whatever their size: ten
thousand answers of a few hundred kilobytes each fill gigabytes. This one charges
each entry the bytes of its pickled value and key, plus a fixed allowance for its
bookkeeping (so that many tiny entries stay under the bound too), and drops the
least recently used entries (read or written) until a new one fits. A value larger
than an eighth of the bound is not kept, so that one entry never flushes most of
the others.

    CACHES = {"lists": {
        "BACKEND": "apps.common.server.bounded_cache.ByteBoundedCache",
        "LOCATION": "mirror-lists",
        "OPTIONS": {"MAX_BYTES": 64 * 2**20},
    }}

Like `LocMemCache`, every instance with the same LOCATION in a process shares one
store (Django makes one instance per thread), and expired entries are dropped when
read or when they are the least recently used. It is meant for values set whole
(`set`, `add`): `incr` rewrites a value in place without charging its new size.
"""

from dataclasses import dataclass, field

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

DEFAULT_MAX_BYTES = 64 * 2**20
# An entry's key object, its slots in the ordered store, the expiry and size maps.
ENTRY_OVERHEAD_BYTES = 512
LARGEST_ENTRY_FRACTION = 8


@dataclass
class _Usage:
    total: int = 0
    sizes: dict[str, int] = field(default_factory=dict)


_usages: dict[str, _Usage] = {}


class ByteBoundedCache(LocMemCache):
    def __init__(self, name, params):
        super().__init__(name, params)
        self.max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", DEFAULT_MAX_BYTES))
        self._usage = _usages.setdefault(name, _Usage())

    @property
    def size_in_bytes(self) -> int:
        """The bytes charged for the entries kept, expired ones not yet dropped included."""
        return self._usage.total

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT):
        # Called with the lock held and `value` pickled.
        self._delete(key)
        size = len(value) + len(key) + ENTRY_OVERHEAD_BYTES
        if size > self.max_bytes // LARGEST_ENTRY_FRACTION:
            return
        while self._usage.total + size > self.max_bytes:
            # The store is ordered most recently used first.
            self._delete(next(reversed(self._cache)))
        self._cache[key] = value
        self._cache.move_to_end(key, last=False)
        self._expire_info[key] = self.get_backend_timeout(timeout)
        self._usage.sizes[key] = size
        self._usage.total += size

    def _delete(self, key):
        if not super()._delete(key):
            return False
        self._usage.total -= self._usage.sizes.pop(key)
        return True

    def clear(self):
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._usage.sizes.clear()
            self._usage.total = 0
