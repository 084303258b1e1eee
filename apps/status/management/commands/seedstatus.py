"""`manage.py seedstatus`: the demo's status page, for the Aurora demo network of
`fixtures/demo.json`; running it again changes nothing.

It creates what is missing, found by name, and leaves what exists alone: the page, unless
one exists (as `migrate` creates one, the demo joins its live components); a group for the
network, after the page's top-level components, with its consensus service and its three
nodes as the demo's address book names them; a resolved incident, a completed maintenance
and an upcoming one, their updates dated in the past days. The rows are dated as their
history: the components exist before the events that changed them.
"""

from datetime import datetime, timedelta

from django.core.management.base import BaseCommand
from django.db.models import Max

from apps.common.clock import frozen_at
from apps.status import conf, services
from apps.status.models import Component, ComponentStatus, Incident, Maintenance, Page
from apps.status.timestamps import current_time, nanos_from_datetime

__all__ = ("Command",)

NETWORK = "Aurora demo network"
# The consensus node software the demo's blocks were written by, and the next one.
VERSION, NEXT_VERSION = "0.68", "0.69"
CONSENSUS = f"Aurora (v{VERSION}) | Network Uptime"
# (name, description), as the demo's address book describes its nodes.
NODES = (
    ("Node 0.0.3 - Frankfurt", "Aurora demo node 0"),
    ("Node 0.0.4 - Singapore", "Aurora demo node 1"),
    ("Node 0.0.5 - Virginia", "Aurora demo node 2"),
)
SLOW_NODE = "Node 0.0.4 - Singapore"

INCIDENT = "Transactions slow to reach consensus"
# (minutes after opening, status, message, what the consensus and Singapore components become)
INCIDENT_UPDATES = (
    (
        0,
        "investigating",
        "We are investigating transactions taking minutes to reach consensus.",
        (ComponentStatus.DEGRADED_PERFORMANCE, ComponentStatus.PARTIAL_OUTAGE),
    ),
    (18, "identified", "Node 0.0.4 in Singapore is slowing down gossip; we are replacing its host.", None),
    (41, "monitoring", "The node runs on a new host and consensus times are back to normal.", None),
    # Resolving returns both to operational.
    (95, "resolved", "Consensus times have stayed normal for an hour. This incident is resolved.", None),
)
COMPLETED_MAINTENANCE = f"Aurora upgrade to v{VERSION}"
UPCOMING_MAINTENANCE = f"Aurora upgrade to v{NEXT_VERSION}"
# (minutes after the window opens, status, message, what the consensus component becomes)
COMPLETED_MAINTENANCE_UPDATES = (
    (0, "in_progress", "The upgrade is under way.", ComponentStatus.UNDER_MAINTENANCE),
    (34, "completed", "The upgrade is complete and the network is processing transactions.", None),
)
MAINTENANCE_WINDOW = timedelta(minutes=40)
# Before the oldest event: the completed maintenance was announced 17 days ago.
HISTORY_STARTS = timedelta(days=30)


class Command(BaseCommand):
    help = "Seed the demo's status page (the Aurora demo network); idempotent."

    @services.in_one_transaction
    def handle(self, *args, **options):
        self.created: list[str] = []
        today = current_time().replace(hour=17, minute=0, second=0, microsecond=0)
        with _clock_at(today - HISTORY_STARTS):
            if not Page.objects.exists():
                Page.objects.create(name=conf.page_name(), url=conf.page_url())
                self.created.append("page")
            last_position = Component.objects.filter(group=None).aggregate(last=Max("position"))["last"] or 0
            group = self.component(name=NETWORK, position=last_position + 1, is_group=True, showcase=False)
            consensus = self.component(
                name=CONSENSUS, group=group, position=1, description="Consensus network availability"
            )
            nodes = {
                name: self.component(name=name, group=group, position=position, description=description)
                for position, (name, description) in enumerate(NODES, start=2)
            }
        # In the order they happened, so each update finds the statuses the earlier ones left.
        if not Maintenance.objects.filter(name=COMPLETED_MAINTENANCE).exists():
            self.completed_maintenance(consensus, window_opens=today - timedelta(days=10))
        if not Incident.objects.filter(name=INCIDENT).exists():
            self.incident(consensus, nodes[SLOW_NODE], opened_at=today - timedelta(days=3, hours=3))
        if not Maintenance.objects.filter(name=UPCOMING_MAINTENANCE).exists():
            self.schedule(UPCOMING_MAINTENANCE, consensus, window_opens=today + timedelta(days=5))
        self.stdout.write(f"created: {', '.join(self.created)}" if self.created else "already seeded")

    def component(self, *, name: str, **fields) -> Component:
        component, created = Component.objects.get_or_create(name=name, defaults=fields)
        if created:
            self.created.append(name)
        return component

    def incident(self, consensus: Component, slow_node: Component, *, opened_at: datetime) -> None:
        (_, status, body, (consensus_status, node_status)), *later = INCIDENT_UPDATES
        with _clock_at(opened_at):
            incident = services.incident_open(
                name=INCIDENT,
                status=status,
                body=body,
                component_statuses={consensus: consensus_status, slow_node: node_status},
            )
        for minutes, status, body, _ in later:
            with _clock_at(opened_at + timedelta(minutes=minutes)):
                services.incident_post_update(incident=incident, status=status, body=body)
        self.created.append(INCIDENT)

    def completed_maintenance(self, component: Component, *, window_opens: datetime) -> None:
        with _clock_at(window_opens - timedelta(days=7)):
            maintenance = self.schedule(COMPLETED_MAINTENANCE, component, window_opens=window_opens)
        for minutes, status, body, new_status in COMPLETED_MAINTENANCE_UPDATES:
            with _clock_at(window_opens + timedelta(minutes=minutes)):
                services.maintenance_post_update(
                    maintenance=maintenance,
                    status=status,
                    body=body,
                    component_statuses={component: new_status} if new_status else {},
                )

    def schedule(self, name: str, component: Component, *, window_opens: datetime) -> Maintenance:
        maintenance = services.maintenance_schedule(
            name=name,
            body=f"Consensus nodes will be upgraded; expect about {MAINTENANCE_WINDOW.seconds // 60} minutes"
            " of disruption to network services.",
            scheduled_for=window_opens,
            scheduled_until=window_opens + MAINTENANCE_WINDOW,
            component_statuses={component: None},
        )
        self.created.append(name)
        return maintenance


def _clock_at(moment: datetime):
    return frozen_at(nanos_from_datetime(moment))
