"""The error envelope: every failure answers `{"_status": {"messages": [...]}}`.

Raise `InvalidArgument` (400) or `NotFound` (404) from selectors, filtersets or
views; database failures become 503 `Service unavailable`, a request Django
refuses as malformed 400 `Bad request`, one too large 414 or 431, anything else
500 `Internal error`, never an HTML page.
"""

import logging

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    PermissionDenied,
    SuspiciousOperation,
    TooManyFieldsSent,
)
from django.db import DatabaseError
from django.http import Http404, HttpResponse, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

from apps.common.errors import MethodNotAllowed, MirrorApiError, TooManyParameters
from apps.common.observability import report_database_failure

logger = logging.getLogger("apps.common")


def error_body(*messages: str | dict) -> dict:
    return {
        "_status": {
            "messages": [message if isinstance(message, dict) else {"message": message} for message in messages]
        }
    }


def error_status_and_messages(exc: Exception) -> tuple[int, list[str | dict]]:
    if isinstance(exc, MirrorApiError):
        return exc.status_code, exc.messages
    if isinstance(exc, (Http404, drf_exceptions.NotFound, drf_exceptions.MethodNotAllowed)):
        # Express answers an unrouted method or path alike: 404.
        return 404, ["Not found"]
    if isinstance(exc, drf_exceptions.ParseError):
        return 400, [str(exc.detail)]
    if isinstance(exc, TooManyFieldsSent):
        return error_status_and_messages(TooManyParameters(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS))
    if isinstance(exc, (BadRequest, SuspiciousOperation)):
        return 400, ["Bad request"]
    if isinstance(exc, PermissionDenied):
        return 403, ["Forbidden"]
    if isinstance(exc, DatabaseError):
        report_database_failure(exc)
        return 503, ["Service unavailable"]
    logger.exception("unhandled error", exc_info=exc)
    return 500, ["Internal error"]


def mirror_exception_handler(exc: Exception, context: dict) -> Response:
    status, messages = error_status_and_messages(exc)
    return _logged_once(Response(error_body(*messages), status=status), exc)


def error_response(exc: Exception) -> JsonResponse:
    """The envelope for errors raised outside DRF views (routing, middleware)."""
    status, messages = error_status_and_messages(exc)
    response = JsonResponse(
        error_body(*messages),
        status=status,
        content_type="application/json; charset=utf-8",
        json_dumps_params={"separators": (",", ":")},
    )
    return _logged_once(response, exc)


def _logged_once(response, exc: Exception):
    """A database failure was logged as it was reported: Django's line for the 503 would
    repeat it for every request of an outage."""
    if isinstance(exc, DatabaseError):
        response._has_been_logged = True
    return response


READ_METHODS = ("GET", "HEAD")

def method_not_allowed(allowed_methods: tuple[str, ...]) -> HttpResponse:
    """405 in the envelope; `Allow` names the methods the resource answers."""
    response = error_response(MethodNotAllowed())
    response["Allow"] = ", ".join(allowed_methods)
    return response
