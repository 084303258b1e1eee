import pytest

from apps.status.rollup import PageStatus, incident_impact, page_status

OK = "operational"
DEGRADED = "degraded_performance"
PARTIAL = "partial_outage"
MAJOR = "major_outage"
MAINTENANCE = "under_maintenance"


@pytest.mark.parametrize(
    ("statuses", "indicator", "description"),
    [
        # N >= 1 and all major_outage
        ([MAJOR], "critical", "Major System Outage"),
        ([MAJOR, MAJOR, MAJOR], "critical", "Major System Outage"),
        # any major_outage
        ([MAJOR, OK], "major", "Partial System Outage"),
        ([MAJOR, PARTIAL, DEGRADED, MAINTENANCE], "major", "Partial System Outage"),
        # N >= 1 and all partial_outage
        ([PARTIAL], "major", "Partial System Outage"),
        ([PARTIAL, PARTIAL], "major", "Partial System Outage"),
        # any partial_outage
        ([PARTIAL, OK], "minor", "Minor Service Outage"),
        ([PARTIAL, DEGRADED], "minor", "Minor Service Outage"),
        # N >= 2 and all degraded_performance
        ([DEGRADED, DEGRADED], "minor", "Degraded System Service"),
        # any degraded_performance, a single degraded component included
        ([DEGRADED], "minor", "Partially Degraded Service"),
        ([DEGRADED, OK], "minor", "Partially Degraded Service"),
        ([DEGRADED, MAINTENANCE], "minor", "Partially Degraded Service"),
        # any under_maintenance: the indicator stays none
        ([MAINTENANCE], "none", "Service Under Maintenance"),
        ([MAINTENANCE, OK], "none", "Service Under Maintenance"),
        # otherwise
        ([OK], "none", "All Systems Operational"),
        ([OK, OK], "none", "All Systems Operational"),
        ([], "none", "All Systems Operational"),
    ],
)
def test_component_rollup_row(statuses, indicator, description):
    assert page_status(component_statuses=statuses, incident_impacts=[]) == PageStatus(indicator, description)


@pytest.mark.parametrize(
    ("statuses", "impacts", "indicator", "description"),
    [
        ([], ["critical"], "critical", "Major System Outage"),
        ([OK], ["major"], "major", "Partial System Outage"),
        ([OK, OK], ["minor", "none"], "minor", "Minor Service Outage"),
        ([MAINTENANCE], ["minor"], "minor", "Minor Service Outage"),
        ([DEGRADED, OK], ["major"], "major", "Partial System Outage"),
        # An incident no worse than the components leaves their row as it is.
        ([DEGRADED, OK], ["minor"], "minor", "Partially Degraded Service"),
        ([MAJOR], ["major"], "critical", "Major System Outage"),
        ([OK], ["none"], "none", "All Systems Operational"),
        ([], ["none"], "none", "All Systems Operational"),
    ],
)
def test_unresolved_incidents_raise_the_indicator(statuses, impacts, indicator, description):
    assert page_status(component_statuses=statuses, incident_impacts=impacts) == PageStatus(
        indicator, description
    )


@pytest.mark.parametrize(
    ("statuses", "impact"),
    [
        ([], "none"),
        ([OK, MAINTENANCE], "none"),
        ([DEGRADED, OK], "minor"),
        ([PARTIAL, DEGRADED], "major"),
        ([MAJOR, PARTIAL], "critical"),
    ],
)
def test_incident_impact_follows_the_worst_component_status(statuses, impact):
    assert incident_impact(statuses) == impact
