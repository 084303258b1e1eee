"""How long the list-route cache (`apps.common.server.list_cache`) keeps a route's answers:
a list view marks its answer with `KeepFor`, the server door keeps what is marked."""

import re
from dataclasses import dataclass

from django.conf import settings

_MAX_AGE = re.compile(r"max-age=(\d+)")


@dataclass(frozen=True, slots=True)
class KeepFor:
    """What a list view attaches to its answer (`response.keep_for`): how long to keep it
    and the route template it answers, which the metrics of a kept answer are counted under."""

    seconds: int
    route: str


def time_to_live(*, results_key: str, opted_in: bool | int, cache_control: str) -> int:
    """Seconds a route's list answers are kept (0: not cached)."""
    configured = settings.MIRROR.get("LIST_CACHE_TTL", {}).get(results_key)
    if configured is not None:
        return int(configured)
    if opted_in is True:
        match = _MAX_AGE.search(cache_control)
        return int(match.group(1)) if match else 0
    return int(opted_in)
