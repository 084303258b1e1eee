"""django-cachalot on the status page's tables, and on nothing else.

cachalot invalidates a table's cached queries when Django writes to it. The mirror's tables
are written by the importer, outside Django, so cachalot would serve them stale; the status
page's tables are written only through the ORM (the admin, `services`, `seedstatus`, `migrate`),
so for them its invalidation is exact. Settings confine it to the `status` app's tables
(`CACHALOT_ONLY_CACHABLE_APPS`) on the API's connection (`CACHALOT_DATABASES`), and
`query_cache_key` further to the reads made inside `read_unedited`, the status routes' own.

Its cache is one every process shares (the `status` cache: files on the host, or Redis), so
an edit made in any process (an admin page, a management command) invalidates every other
process's reads. The status tables share one invalidation stamp: the page is read as a whole,
so an edit of any table invalidates all of it anyway, and whether anything changed is one
cache read (`edit_stamp`). Its key names the database, not the connection: the API reads the
status page on `default` while the admin writes it on its own connection, one database as two
roles (apps/common/database/roles.py), and two deployments sharing a Redis share no entry.

cachalot stamps a result with the time its query returned and serves it while no write to
its tables is stamped later; a write committed while a query ran, its stamp set before the
query returned, would leave the pre-edit result cached under a newer stamp. `read_unedited`
reads the stamp before and after its reads and, when it moved, stamps the tables again.
Hosts sharing a Redis must keep their clocks in step (NTP), as cachalot compares their stamps.

A Redis that refuses, drops or times out (its client's timeouts are bounded in settings) leaves
the page read from the database, uncached, with no stamp (None): the snapshot held is then
read again once its age has passed (apps/status/snapshots.py), as for a failed read. After a
failure Redis is left alone for a second (apps/common/shared_cache.py).
"""

import functools
import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

from cachalot.api import invalidate
from cachalot.cache import cachalot_caches
from cachalot.utils import UncachableQuery, get_query_cache_key
from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from redis.exceptions import RedisError

from apps.common.shared_cache import OutageBackoff

__all__ = ("edit_stamp", "query_cache_key", "read_unedited", "table_cache_key")

T = TypeVar("T")

_outage = OutageBackoff("the status page's cache")

_reading_status_page: ContextVar[bool] = ContextVar("reading_status_page", default=False)


def table_cache_key(db_alias: str, table: str) -> str:
    """`CACHALOT_TABLE_KEYGEN`: the status tables' one stamp, whichever connection wrote."""
    return _stamp_key(_database())


def query_cache_key(compiler) -> str:
    """`CACHALOT_QUERY_KEYGEN`: only `read_unedited`'s queries are cached; every other query,
    the mirror routes' included, is passed on before cachalot compiles or inspects it."""
    if not _reading_status_page.get():
        raise UncachableQuery
    return _digest(_database(), "query", get_query_cache_key(compiler))


def edit_stamp() -> float | None:
    """The status tables' last invalidation, one cache read (inside a transaction, its own
    pending invalidations first); None when the cache cannot be read. A stamp missing, never
    set or evicted, is set first: cachalot would set it at its next read, moving it with no edit."""
    if not _outage.allows_calls():
        return None
    key = _stamp_key(_database())
    cache = cachalot_caches.get_cache(db_alias=DEFAULT_DB_ALIAS)
    try:
        if (stamp := cache.get_many([key]).get(key)) is None:
            _invalidate()
            stamp = cache.get_many([key])[key]
    except RedisError as error:
        _outage.failed(error)
        return None
    _outage.answered()
    return stamp


def read_unedited(read: Callable[[], T]) -> tuple[T, float | None]:
    """`read`'s result through cachalot, and the stamp taken before it: the result is at least
    as new as that stamp, so a stamp that differs from it calls for another read. Without the
    cache, `read`'s result read uncached and None."""
    if (before := edit_stamp()) is None:
        return read(), None
    try:
        result = _read_cached(read)
    except RedisError as error:
        _outage.failed(error)
        return read(), None
    if (after := edit_stamp()) is None:
        return result, None
    if after != before:
        # An edit landed during the read: what the read cached may predate it.
        try:
            _invalidate()
        except RedisError as error:
            _outage.failed(error)
            return result, None
    return result, before


def _read_cached(read: Callable[[], T]) -> T:
    token = _reading_status_page.set(True)
    try:
        return read()
    finally:
        _reading_status_page.reset(token)


def _invalidate() -> None:
    tables = [model._meta.db_table for model in apps.get_app_config("status").get_models()]
    invalidate(*tables, cache_alias=settings.CACHALOT_CACHE, db_alias=DEFAULT_DB_ALIAS)


@functools.cache
def _stamp_key(database: str) -> str:
    return _digest(database, "status tables")


def _database() -> str:
    # Read at each call: the test runner renames the database after settings load.
    database = connections[DEFAULT_DB_ALIAS].settings_dict
    options = database.get("OPTIONS", {})
    host = database["HOST"] or options.get("host", "")
    port = database["PORT"] or options.get("port", "")
    return f"{host}:{port}/{database['NAME']}"


def _digest(*parts: str) -> str:
    return hashlib.sha1("\n".join(parts).encode(), usedforsecurity=False).hexdigest()
