"""The base viewset every route builds on.

A route declares its FilterSet, serializer, the key of its result list and the
keyset anchors of its `links.next`; this class validates the query, pages with
`limit`, renders `{<results_key>: [...], "links": {"next": ...}}` and sets the
`Cache-Control` and `Link` headers the upstream sets. A route whose page is not
one queryset overrides `list_rows`; one with more top-level keys (balances'
`timestamp`) overrides `list_envelope`.
"""

from collections.abc import Sequence

from django.core.exceptions import BadRequest, PermissionDenied
from django.views.decorators.csrf import csrf_exempt
from rest_framework import viewsets
from rest_framework.response import Response

from apps.common.api.exceptions import NotFound, error_response
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.common.pagination import Anchor, next_link
from apps.common.query import parse_query_string

DEFAULT_CACHE_CONTROL = "public, max-age=1"


class MirrorViewSet(viewsets.GenericViewSet):
    filterset_class: type[ListFilterSet]
    detail_filterset_class: type[QueryFilterSet] = QueryFilterSet
    results_key: str
    pagination_anchors: Sequence[Anchor] = ()
    # action name -> Cache-Control of its successful answers
    cache_control: dict[str, str] = {}

    def query_params(self):
        return parse_query_string(self.request.META.get("QUERY_STRING", ""))

    def get_filterset(self, filterset_class):
        return filterset_class(self.query_params(), self.get_queryset(), request=self.request)

    def list(self, request, *args, **kwargs):
        filterset = self.get_filterset(self.filterset_class)
        rows = self.list_rows(filterset)
        link = None
        if rows and len(rows) == filterset.limit_value and self.pagination_anchors:
            link = next_link(
                request.path, filterset.params, filterset.order_value, self.pagination_anchors, rows[-1]
            )
        data = self.get_serializer(rows, many=True).data
        return Response({**self.list_envelope(rows), self.results_key: data, "links": {"next": link}})

    def list_rows(self, filterset) -> list:
        """One page of rows; a route whose page is not one queryset reads it here
        (validating the query first, as `filterset.qs` does)."""
        return list(filterset.qs[: filterset.limit_value])

    def list_envelope(self, rows: list) -> dict:
        """Top-level keys a route's list answer carries besides its results and links."""
        return {}

    def validate_detail_query(self) -> None:
        self.get_filterset(self.detail_filterset_class).validate()

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if 200 <= response.status_code < 300:
            if not response.has_header("Cache-Control"):
                # A view may set its own when the value depends on the answer.
                response["Cache-Control"] = self.cache_control.get(self.action, DEFAULT_CACHE_CONTROL)
            links = response.data.get("links") if isinstance(response.data, dict) else None
            if links and links.get("next"):
                response["Link"] = f'<{links["next"]}>; rel="next"'
        return response


# Exempt: an unrouted POST is a 404 envelope, never Django's HTML CSRF page.
@csrf_exempt
def route_not_found(request, *args, **kwargs):
    return error_response(NotFound())


def bad_request(request, exception=None):
    return error_response(exception or BadRequest())


def permission_denied(request, exception=None):
    return error_response(exception or PermissionDenied())


def server_error(request, *args, **kwargs):
    return error_response(Exception("unhandled error"))
