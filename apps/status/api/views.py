"""The Statuspage v2 routes: public, read-only, `{"page": …, <content>}`.

Every route renders the process's current snapshot (`snapshots`), once per snapshot: a
warm request reads no database and serializes nothing anew, and the routes keep answering,
with the live components down, while the database is unreachable. Answers carry `Cache-Control: public, max-age=10`: a status page
is read hardest during an incident, so shared caches may absorb the burst, while ten
seconds stays well inside the 60 s freshness threshold, so a live component's change shows
promptly. Without a page the routes answer the 404 envelope.
"""

from drf_spectacular.utils import extend_schema
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
from apps.status.selectors import RECENT_LIMIT, PageSnapshot

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


# Our OpenAPI document lists the eight routes together.
@extend_schema(tags=["status"])
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


@extend_schema(
    summary="Get the status summary",
    description="The status page in one answer: the page, every component with its status, the unresolved "
    "incidents, the scheduled maintenances not completed yet (soonest first) and the overall status. Without "
    "a status page every route answers 404.",
)
class SummaryView(StatusPageView):
    def content(self, snapshot, context):
        return {
            "components": _components(snapshot, context),
            "incidents": _incidents(snapshot.content.unresolved_incidents, context),
            "scheduled_maintenances": _maintenances(snapshot.content.open_maintenances, context),
            "status": PageStatusSerializer(snapshot.status).data,
        }


@extend_schema(
    summary="Get the overall status",
    description="The page and its overall status: an indicator (`none`, `minor`, `major` or `critical`) and "
    "its description, rolled up from the components and the unresolved incidents.",
)
class PageStatusView(StatusPageView):
    def content(self, snapshot, context):
        return {"status": PageStatusSerializer(snapshot.status).data}


@extend_schema(
    summary="List the components",
    description="The page and every component, groups included, with its status, in the page's order.",
)
class ComponentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"components": _components(snapshot, context)}


@extend_schema(
    summary="List the incidents",
    description=f"The page and the {RECENT_LIMIT} most recent incidents, resolved ones included, newest first, "
    "each with its updates (newest first) and affected components.",
)
class IncidentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"incidents": _incidents(snapshot.content.recent_incidents, context)}


@extend_schema(
    summary="List the unresolved incidents",
    description="The page and the incidents still investigating, identified or monitoring, newest first, "
    "each with its updates and affected components.",
)
class UnresolvedIncidentListView(StatusPageView):
    def content(self, snapshot, context):
        return {"incidents": _incidents(snapshot.content.unresolved_incidents, context)}


@extend_schema(
    summary="List the scheduled maintenances",
    description=f"The page and the {RECENT_LIMIT} scheduled maintenances with the latest start, completed ones "
    "included, latest first, each with its updates and affected components.",
)
class MaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.content.recent_maintenances, context)}


@extend_schema(
    summary="List the upcoming maintenances",
    description="The page and the scheduled maintenances that have not started, soonest first.",
)
class UpcomingMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.upcoming_maintenances, context)}


@extend_schema(
    summary="List the active maintenances",
    description="The page and the scheduled maintenances in progress or being verified, soonest first.",
)
class ActiveMaintenanceListView(StatusPageView):
    def content(self, snapshot, context):
        return {"scheduled_maintenances": _maintenances(snapshot.active_maintenances, context)}


def _components(snapshot: PageSnapshot, context: dict) -> list:
    return ComponentSerializer(snapshot.components, many=True, context=context).data


def _incidents(incidents: list[Incident], context: dict) -> list:
    return IncidentSerializer(incidents, many=True, context=context).data


def _maintenances(maintenances: list[Maintenance], context: dict) -> list:
    return MaintenanceSerializer(maintenances, many=True, context=context).data
