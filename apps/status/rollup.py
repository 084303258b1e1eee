"""The page rollup (`status.indicator` and `status.description`) and incident impact.

Only leaf components count; a group's status is derived from its children. The first
matching row wins:

| leaf component statuses (N of them)   | indicator | description                |
|---------------------------------------|-----------|----------------------------|
| N >= 1 and all major_outage           | critical  | Major System Outage        |
| any major_outage                      | major     | Partial System Outage      |
| N >= 1 and all partial_outage         | major     | Partial System Outage      |
| any partial_outage                    | minor     | Minor Service Outage       |
| N >= 2 and all degraded_performance   | minor     | Degraded System Service    |
| any degraded_performance              | minor     | Partially Degraded Service |
| any under_maintenance                 | none      | Service Under Maintenance  |
| otherwise, N = 0 included             | none      | All Systems Operational    |

Maintenance keeps the indicator at `none`: the documented indicator values are none, minor,
major and critical, and the description already says "Service Under Maintenance".

Unresolved incidents then raise the indicator to their worst impact; when one does, the
description is that severity's: critical "Major System Outage", major "Partial System
Outage", minor "Minor Service Outage".
"""

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ("PageStatus", "incident_impact", "page_status")

INDICATORS = ("none", "minor", "major", "critical")

SEVERITY_DESCRIPTIONS = {
    "critical": "Major System Outage",
    "major": "Partial System Outage",
    "minor": "Minor Service Outage",
}

IMPACT_OF_COMPONENT_STATUS = {
    "major_outage": "critical",
    "partial_outage": "major",
    "degraded_performance": "minor",
}


@dataclass(frozen=True, slots=True)
class PageStatus:
    indicator: str
    description: str


def page_status(*, component_statuses: Iterable[str], incident_impacts: Iterable[str]) -> PageStatus:
    status = _component_rollup(list(component_statuses))
    worst_impact = max(incident_impacts, key=INDICATORS.index, default="none")
    if INDICATORS.index(worst_impact) > INDICATORS.index(status.indicator):
        return PageStatus(worst_impact, SEVERITY_DESCRIPTIONS[worst_impact])
    return status


def incident_impact(component_statuses: Iterable[str]) -> str:
    """The impact of an incident from the worst status it gave a component."""
    impacts = (IMPACT_OF_COMPONENT_STATUS.get(status, "none") for status in component_statuses)
    return max(impacts, key=INDICATORS.index, default="none")


def _component_rollup(statuses: list[str]) -> PageStatus:
    def every(status: str) -> bool:
        return all(each == status for each in statuses)

    if statuses and every("major_outage"):
        return PageStatus("critical", "Major System Outage")
    if "major_outage" in statuses:
        return PageStatus("major", "Partial System Outage")
    if statuses and every("partial_outage"):
        return PageStatus("major", "Partial System Outage")
    if "partial_outage" in statuses:
        return PageStatus("minor", "Minor Service Outage")
    if len(statuses) >= 2 and every("degraded_performance"):
        return PageStatus("minor", "Degraded System Service")
    if "degraded_performance" in statuses:
        return PageStatus("minor", "Partially Degraded Service")
    if "under_maintenance" in statuses:
        return PageStatus("none", "Service Under Maintenance")
    return PageStatus("none", "All Systems Operational")
