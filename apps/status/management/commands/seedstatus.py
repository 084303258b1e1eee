"""`manage.py seedstatus`: a demo status page for the Hedera networks; running it again changes nothing.

It creates what is missing, found by name, and leaves what exists alone: the page, unless
one exists (as `migrate` creates one, the demo joins its live components); a group per
network, after the page's top-level components, with its consensus nodes and mirror node
REST API components, the mirror of the network this service serves (`--network`) following
the freshness live check; a resolved incident, a completed maintenance and an upcoming one,
their updates dated in the past days.
"""

from datetime import datetime, timedelta

from django.core.management.base import BaseCommand
from django.db.models import Max

from apps.common.clock import frozen_at
from apps.status import services
from apps.status.models import Component, Incident, LiveCheck, Maintenance, Page
from apps.status.timestamps import current_time, nanos_from_datetime

__all__ = ("Command",)

# Network -> the consensus node software version it runs.
NETWORKS = {"Mainnet": "0.64", "Testnet": "0.65", "Previewnet": "0.66"}

INCIDENT = "Testnet transactions slow to reach consensus"
# (minutes after opening, status, message, what the testnet consensus component becomes, if anything)
INCIDENT_UPDATES = (
    (
        0,
        "investigating",
        "We are investigating transactions taking minutes to reach consensus.",
        "degraded_performance",
    ),
    (18, "identified", "A misconfigured node is slowing down gossip; we are replacing it.", None),
    (41, "monitoring", "The node has been replaced and consensus times are back to normal.", None),
    (
        95,
        "resolved",
        "Consensus times have stayed normal for an hour. This incident is resolved.",
        "operational",
    ),
)
COMPLETED_MAINTENANCE = "Mainnet upgrade to v0.64"
# (minutes after the window opens, status, message, what the mainnet consensus component becomes)
COMPLETED_MAINTENANCE_UPDATES = (
    (0, "in_progress", "The upgrade is under way.", "under_maintenance"),
    (34, "completed", "The upgrade is complete and the network is processing transactions.", "operational"),
)
UPCOMING_MAINTENANCE = "Testnet upgrade to v0.66"
MAINTENANCE_WINDOW = timedelta(minutes=40)


class Command(BaseCommand):
    help = "Seed a demo status page (mainnet, testnet, previewnet); idempotent."

    def add_arguments(self, parser):
        parser.add_argument(
            "--network",
            choices=[name.lower() for name in NETWORKS],
            default="mainnet",
            help="the network this mirror serves: its REST API component follows the freshness check",
        )

    @services.in_one_transaction
    def handle(self, *args, network, **options):
        self.created: list[str] = []
        today = current_time().replace(hour=17, minute=0, second=0, microsecond=0)
        if not Page.objects.exists():
            Page.objects.create(name="Hedera", url="https://status.hedera.com")
            self.created.append("page")
        consensus = {}
        last_position = Component.objects.filter(group=None).aggregate(last=Max("position"))["last"] or 0
        for position, (name, version) in enumerate(NETWORKS.items(), start=last_position + 1):
            group = self.component(name=name, position=position, is_group=True, showcase=False)
            consensus[name] = self.component(
                name=f"Hedera {name} (v{version}) | Network Uptime",
                group=group,
                position=1,
                description="Consensus network availability",
            )
            self.component(
                name=f"Mirror Node REST API Public {name}",
                group=group,
                position=2,
                live_check=LiveCheck.MIRROR_FRESHNESS if name.lower() == network else "",
            )
        if not Incident.objects.filter(name=INCIDENT).exists():
            self.incident(consensus["Testnet"], opened_at=today - timedelta(days=3, hours=3))
        if not Maintenance.objects.filter(name=COMPLETED_MAINTENANCE).exists():
            self.completed_maintenance(consensus["Mainnet"], window_opens=today - timedelta(days=10))
        if not Maintenance.objects.filter(name=UPCOMING_MAINTENANCE).exists():
            self.schedule(UPCOMING_MAINTENANCE, consensus["Testnet"], window_opens=today + timedelta(days=5))
        self.stdout.write(f"created: {', '.join(self.created)}" if self.created else "already seeded")

    def component(self, *, name: str, **fields) -> Component:
        component, created = Component.objects.get_or_create(name=name, defaults=fields)
        if created:
            self.created.append(name)
        return component

    def incident(self, component: Component, *, opened_at: datetime) -> None:
        (_, status, body, new_status), *later = INCIDENT_UPDATES
        with _clock_at(opened_at):
            incident = services.incident_open(
                name=INCIDENT, status=status, body=body, component_statuses={component: new_status}
            )
        for minutes, status, body, new_status in later:
            with _clock_at(opened_at + timedelta(minutes=minutes)):
                services.incident_post_update(
                    incident=incident,
                    status=status,
                    body=body,
                    component_statuses={component: new_status} if new_status else {},
                )
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
                    component_statuses={component: new_status},
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
