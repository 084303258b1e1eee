"""The Statuspage v2 routes: public, read-only, `{"page": …, <content>}`.

Answers carry `Cache-Control: public, max-age=10`: a status page is read hardest during an
incident, so shared caches may absorb the burst, while ten seconds stays well inside the
60 s freshness threshold, so a live component's change shows promptly. Without a page the
routes answer the 404 envelope.
"""

from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.exceptions import NotFound
from apps.status import selectors
from apps.status.api.serializers import (
    ComponentSerializer,
    IncidentSerializer,
    MaintenanceSerializer,
    PageSerializer,
    PageStatusSerializer,
)
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
RECENT_LIMIT = 50


class StatusPageView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request):
        snapshot = selectors.page_snapshot()
        if snapshot is None:
            raise NotFound()
        context = {"snapshot": snapshot}
        return Response(
            {"page": PageSerializer(snapshot, context=context).data, **self.content(snapshot, context)}
        )

    def content(self, snapshot: PageSnapshot, context: dict) -> dict:
        raise NotImplementedError

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response["Cache-Control"] = CACHE_CONTROL
        return response


class SummaryView(StatusPageView):
    def content(self, snapshot, context):
        unresolved = list(selectors.incident_unresolved_list())
        status = selectors.page_status(snapshot=snapshot, unresolved_incidents=unresolved)
        return {
            "components": ComponentSerializer(snapshot.components, many=True, context=context).data,
            "incidents": IncidentSerializer(unresolved, many=True, context=context).data,
            "scheduled_maintenances": MaintenanceSerializer(
                selectors.maintenance_open_list(), many=True, context=context
            ).data,
            "status": PageStatusSerializer(status).data,
        }


class PageStatusView(StatusPageView):
    def content(self, snapshot, context):
        status = selectors.page_status(
            snapshot=snapshot, unresolved_incidents=selectors.incident_unresolved_list()
        )
        return {"status": PageStatusSerializer(status).data}


class ComponentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"components": ComponentSerializer(snapshot.components, many=True, context=context).data}


class IncidentListView(StatusPageView):
    def content(self, snapshot, context):
        incidents = selectors.incident_recent_list(limit=RECENT_LIMIT)
        return {"incidents": IncidentSerializer(incidents, many=True, context=context).data}


class UnresolvedIncidentListView(StatusPageView):
    def content(self, snapshot, context):
        incidents = selectors.incident_unresolved_list()
        return {"incidents": IncidentSerializer(incidents, many=True, context=context).data}


class MaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        maintenances = selectors.maintenance_recent_list(limit=RECENT_LIMIT)
        return {
            "scheduled_maintenances": MaintenanceSerializer(maintenances, many=True, context=context).data
        }


class UpcomingMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        maintenances = selectors.maintenance_upcoming_list()
        return {
            "scheduled_maintenances": MaintenanceSerializer(maintenances, many=True, context=context).data
        }


class ActiveMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        maintenances = selectors.maintenance_active_list()
        return {
            "scheduled_maintenances": MaintenanceSerializer(maintenances, many=True, context=context).data
        }
