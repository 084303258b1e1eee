"""The status app's settings and their defaults, read when used so tests can override them.

- `STATUS_API_PREFIX` ("api/v2/", trailing slash included): where the JSON routes live; read
  when the URLconf loads.
- `STATUS_FRESHNESS_DEGRADED_AFTER` (60) and `STATUS_FRESHNESS_OUTAGE_AFTER` (300): seconds
  without a new block after which a freshness-bound component turns `degraded_performance`,
  then `major_outage`.
- `STATUS_PAGE_NAME` and `STATUS_PAGE_URL`: the page `migrate` creates when there is none;
  `STATUS_SNAPSHOT_MAX_AGE`: seconds a process reuses its reading of the live checks before
  taking another (an edit of the page shows at once). `mirror/settings.py` sets these three
  from the environment.
"""

from datetime import timedelta

from django.conf import settings

__all__ = (
    "api_prefix",
    "freshness_degraded_after",
    "freshness_outage_after",
    "page_name",
    "page_url",
    "snapshot_max_age",
)


def api_prefix() -> str:
    return getattr(settings, "STATUS_API_PREFIX", "api/v2/")


def freshness_degraded_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "STATUS_FRESHNESS_DEGRADED_AFTER", 60))


def freshness_outage_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "STATUS_FRESHNESS_OUTAGE_AFTER", 300))


def page_name() -> str:
    return settings.STATUS_PAGE_NAME


def page_url() -> str:
    return settings.STATUS_PAGE_URL


def snapshot_max_age() -> timedelta:
    return timedelta(seconds=settings.STATUS_SNAPSHOT_MAX_AGE)
