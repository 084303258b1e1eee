"""The status app's settings and their defaults, read when used so tests can override them.

- `STATUS_API_PREFIX` ("api/v2/", trailing slash included): where the JSON routes live; read
  when the URLconf loads.
- `STATUS_FRESHNESS_DEGRADED_AFTER` (60) and `STATUS_FRESHNESS_OUTAGE_AFTER` (300): seconds
  without a new block after which a freshness-bound component turns `degraded_performance`,
  then `major_outage`.
"""

from datetime import timedelta

from django.conf import settings

__all__ = ("api_prefix", "freshness_degraded_after", "freshness_outage_after")


def api_prefix() -> str:
    return getattr(settings, "STATUS_API_PREFIX", "api/v2/")


def freshness_degraded_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "STATUS_FRESHNESS_DEGRADED_AFTER", 60))


def freshness_outage_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "STATUS_FRESHNESS_OUTAGE_AFTER", 300))
