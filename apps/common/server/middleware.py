import base64
import binascii

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import BadRequest, DisallowedHost
from django.core.handlers.exception import response_for_exception
from django.http import HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import Resolver404, resolve

from apps.common.api.docs import PAGE_CONTENT_SECURITY_POLICY
from apps.common.api.exceptions import READ_METHODS, error_response, method_not_allowed
from apps.common.errors import (
    HeadersTooLarge,
    MirrorApiError,
    Unauthorized,
    UriTooLong,
)

# What the upstream's Node server reads of a request head (16 KiB). Larger
# requests are refused with the envelope here, before anything parses them;
# the app server itself refuses a URI over 64 KiB, a head over its buffer
# (--http1-buffer-size) or more than 100 header lines, without a body.
MAX_URI_LENGTH = 16 * 1024
MAX_HEADERS_SIZE = 16 * 1024

API_PREFIX = "/api/"
ADMIN_PREFIX = "/admin"
# TRACE would echo a request back, cookies and credentials included: no route answers it.
REFUSED_METHOD = "TRACE"



def is_api_request(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


class MirrorApiMiddleware:
    """Applies to `/api/` paths what the upstream applies before and after every route.

    - CORS: any origin; a preflight `OPTIONS` is answered before routing.
    - TRACE is 405, here and on every other path.
    - Outside `/api/`, a NUL character in the path or the query is a 400: the admin hands
      both to PostgreSQL (object ids, list filters), whose text refuses NUL; the API's
      parameters refuse it as they are validated (`apps.common.query.filters`).
    - A URI longer than MAX_URI_LENGTH is a 414, headers larger than
      MAX_HEADERS_SIZE a 431.
    - HTTP Basic users from `MIRROR["USERS"]` get their own page-size maximum
      (`request.mirror_limit_max`); a header naming no user is a 401.
    - A `Host` not in ALLOWED_HOSTS is Django's 400, and an answer carries its
      `Content-Length`: all Django's CommonMiddleware did for the API (its other duties
      are off here: no slash appended, no `www.` prepended, no user agent barred), without
      its building the request's full path twice.
    - Responses allow any origin (CORS), and carry the constant headers Django's
      SecurityMiddleware would add (`security_headers`): that middleware is in the API chain
      only where it redirects to HTTPS or sends HSTS (`handlers.api_middleware`).
    - An error escaping a view still answers the JSON error envelope.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.constant_headers = (("Access-Control-Allow-Origin", "*"), *security_headers())

    def __call__(self, request):
        if not is_api_request(request):
            if request.method == REFUSED_METHOD:
                return method_not_allowed(_allowed_methods(request.path_info))
            if "\x00" in request.path_info or "%00" in request.META.get("QUERY_STRING", ""):
                return error_response(BadRequest())
            return self.get_response(request)
        if request.method == "OPTIONS":
            response = _preflight_response(request)
        elif request.method == REFUSED_METHOD:
            response = method_not_allowed(_allowed_methods(request.path_info))
        else:
            try:
                if (error := oversize_error(request.META)) is not None:
                    raise error
                request.mirror_limit_max = _authenticated_limit(request.META.get("HTTP_AUTHORIZATION"))
            except MirrorApiError as error:
                response = error_response(error)
            else:
                response = self._answer(request)
        # No API answer sets these itself.
        for name, value in self.constant_headers:
            response[name] = value
        return response

    def _answer(self, request):
        try:
            _check_host(request)
        except DisallowedHost as error:
            return response_for_exception(request, error)
        response = self.get_response(request)
        if not response.streaming and not response.has_header("Content-Length"):
            response.headers["Content-Length"] = str(len(response.content))
        return response

    def process_exception(self, request, exception):
        if is_api_request(request):
            return error_response(exception)
        return None


def _preflight_response(request) -> HttpResponse:
    response = HttpResponse(status=204)
    response["Access-Control-Allow-Methods"] = "GET,HEAD,PUT,PATCH,POST,DELETE"
    if requested := request.headers.get("Access-Control-Request-Headers"):
        response["Access-Control-Allow-Headers"] = requested
    response["Vary"] = "Access-Control-Request-Headers"
    return response




def _allowed_methods(path_info: str) -> tuple[str, ...]:
    """The methods the route at `path_info` answers: a DRF route's (a viewset's actions, an
    API view's handlers), a view's that declares them (`read_only`), the admin's forms'."""
    try:
        view = resolve(path_info).func
    except Resolver404:
        return READ_METHODS
    if actions := getattr(view, "actions", None):
        methods = {*actions, "options"}
    elif view_class := getattr(view, "view_class", None):
        methods = {name for name in view_class.http_method_names if hasattr(view_class, name)} - {"trace"}
    elif path_info.startswith(ADMIN_PREFIX):
        return (*READ_METHODS, "POST")
    else:
        return getattr(view, "allowed_methods", READ_METHODS)
    if "get" in methods:
        methods.add("head")
    return tuple(sorted(name.upper() for name in methods))


def _check_host(request) -> None:
    """Raises DisallowedHost for a `Host` not in ALLOWED_HOSTS, as `request.get_host()` does.

    Clients send the same few names: a name `get_host` accepted is remembered with the
    settings it was checked against (up to MAX_ALLOWED_HOSTS_KEPT of them), sparing the
    parse and match. Anything else takes `get_host` itself."""
    host = request.META.get("HTTP_HOST")
    if host is None or settings.USE_X_FORWARDED_HOST:
        request.get_host()
        return
    key = (host, tuple(settings.ALLOWED_HOSTS), settings.DEBUG)
    if key not in _allowed_hosts:
        request.get_host()
        if len(_allowed_hosts) < MAX_ALLOWED_HOSTS_KEPT:
            _allowed_hosts.add(key)


MAX_ALLOWED_HOSTS_KEPT = 256
_allowed_hosts: set[tuple] = set()


def security_headers() -> list[tuple[str, str]]:
    """The headers Django's SecurityMiddleware, as configured, adds to any answer (nosniff,
    referrer and opener policies): those it adds to an empty response. HSTS, which depends on
    the request, is left to it (`handlers.api_middleware`)."""
    bare = HttpResponse()
    middleware = SecurityMiddleware(lambda request: bare)
    middleware.sts_seconds = 0
    secured = middleware.process_response(None, HttpResponse())
    return [(name, value) for name, value in secured.items() if not bare.has_header(name)]


def oversize_error(meta: dict) -> MirrorApiError | None:
    """The error for a request (its WSGI environ) larger than the service reads, if it is."""
    if len(meta.get("PATH_INFO", "")) + len(meta.get("QUERY_STRING", "")) > MAX_URI_LENGTH:
        return UriTooLong()
    header_bytes = sum(len(name) + len(value) for name, value in meta.items() if name.startswith("HTTP_"))
    if header_bytes > MAX_HEADERS_SIZE:
        return HeadersTooLarge()
    return None


def _authenticated_limit(header: str | None) -> int | None:
    if not header:
        return None
    username, password = _basic_credentials(header)
    for user in settings.MIRROR["USERS"]:
        if user["username"] == username and user["password"] == password:
            limit = user.get("limit")
            return limit if limit and limit > 0 else None
    raise Unauthorized("Invalid credentials")


def _basic_credentials(header: str) -> tuple[str, str]:
    scheme, _, encoded = header.partition(" ")
    if scheme != "Basic":
        raise Unauthorized("Invalid Authorization header format")
    # Decoded as leniently as Node's Buffer: missing padding is fine and bytes
    # that are not UTF-8 become replacement characters (and match no user).
    try:
        decoded = base64.b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8", errors="replace")
    except binascii.Error:
        raise Unauthorized("Invalid Authorization header format") from None
    username, colon, password = decoded.partition(":")
    if not colon or not username:
        raise Unauthorized("Invalid Authorization header format")
    return username, password


def site_only(middleware_class: type) -> type:
    """A subclass of `middleware_class` that lets API requests pass straight through.

    The API is anonymous, stateless and read-only: sessions, users, CSRF tokens,
    messages and frame options would only cost time on each of its requests.
    The admin and other site pages keep them. A subclass, so Django's checks
    still find the middleware the admin needs.
    """

    class SiteOnlyMiddleware(middleware_class):
        def __call__(self, request):
            if is_api_request(request):
                return self.get_response(request)
            return super().__call__(request)

    for hook in ("process_view", "process_exception", "process_template_response"):
        if hasattr(middleware_class, hook):
            setattr(SiteOnlyMiddleware, hook, _site_only_hook(middleware_class, hook))
    SiteOnlyMiddleware.__name__ = SiteOnlyMiddleware.__qualname__ = f"Site{middleware_class.__name__}"
    return SiteOnlyMiddleware


def _site_only_hook(middleware_class: type, name: str):
    site_hook = getattr(middleware_class, name)

    def hook(self, request, *args):
        if is_api_request(request):
            return None
        return site_hook(self, request, *args)

    return hook


class PagePolicyMiddleware(XFrameOptionsMiddleware):
    """Django's X-Frame-Options, and the pages' Content-Security-Policy, on every answer."""

    def process_response(self, request, response):
        response.headers.setdefault("Content-Security-Policy", PAGE_CONTENT_SECURITY_POLICY)
        return super().process_response(request, response)


# Listed in settings.MIDDLEWARE in place of the classes they extend.
SiteSessionMiddleware = site_only(SessionMiddleware)
SiteCommonMiddleware = site_only(CommonMiddleware)
SiteCsrfViewMiddleware = site_only(CsrfViewMiddleware)
SiteAuthenticationMiddleware = site_only(AuthenticationMiddleware)
SiteMessageMiddleware = site_only(MessageMiddleware)
SitePagePolicyMiddleware = site_only(PagePolicyMiddleware)
