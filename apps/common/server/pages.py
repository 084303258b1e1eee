"""The service's own HTML pages, outside the admin: the landing page at `/` and the page a
browser gets during a database outage.

The landing page lists the routes from the URLconf, so it shows what is actually served.
A database error escaping a view outside `/api/` (the admin, the landing page) answers the
503 outage page instead of a 500; `/api/` paths keep their JSON envelope.
"""

from collections.abc import Iterator

from django.db import DatabaseError
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import URLResolver, get_resolver

from apps.common.observability import readable_route, report_database_failure

__all__ = ("DatabaseOutageMiddleware", "UPSTREAM_OPENAPI_URL", "api_routes", "landing")


UPSTREAM_OPENAPI_URL = "https://github.com/hiero-ledger/hiero-mirror-node/blob/main/rest/api/v1/openapi.yml"
STATUS_API_NAMESPACE = "status-api"
OUTAGE_RETRY_AFTER_SECONDS = 30


def api_routes() -> dict[str, list[str]]:
    """Every named `/api/` route as a client writes it (`/api/v1/blocks/{hash_or_number}`), by
    the namespace of the URLconf that serves it."""
    routes: dict[str, set[str]] = {}
    for route, name, namespace in _walk(get_resolver().url_patterns, "/", None):
        if name and route.startswith("/api/"):
            routes.setdefault(namespace, set()).add(readable_route(route))
    return {namespace: sorted(names) for namespace, names in routes.items()}


def _walk(patterns, prefix: str, namespace: str | None) -> Iterator[tuple[str, str | None, str | None]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route, pattern.namespace or namespace)
        else:
            yield route, pattern.name, namespace


def landing(request):
    routes = api_routes()
    status_routes = routes.pop(STATUS_API_NAMESPACE, [])
    mirror_routes = sorted(route for namespace_routes in routes.values() for route in namespace_routes)
    return render(
        request,
        "common/landing.html",
        {"routes": [(route, "{" not in route) for route in mirror_routes], "status_routes": status_routes, "openapi_url": UPSTREAM_OPENAPI_URL},
    )


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DatabaseError) or request.path.startswith("/api/"):
            return None
        report_database_failure(exception, what=f"database failure on {request.path}")
        # Rendered without the request: its context processors would read the session, i.e. the database.
        response = HttpResponse(render_to_string("common/database_outage.html"), status=503)
        response["Retry-After"] = str(OUTAGE_RETRY_AFTER_SECONDS)
        response._has_been_logged = True  # once a second at most, above
        return response
