"""The base viewset every route builds on.

A route declares its FilterSet, serializer, the key of its result list and the
keyset anchors of its `links.next`; this class validates the query, pages with
`limit`, renders `{<results_key>: [...], "links": {"next": ...}}` and sets the
`Cache-Control` and `Link` headers the upstream sets. A route whose page is not
one queryset overrides `list_rows`; one with more top-level keys (balances'
`timestamp`) overrides `list_envelope`. A list route opts in to the list-route
cache with `list_cache` (see `apps.common.server.list_cache`).
"""

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, wraps

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import cache_policy, conditional
from apps.common.api.exceptions import READ_METHODS, error_response, method_not_allowed
from apps.common.api.negotiation import JSONWhateverTheAcceptHeader
from apps.common.api.serializers import RowSerializer
from apps.common.errors import NotFound
from apps.common.ledger.codecs import format_timestamp
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pagination import link_header, page_link
from apps.common.query.params import QueryParams


class AcyclicViewMixin:
    """Frees a request's objects by reference counting, leaving the garbage collector idle.

    DRF links the view, its request and its response both ways (renderer and parser
    contexts, `view.request`, `view.response`, the handlers of the action map bound to the
    view). Left so, every request's objects form reference cycles that only the cyclic
    garbage collector frees, in pauses that land on other requests. Once the response is rendered none of these links is read again, so the
    view drops them. Every API view takes this mixin first, and with it `answer`, which
    renders an answer at once."""

    # Whether answers carry an `ETag` and may be 304 (`apps.common.api.conditional`).
    entity_tags = False

    def dispatch(self, request, *args, **kwargs):
        return self.settle(request, super().dispatch(request, *args, **kwargs))

    def settle(self, request, response) -> HttpResponse:
        """The answer rendered, tagged when the route tags its answers, and the view's links dropped."""
        if isinstance(response, Response):
            response.render()
            response.renderer_context = None
        if self.entity_tags:
            response = conditional.tag(request, response)
        if isinstance(drf_request := self.__dict__.get("request"), Request):
            drf_request.parser_context = None
        self.__dict__.clear()
        return response

    def answer(self, data) -> HttpResponse:
        """`data` as a 200 answer, rendered now by the route's renderer.

        DRF's `Response` defers rendering to the end of the request, through a template
        response's machinery, where a response built with its body needs none of it. The route
        answers the same bytes and headers; `data` stays on the response, as on DRF's, for
        `finalize_response`."""
        renderer = self.get_renderers()[0]
        response = HttpResponse(
            renderer.render(data),
            content_type=f"{renderer.media_type}; charset={renderer.charset}",
            charset=renderer.charset,
        )
        response.data = data
        return response


def represent(serializer: serializers.BaseSerializer, rows: Iterable) -> list:
    """`rows` in `serializer`'s representation. DRF's `many=True` would add a ListSerializer
    whose child points back at it: a reference cycle per answer (see `AcyclicViewMixin`)."""
    return [serializer.to_representation(row) for row in rows]


class MirrorViewSet(AcyclicViewMixin, viewsets.GenericViewSet):
    filterset_class: type[ListFilterSet]
    # The route's selector: criteria in, the page's rows out.
    selector: Callable[[object], list]
    detail_filterset_class: type[QueryFilterSet] = QueryFilterSet
    results_key: str
    # For our OpenAPI document (see `apps.common.api.openapi`): the component schema of one
    # result, and the actions answering one object rather than a list.
    schema_item: str | None = None
    detail_actions: Sequence[str] = ("retrieve",)
    # action name -> Cache-Control of its successful answers
    cache_control: dict[str, str] = {}
    # Serve list answers from the list-route cache: True keeps them for the max-age
    # of the list's Cache-Control, a number for that many seconds; settings may override.
    list_cache: bool | int = False

    # DRF builds these on every request; they are stateless, or the same for every request
    # of a route, so each class builds them once.
    def get_renderers(self):
        return list(_instances(tuple(self.renderer_classes)))

    def get_parsers(self):
        return list(_instances(tuple(self.parser_classes)))

    def get_content_negotiator(self):
        return _instances((self.content_negotiation_class,))[0]

    @property
    def default_response_headers(self) -> dict:
        # The methods a route allows follow from its class and its action map (list or detail).
        key = (type(self), tuple(getattr(self, "action_map", {}).items()))
        if (headers := _DEFAULT_RESPONSE_HEADERS.get(key)) is None:
            headers = _DEFAULT_RESPONSE_HEADERS[key] = super().default_response_headers
        return dict(headers)  # DRF takes `Vary` out of it

    def dispatch(self, request, *args, **kwargs):
        """A read (GET, HEAD) runs its action straight on Django's request, where DRF's dispatch
        would first wrap the request and run its checks: on a route without authentication,
        permission or throttle classes, versioning or a negotiation that could choose, each of
        those steps decides nothing, yet costs every read its time (docs/performance.md). Its
        errors and headers are DRF's: `handle_exception` and `finalize_response`.
        Any other method, and a route with a check of its own, takes DRF's dispatch."""
        if request.method not in READ_METHODS or not _reads_without_checks(type(self)):
            return super().dispatch(request, *args, **kwargs)
        self.args, self.kwargs, self.request = args, kwargs, request
        self.format_kwarg = None
        self.action = self.action_map.get(request.method.lower())
        self.headers = self.default_response_headers
        try:
            handler = getattr(self, request.method.lower(), self.http_method_not_allowed)
            response = handler(request, *args, **kwargs)
        except Exception as exc:
            response = self.handle_exception(exc)
        return self.settle(request, self.finalize_response(request, response, *args, **kwargs))

    def perform_authentication(self, request):
        """Nothing to do up front: the API has no authentication classes (a user's larger
        `limit` is read by `MirrorApiMiddleware`), so DRF's eager `request.user` only costs."""

    def query_params(self, filterset_class: type[QueryFilterSet] = QueryFilterSet) -> QueryParams:
        """The query string as `filterset_class`'s dialect reads it (the Node routes' by default)."""
        dialect = filterset_class.dialect
        if self.__dict__.get("_query_dialect") is not dialect:
            self._query_params = filterset_class.read_query(self.request.META.get("QUERY_STRING", ""))
            self._query_dialect = dialect
        return self._query_params

    def query_filterset(self, filterset_class: type[QueryFilterSet]) -> QueryFilterSet:
        """`filterset_class` over the request's query, read in its dialect."""
        return filterset_class(self.query_params(filterset_class), request=self.request)

    def list(self, request, *args, **kwargs):
        criteria = self.query_filterset(self.filterset_class).criteria(scope=self.scope())
        # The selector is a plain function of the class: no `self`.
        rows = [] if criteria.matches_nothing else type(self).selector(criteria)
        link = page_link(request.path, criteria, rows)
        data = {**self.list_envelope(rows), self.results_key: self.represent(rows), "links": {"next": link}}
        response = self.answer(data)
        response.status_code = self.list_status(rows)
        seconds = cache_policy.time_to_live(
            results_key=self.results_key,
            opted_in=self.list_cache,
            cache_control=self.response_headers(request, "list").get("cache-control", ""),
        )
        if seconds > 0:
            response.keep_for = cache_policy.KeepFor(seconds, request.resolver_match.route)
        return response

    def scope(self) -> tuple:
        """The ids of the path a list is read under (`/accounts/{id}/rewards`), parsed: the
        selector finds them in `criteria.scope`."""
        return ()

    def represent(self, rows: list) -> list:
        """The rows in the route's serializer's representation."""
        serializer_class = self.get_serializer_class()
        if issubclass(serializer_class, RowSerializer):
            return represent(serializer_class.shared(), rows)
        return represent(self.get_serializer(), rows)

    def represent_one(self, row) -> dict:
        """One row (a detail route's) in the route's serializer's representation."""
        return self.represent([row])[0]

    def list_envelope(self, rows: list) -> dict:
        """Top-level keys a route's list answer carries besides its results and links."""
        return {}

    def list_status(self, rows: list) -> int:
        """The status of a list answer: 200, unless the route's rows tell otherwise (a partial history's 206)."""
        return 200

    def validate_detail_query(self) -> None:
        if not self.query_params(self.detail_filterset_class):
            return  # no parameter, nothing to refuse
        self.query_filterset(self.detail_filterset_class).validate()

    def response_headers(self, request, action: str | None) -> dict[str, str]:
        """The headers of the action's successful answers: its Cache-Control, as configured."""
        return cache_policy.response_headers(
            request,
            cache_control=self.cache_control.get(action),
            # The routes with entity tags are those the upstream serves from its Java service.
            java=self.entity_tags,
        )

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if 200 <= response.status_code < 300:
            for name, value in self.response_headers(request, self.action).items():
                # A view may set its own when the value depends on the answer.
                if not response.has_header(name):
                    response[name] = value
            data = getattr(response, "data", None)
            links = data.get("links") if isinstance(data, dict) else None
            if links and links.get("next"):
                response["Link"] = link_header(links["next"])
        return response


_DEFAULT_RESPONSE_HEADERS: dict[tuple, dict] = {}


@lru_cache(maxsize=None)
def _reads_without_checks(view_class: type) -> bool:
    """Whether DRF's steps before a handler decide nothing for a read on `view_class`'s routes
    (see `MirrorViewSet.dispatch`): no class that authenticates, permits, throttles or versions,
    the negotiation that always answers JSON, and none of those steps overridden."""
    return (
        not view_class.authentication_classes
        and not view_class.permission_classes
        and not view_class.throttle_classes
        and view_class.versioning_class is None
        and view_class.content_negotiation_class is JSONWhateverTheAcceptHeader
        and view_class.initial is APIView.initial
        and view_class.initialize_request is viewsets.GenericViewSet.initialize_request
    )


@lru_cache(maxsize=None)
def _instances(classes: tuple[type, ...]) -> tuple:
    return tuple(cls() for cls in classes)


def newest_timestamp_envelope(rows: list) -> dict:
    """The balance routes' `timestamp`: the newest of the page's rows (a snapshot's, or the
    latest current balance's), null for none."""
    timestamps = [row["consensus_timestamp"] for row in rows if row["consensus_timestamp"] is not None]
    return {"timestamp": format_timestamp(max(timestamps)) if timestamps else None}


# Exempt: an unrouted POST is a 404 envelope, never Django's HTML CSRF page.
@csrf_exempt
def route_not_found(request, *args, **kwargs):
    return error_response(NotFound())


def read_only(view):
    """`view` answering GET and HEAD only: another method is 405 in the envelope, before the
    CSRF check would answer Django's HTML 403."""

    @csrf_exempt
    @wraps(view)
    def read_only_view(request, *args, **kwargs):
        if request.method not in READ_METHODS:
            return method_not_allowed(READ_METHODS)
        return view(request, *args, **kwargs)

    read_only_view.allowed_methods = READ_METHODS
    return read_only_view


def bad_request(request, exception=None):
    return error_response(exception or BadRequest())


def permission_denied(request, exception=None):
    return error_response(exception or PermissionDenied())


def server_error(request, *args, **kwargs):
    return error_response(Exception("unhandled error"))
