"""Entity tags, as the upstream's Java service sends them: on a GET or HEAD answered 2xx
(unless its `Cache-Control` says `no-store`), `ETag` is `"0` and the MD5 of the body in hex,
closed by `"`; a 200 whose tag the request's `If-None-Match` names (any of its tags, weak or
strong, or `*`) is answered 304 with the same headers and no body. A route opts in with
`entity_tags = True` on its view (those the upstream serves from that service)."""

import hashlib

from django.http import HttpRequest, HttpResponse

CONDITIONAL_METHODS = frozenset({"GET", "HEAD"})


def entity_tag(body: bytes) -> str:
    return f'"0{hashlib.md5(body, usedforsecurity=False).hexdigest()}"'


def tag(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """`response` with its `ETag`, or made a 304 when the request already holds that tag."""
    if (
        request.method not in CONDITIONAL_METHODS
        or not 200 <= response.status_code < 300
        or response.streaming
        or "no-store" in response.get("Cache-Control", "")
    ):
        return response
    value = response["ETag"] = entity_tag(response.content)
    if response.status_code == 200 and _names(request.META.get("HTTP_IF_NONE_MATCH", ""), value):
        response.status_code = 304
        response.content = b""
        if response.has_header("Content-Length"):
            del response["Content-Length"]
    return response


def _names(if_none_match: str, value: str) -> bool:
    """Whether an `If-None-Match` header names the tag (compared weakly, as for a GET)."""
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == value:
            return True
    return False
