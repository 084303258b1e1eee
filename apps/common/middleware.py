import base64
import binascii

from django.conf import settings

from apps.common.api.exceptions import Unauthorized, error_response


class MirrorApiMiddleware:
    """Applies to `/api/` paths what the upstream applies before and after every route.

    - HTTP Basic users from `MIRROR["USERS"]` get their own page-size maximum
      (`request.mirror_limit_max`); a header naming no user is a 401.
    - Responses allow any origin (CORS).
    - An error escaping a view still answers the JSON error envelope.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        try:
            request.mirror_limit_max = _authenticated_limit(request.headers.get("Authorization"))
        except Unauthorized as error:
            response = error_response(error)
        else:
            response = self.get_response(request)
        response["Access-Control-Allow-Origin"] = "*"
        return response

    def process_exception(self, request, exception):
        if request.path.startswith("/api/"):
            return error_response(exception)
        return None


def _authenticated_limit(header: str | None) -> int | None:
    if header is None:
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
    try:
        decoded = base64.b64decode(encoded).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise Unauthorized("Invalid Authorization header format") from None
    username, colon, password = decoded.partition(":")
    if not colon or not username:
        raise Unauthorized("Invalid Authorization header format")
    return username, password
