import re

from django.http import HttpResponse
from rest_framework import viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.exceptions import DetailedError
from apps.common.api.views import AcyclicViewMixin
from apps.common.codecs import MAX_LONG
from apps.common.java import JavaQuery, bad_request, conversion_error, java_next_link
from apps.common.pagination import link_header
from apps.network import selectors
from apps.network.api import serializers
from apps.network.filtersets import node_criteria, supply_type, timestamp_bound, timestamp_comparisons
from apps.network.protobuf import parse_exchange_rate_set, parse_fee_schedules

#
# GET /network/exchangerate, /fees, /nodes, /stake, /supply (the upstream's Java NetworkController)
#

CACHE_CONTROL_NETWORK = "public, max-age=60"


def system_file(file_num: int, bound, parse) -> selectors.SystemFile:
    found = selectors.latest_system_file(
        file_num,
        lower=0 if bound.lower is None else bound.lower,
        upper=MAX_LONG if bound.upper is None else bound.upper,
        parse=parse,
    )
    if found is None:
        raise DetailedError(404, f"File 0.0.{file_num} not found")
    return found


class NetworkViewSet(AcyclicViewMixin, viewsets.ViewSet):
    """Errors as the Java service words them; every answer cached for a minute."""

    # What each route reads from its query, for our OpenAPI document.
    query_parameters = {
        "estimate_fee": ("high_volume_throttle", "mode"),
        "exchangerate": ("timestamp",),
        "fees": ("order", "timestamp"),
        "nodes": ("file.id", "limit", "node.id", "order"),
        "stake": (),
        "supply": ("q", "timestamp"),
    }
    # `/network/supply?q=` answers the figure alone, in hbars, as text.
    text_answers = {"supply": {"type": "string", "pattern": r"^\d+\.\d{8}$"}}
    # The routes answering one object, absent (404) when its file or row is missing.
    detail_actions = ("exchangerate", "fees", "stake", "supply")
    # The fee estimate's body and its other refusals, for our OpenAPI document.
    request_media_types = {"estimate_fee": ("application/protobuf", "application/x-protobuf")}
    error_statuses = {"estimate_fee": (404, 413, 415)}

    def estimate_fee(self, request):
        """POST `/network/fees`: the fee estimation view answers, on the same route as the
        gas prices of GET."""
        return _estimate_fee(request._request)

    def exchangerate(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        bound = timestamp_bound(query, timestamp_comparisons(query))
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        return self.answer(serializers.exchange_rate_set(rates.data, rates.consensus_timestamp))

    def fees(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        comparisons = timestamp_comparisons(query)
        order = query.order()
        bound = timestamp_bound(query, comparisons)
        schedules = system_file(selectors.FEE_SCHEDULE_FILE, bound, parse_fee_schedules)
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        reference = schedules.consensus_timestamp if bound.upper is None else bound.upper
        return self.answer(serializers.network_fees(schedules, rates, reference=reference, order=order))

    def nodes(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        criteria = node_criteria(query)
        rows = selectors.network_nodes(criteria=criteria) if criteria is not None else []
        link = None
        if criteria is not None and rows:
            link = java_next_link(
                request.path,
                query,
                criteria.order,
                [("node.id", str(rows[-1]["node_id"]))],
                paged_params=("node.id",),
                limit=criteria.limit,
                count=len(rows),
            )
        return self.answer({"nodes": [serializers.network_node(row) for row in rows], "links": {"next": link}})

    def stake(self, request):
        stake = selectors.network_stake_latest()
        if stake is None:
            raise DetailedError(404, "No network stake data found")
        return self.answer(serializers.network_stake(stake))

    def supply(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        comparisons = timestamp_comparisons(query)
        kind = supply_type(query)
        bound = timestamp_bound(query, comparisons)
        supply = selectors.unreleased_supply(lower=bound.lower, upper=bound.upper)
        if supply.consensus_timestamp == 0:
            raise DetailedError(404, "Network supply not found")
        if kind is None:
            return self.answer(serializers.network_supply(supply))
        tinybars = serializers.TOTAL_SUPPLY if kind == "totalcoins" else serializers.TOTAL_SUPPLY - supply.unreleased
        return HttpResponse(serializers.hbars(tinybars), content_type="text/plain;charset=UTF-8")

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if 200 <= response.status_code < 300:
            response["Cache-Control"] = CACHE_CONTROL_NETWORK
            next_link = (getattr(response, "data", None) or {}).get("links", {}).get("next")
            if next_link:
                response["Link"] = link_header(next_link)
        return response


#
# POST /network/fees: fee estimation of a protobuf HAPI transaction (FEES.md)
#

FEE_ESTIMATE_MEDIA_TYPES = frozenset(NetworkViewSet.request_media_types["estimate_fee"])
FEE_ESTIMATE_MAX_BODY = 1024 * 1024
FEE_ESTIMATE_CACHE_CONTROL = "public, max-age=60"
FEE_ESTIMATE_MODES = ("INTRINSIC", "STATE")
MAX_HIGH_VOLUME_THROTTLE = 10_000
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
_JAVA_HEX_INT = re.compile(r"([+-]?)(?:0[xX]|#)([0-9a-fA-F]+)")


class FeeEstimateView(AcyclicViewMixin, APIView):
    """POST only; the GET of the same path (the fee schedule) is another view."""

    def post(self, request):
        body = _request_body(request)
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        state_mode = _estimate_mode(query.single("mode")) == "STATE"
        throttle = _java_int(query.single("high_volume_throttle"), "high_volume_throttle")
        if throttle < 0:
            raise bad_request("highVolumeThrottle must be greater than or equal to 0")
        if throttle > MAX_HIGH_VOLUME_THROTTLE:
            raise bad_request(f"highVolumeThrottle must be less than or equal to {MAX_HIGH_VOLUME_THROTTLE}")
        # Imported on the first estimate: the SDK's import is slow and no other route needs it.
        from apps.network.fee_estimation import estimate_fees, parse_transaction
        from apps.network.fee_schedule import current_simple_fee_schedule
        from apps.network.selectors import MirrorFeeState

        transaction = parse_transaction(body)
        estimate = estimate_fees(
            current_simple_fee_schedule(),
            transaction,
            ledger=MirrorFeeState() if state_mode else None,
            high_volume_throttle=throttle,
        )
        return Response(estimate, headers={"Cache-Control": FEE_ESTIMATE_CACHE_CONTROL})


def _request_body(request) -> bytes:
    content_type = request.META.get("CONTENT_TYPE", "")
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type not in FEE_ESTIMATE_MEDIA_TYPES:
        raise DetailedError(415, f"Content-Type '{_spring_media_type(content_type)}' is not supported")
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > FEE_ESTIMATE_MAX_BODY:
        raise DetailedError(413, f"Request body exceeds {FEE_ESTIMATE_MAX_BODY} bytes")
    body = request.body
    if not body:
        raise bad_request("Failed to read request")
    return body


def _spring_media_type(content_type: str) -> str:
    """The media type as Spring prints it: type/subtype lower-cased, `;name=value` parameters."""
    if not content_type.strip():
        return "application/octet-stream"
    media_type, *parameters = (part.strip() for part in content_type.split(";"))
    printed = [media_type.lower()]
    for parameter in parameters:
        name, equals, value = parameter.partition("=")
        if equals:
            printed.append(f"{name.strip()}={value.strip()}")
    return ";".join(printed)


def _estimate_mode(text: str | None) -> str:
    """As Spring's lenient enum binding reads it: the exact name, or the same letters and
    digits in any case (`state`, `S-t_ate`)."""
    if text is None or not text.strip():
        return "INTRINSIC"
    text = text.strip()
    if text in FEE_ESTIMATE_MODES:
        return text
    letters = "".join(character for character in text if character.isalnum()).lower()
    for mode in FEE_ESTIMATE_MODES:
        if mode.lower() == letters:
            return mode
    raise conversion_error("mode")


def _java_int(text: str | None, name: str) -> int:
    """A Java int as Spring converts it: whitespace anywhere ignored, decimal or `0x`/`#` hex."""
    if text is None:
        return 0
    text = "".join(text.split())
    if hex_match := _JAVA_HEX_INT.fullmatch(text):
        value = int(hex_match[2], 16) * (-1 if hex_match[1] == "-" else 1)
    elif _JAVA_INT.fullmatch(text):
        value = int(text)
    else:
        raise conversion_error(name)
    if not -(1 << 31) <= value < 1 << 31:
        raise conversion_error(name)
    return value


_estimate_fee = FeeEstimateView.as_view()
