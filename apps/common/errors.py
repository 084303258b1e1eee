"""The errors a request can end in, raised anywhere below the API (selectors, queries,
codecs) and rendered by the API's error envelope (`apps.common.api.exceptions`)."""

from http import HTTPStatus


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


class TooManyValues(InvalidArgument):
    def __init__(self, limit: int):
        super().__init__(f"Array limit exceeded. Only {limit} element{'' if limit == 1 else 's'} allowed in an array.")


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
