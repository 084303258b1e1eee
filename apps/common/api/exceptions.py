"""The error envelope: every failure answers `{"_status": {"messages": [...]}}`.

Raise `InvalidArgument` (400) or `NotFound` (404) from selectors, filtersets or
views; database failures become 503 `Service unavailable`, a request Django
refuses as malformed 400 `Bad request`, one too large 414 or 431, anything else
500 `Internal error`, never an HTML page.
"""

import logging
from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation, TooManyFieldsSent
from django.db import DatabaseError
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

from apps.common.observability import report_database_failure

logger = logging.getLogger("apps.common")


class MirrorApiError(Exception):
    """`messages` are texts, or `{"message", "detail"}` objects when a text alone does not say enough."""

    status_code = 500

    def __init__(self, *messages: str | dict):
        super().__init__(*messages)
        self.messages = list(messages)


class InvalidArgument(MirrorApiError):
    status_code = 400

    @classmethod
    def for_params(cls, *names: str) -> "InvalidArgument":
        return cls(*(f"Invalid parameter: {name}" for name in names))

    @classmethod
    def with_detail(cls, name: str, detail: str) -> "InvalidArgument":
        return cls({"message": f"Invalid parameter: {name}", "detail": detail})


class NotFound(MirrorApiError):
    status_code = 404

    def __init__(self, message: str = "Not found"):
        super().__init__(message)


class Unauthorized(MirrorApiError):
    status_code = 401


class TooManyParameters(InvalidArgument):
    def __init__(self, limit: int):
        super().__init__(f"Parameter limit exceeded. Only {limit} parameters allowed.")


class DetailedError(MirrorApiError):
    """An error as the upstream's Java service words it: the HTTP reason phrase
    as `message`, the explanation as `detail`."""

    def __init__(self, status_code: int, detail: str):
        super().__init__({"message": HTTPStatus(status_code).phrase, "detail": detail})
        self.status_code = status_code


class UriTooLong(MirrorApiError):
    status_code = 414

    def __init__(self):
        super().__init__("URI too long")


class HeadersTooLarge(MirrorApiError):
    status_code = 431

    def __init__(self):
        super().__init__("Request header fields too large")


class MethodNotAllowed(MirrorApiError):
    """A method the service refuses wherever it is sent (TRACE), or one a route outside
    the upstream's API does not answer (`/health/...`). The upstream's routes answer other
    methods 404, as Express does."""

    status_code = 405

    def __init__(self):
        super().__init__("Method not allowed")


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
