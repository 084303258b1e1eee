"""The WSGI application: API requests take a chain of only the middleware that act on them.

`settings.MIDDLEWARE` serves the site (admin, landing page, static files); most of it lets
`/api/` requests pass straight through (sessions, CSRF, messages, WhiteNoise, django-axes,
the outage page), yet each layer still costs a call and an exception wrapper on every API
request. `settings.API_MIDDLEWARE`, an ordered subset of MIDDLEWARE, is the chain an `/api/`
request takes instead: the answer is the same, without the layers that would not touch it.

An API request is resolved through the flattened URLconf (`route_index`), and reads a
replica when there are (`apps.common.database.replicas`). A list answer
the list-route cache keeps is served before any of this (`apps.common.server.list_cache`).

`MirrorWSGIHandler` is the server's application (`mirror.wsgi`); the tests' client and the
conformance runner put the same split under Django's test client (`ApiMiddlewareSplit`), so
they see what the server serves.
"""

import io
import sys

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.core.handlers.wsgi import WSGIHandler
from django.db import connections
from django.http import HttpResponse
from django.urls import get_resolver
from django.utils.log import log_response
from django.utils.module_loading import import_string

from apps.common.api.routers import route_index
from apps.common.database.replicas import replica_aliases, routed
from apps.common.server import list_cache
from apps.common.server.middleware import API_PREFIX

__all__ = ("ApiMiddlewareSplit", "MirrorWSGIHandler", "wsgi_environ")


class _ApiMiddlewareChain(BaseHandler):
    """The request path of an API request: `settings.API_MIDDLEWARE` around the view."""

    def __init__(self, middleware_paths: list[str]):
        super().__init__()
        self._view_middleware, self._template_response_middleware, self._exception_middleware = [], [], []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(middleware_paths):
            try:
                middleware = import_string(path)(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler
        self._plain_views = not (
            self._view_middleware
            or self._template_response_middleware
            or any(database["ATOMIC_REQUESTS"] for database in connections.settings.values())
        )

    def get_response(self, request):
        # Django's first sets the thread's urlconf to ROOT_URLCONF: an asgiref thread-local
        # write per request. An API request never names another urlconf, and an unset one
        # already means ROOT_URLCONF.
        response = self._middleware_chain(request)
        response._resource_closers.append(request.close)
        if response.status_code >= 400:
            log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
        return response

    def _get_response(self, request):
        # Django's, less two steps that never change an API request's course: wrapping the
        # view in a transaction for each database with ATOMIC_REQUESTS (none here, checked as
        # the chain is built) and looking for a coroutine view (an API view is a function; a
        # coroutine would fail `check_response`). A chain with view or template-response
        # middleware takes Django's.
        if not self._plain_views:
            return super()._get_response(request)
        callback, callback_args, callback_kwargs = self.resolve_request(request)
        try:
            response = callback(request, *callback_args, **callback_kwargs)
        except Exception as error:
            response = self._exception_response(error, request)
        self.check_response(response, callback)
        if callable(getattr(response, "render", None)):
            try:
                response = response.render()
            except Exception as error:
                response = self._exception_response(error, request)
        return response

    def _exception_response(self, error: Exception, request):
        if (response := self.process_exception_by_middleware(error, request)) is None:
            raise error
        return response

    def resolve_request(self, request):
        # One step through the flattened URLconf instead of Django's walk over its includes.
        if not hasattr(request, "urlconf") and (match := route_index(get_resolver()).resolve(request.path_info)):
            request.resolver_match = match
            return match
        return super().resolve_request(request)


class ApiMiddlewareSplit:
    """A handler whose `/api/` requests take the API middleware chain."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async)
        self._api_chain = _ApiMiddlewareChain(api_middleware())
        self._api_response = self._api_chain.get_response
        if replica_aliases():
            self._api_response = routed(self._api_response)

    def get_response(self, request):
        if request.path_info.startswith(API_PREFIX):
            return self._api_response(request)
        return super().get_response(request)


class MirrorWSGIHandler(ApiMiddlewareSplit, WSGIHandler):
    def __call__(self, environ, start_response):
        if (kept := self.kept_answer(environ, start_response)) is not None:
            return kept
        response = super().__call__(environ, start_response)
        if not isinstance(response, HttpResponse):
            return response  # streamed
        list_cache.keep(environ, response)
        # A whole body goes back as a list, which the server writes in one call: handed the
        # response itself, it iterates it, taking the interpreter lock again for each step,
        # which costs a worker dearly under load. The body is complete, so the
        # response is closed here (`request_finished`) rather than by the server.
        content = response.content
        response.close()
        return [content]

    @staticmethod
    def kept_answer(environ, start_response) -> list[bytes] | None:
        """The list-route cache's answer, started, if it keeps one for this request."""
        if (kept := list_cache.cached_answer(environ)) is None:
            return None
        status, headers, body = kept
        start_response(status, headers)
        return [body]


def api_middleware() -> list[str]:
    """`settings.API_MIDDLEWARE`, checked to keep the order it has in `settings.MIDDLEWARE`.

    Django's SecurityMiddleware is left out where it would only add its constant headers (no
    HTTPS redirect, no HSTS): `MirrorApiMiddleware` sets those on every API answer, without a
    layer of its own."""
    positions = [settings.MIDDLEWARE.index(path) for path in settings.API_MIDDLEWARE if path in settings.MIDDLEWARE]
    if len(positions) != len(settings.API_MIDDLEWARE) or positions != sorted(positions):
        raise ImproperlyConfigured("API_MIDDLEWARE must list middleware of MIDDLEWARE, in the same order.")
    if settings.SECURE_SSL_REDIRECT or settings.SECURE_HSTS_SECONDS:
        return list(settings.API_MIDDLEWARE)
    return [path for path in settings.API_MIDDLEWARE if path != _SECURITY_MIDDLEWARE]


_SECURITY_MIDDLEWARE = "django.middleware.security.SecurityMiddleware"


def wsgi_environ(method: str, path: str, query: str = "", headers: dict[str, str] | None = None) -> dict:
    """The environ a WSGI server hands the application for a request on loopback, with
    `headers` as `HTTP_*` keys: for calling the application in process (profiling, tests)."""
    return {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **(headers or {}),
    }
