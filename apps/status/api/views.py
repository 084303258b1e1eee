"""The Statuspage v2 routes: public, read-only, `{"page": …, <content>}`.

Every route renders the process's current snapshot (`snapshots`), once per snapshot: a
warm request reads no database and serializes nothing anew, and the routes keep answering,
with the live components down, while the database is unreachable. Answers carry `Cache-Control: public, max-age=10`: a status page
is read hardest during an incident, so shared caches may absorb the burst, while ten
seconds stays well inside the 60 s freshness threshold, so a live component's change shows
promptly. Without a page the routes answer the 404 envelope.
"""

from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.views import AcyclicViewMixin
from apps.common.errors import NotFound
from apps.status import snapshots
from apps.status.api.serializers import (
    ComponentSerializer,
    IncidentSerializer,
    MaintenanceSerializer,
    PageSerializer,
    PageStatusSerializer,
)
from apps.status.models import Incident, Maintenance
from apps.status.selectors import PageSnapshot

__all__ = (
    "ActiveMaintenanceListView",
    "ComponentListView",
    "IncidentListView",
    "MaintenanceListView",
    "PageStatusView",
    "SummaryView",
    "UnresolvedIncidentListView",
    "UpcomingMaintenanceListView",
)

CACHE_CONTROL = "public, max-age=10"


class StatusPageView(AcyclicViewMixin, APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request):
        snapshot = snapshots.current_snapshot()
        if snapshot is None:
            raise NotFound()
        body = snapshot.bodies.get(type(self))
        if body is None:
            context = {"snapshot": snapshot}
            body = {"page": PageSerializer(snapshot, context=context).data, **self.content(snapshot, context)}
            snapshot.bodies[type(self)] = body
        return Response(body)

    def content(self, snapshot: PageSnapshot, context: dict) -> dict:
        raise NotImplementedError

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response["Cache-Control"] = CACHE_CONTROL
        return response


class SummaryView(StatusPageView):
    def content(self, snapshot, context):
        return {
            "components": _components(snapshot, context),
            "incidents": _incidents(snapshot.content.unresolved_incidents, context),
            "scheduled_maintenances": _maintenances(snapshot.content.open_maintenances, context),
            "status": PageStatusSerializer(snapshot.status).data,
        }


class PageStatusView(StatusPageView):
    def content(self, snapshot, context):
        return {"status": PageStatusSerializer(snapshot.status).data}


class ComponentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"components": _components(snapshot, context)}


class IncidentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"incidents": _incidents(snapshot.content.recent_incidents, context)}


class UnresolvedIncidentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"incidents": _incidents(snapshot.content.unresolved_incidents, context)}


class MaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.content.recent_maintenances, context)}


class UpcomingMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.upcoming_maintenances, context)}


class ActiveMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.active_maintenances, context)}


def _components(snapshot: PageSnapshot, context: dict) -> list:
    return ComponentSerializer(snapshot.components, many=True, context=context).data


def _incidents(incidents: list[Incident], context: dict) -> list:
    return IncidentSerializer(incidents, many=True, context=context).data


def _maintenances(maintenances: list[Maintenance], context: dict) -> list:
    return MaintenanceSerializer(maintenances, many=True, context=context).data
