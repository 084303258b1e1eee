from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api.views import AcyclicViewMixin, MirrorViewSet
from apps.common.errors import DetailedError
from apps.common.ledger.codecs import MAX_LONG, format_hbars
from apps.common.query.strict import bad_request
from apps.network import selectors
from apps.network.api import serializers
from apps.network.filtersets import (
    FeeEstimateFilterSet,
    FeesFilterSet,
    NodeFilterSet,
    RegisteredNodeFilterSet,
    SupplyFilterSet,
    TimestampBound,
    TimestampFilterSet,
)
from apps.network.protobuf import parse_exchange_rate_set, parse_fee_schedules

#
# GET /network/exchangerate, /fees, /nodes, /stake, /supply (the upstream's Java NetworkController)
#

CACHE_CONTROL_NETWORK = "public, max-age=60"


def system_file(file_num: int, bound: TimestampBound, parse) -> selectors.SystemFile:
    found = selectors.latest_system_file(
        file_num,
        lower=0 if bound.lower is None else bound.lower,
        upper=MAX_LONG if bound.upper is None else bound.upper,
        parse=parse,
    )
    if found is None:
        raise DetailedError(404, f"File 0.0.{file_num} not found")
    return found


@extend_schema(
    summary="List the network's nodes",
    description="The consensus nodes of an address book (the file 0.0.102 unless `file.id` names another), "
    "each with its account, description, endpoints, public key, certificate hash and stake, in order of node id.",
)
class NetworkViewSet(MirrorViewSet):
    """`/network/nodes` is the list; the other routes answer one object, their query read
    by a FilterSet of the strict dialect too. Every answer is cached for a minute."""

    filterset_class = NodeFilterSet
    selector = selectors.network_nodes
    entity_tags = True
    serializer_class = serializers.NetworkNodeSerializer
    results_key = "nodes"
    cache_control = {
        action: CACHE_CONTROL_NETWORK for action in ("list", "exchangerate", "fees", "stake", "supply", "estimate_fee")
    }

    # The FilterSet each action reads its query with, for our OpenAPI document (`stake` reads none).
    query_filtersets = {
        "estimate_fee": FeeEstimateFilterSet,
        "exchangerate": TimestampFilterSet,
        "fees": FeesFilterSet,
        "supply": SupplyFilterSet,
    }
    # `/network/supply?q=` answers the figure alone, in hbars, as text.
    text_answers = {"supply": {"type": "string", "pattern": r"^\d+\.\d{8}$"}}
    # The routes answering one object, absent (404) when its file or row is missing.
    detail_actions = ("exchangerate", "fees", "stake", "supply")
    # The fee estimate's body and its other refusals, for our OpenAPI document.
    request_media_types = {"estimate_fee": ("application/protobuf", "application/x-protobuf")}
    error_statuses = {"estimate_fee": (404, 413, 415)}

    @extend_schema(
        summary="Estimate a transaction's fees",
        description="The fees a transaction would be charged, from its HAPI protobuf bytes in the body (too "
        "large a body answers 413): from the transaction alone (`mode=INTRINSIC`) or with the ledger's state "
        "too (`mode=STATE`).",
    )
    def estimate_fee(self, request):
        """POST `/network/fees`: the fee estimation view answers, on the same route as the
        gas prices of GET."""
        return _estimate_fee(request._request)

    @extend_schema(
        summary="Get the exchange rate",
        description="The current and the next exchange rate of hbars to cents, with when each expires, from the "
        "exchange rate file (0.0.112) in force now or at `timestamp`. A missing file answers 404.",
    )
    def exchangerate(self, request):
        bound = self.query_filterset(TimestampFilterSet).timestamp_bound
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        return self.answer(serializers.exchange_rate_set(rates.data, rates.consensus_timestamp))

    @extend_schema(
        summary="Get the gas prices",
        description="The price of a unit of gas, in tinybars, of contract calls, contract creations and Ethereum "
        "transactions, from the fee schedule (0.0.111) and exchange rate (0.0.112) files in force now or at "
        "`timestamp`, in order of transaction type. A missing file answers 404.",
    )
    def fees(self, request):
        query = self.query_filterset(FeesFilterSet)
        bound = query.timestamp_bound
        schedules = system_file(selectors.FEE_SCHEDULE_FILE, bound, parse_fee_schedules)
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        reference = schedules.consensus_timestamp if bound.upper is None else bound.upper
        order = query.value("order", "asc")
        return self.answer(serializers.network_fees(schedules, rates, reference=reference, order=order))

    @extend_schema(
        summary="Get the network's stake",
        description="The network's staking figures for the latest staking period: the total stake, reward "
        "rates, fee fractions, reward balances and thresholds. It takes no query parameter. None recorded "
        "answers 404.",
    )
    def stake(self, request):
        stake = selectors.network_stake_latest()
        if stake is None:
            raise DetailedError(404, "No network stake data found")
        return self.answer(serializers.network_stake(stake))

    @extend_schema(
        summary="Get the hbar supply",
        description="The total and the released hbar supply, in tinybars, now or as of `timestamp`. With `q`, "
        "one figure alone as text, in hbars: `totalcoins` the total, `circulating` the released supply.",
    )
    def supply(self, request):
        query = self.query_filterset(SupplyFilterSet)
        bound = query.timestamp_bound
        supply = selectors.unreleased_supply(lower=bound.lower, upper=bound.upper)
        if supply.consensus_timestamp == 0:
            raise DetailedError(404, "Network supply not found")
        kind = query.value("q")
        if kind is None:
            return self.answer(serializers.network_supply(supply))
        tinybars = serializers.TOTAL_SUPPLY if kind == "totalcoins" else serializers.TOTAL_SUPPLY - supply.unreleased
        return HttpResponse(format_hbars(tinybars), content_type="text/plain;charset=UTF-8")


@extend_schema(
    summary="List registered nodes",
    description="The nodes registered with the network and not deleted (block nodes, mirror nodes, RPC relays "
    "and other services), each with its admin key, description and service endpoints, in order of registered "
    "node id.",
)
class RegisteredNodeViewSet(MirrorViewSet):
    """GET `/network/registered-nodes` (the same Java controller): the registered nodes not
    deleted, by `registered_node_id`."""

    filterset_class = RegisteredNodeFilterSet
    selector = selectors.registered_nodes
    entity_tags = True
    serializer_class = serializers.RegisteredNodeSerializer
    results_key = "registered_nodes"
    cache_control = {"list": CACHE_CONTROL_NETWORK}


#
# POST /network/fees: fee estimation of a protobuf HAPI transaction (FEES.md)
#

FEE_ESTIMATE_MEDIA_TYPES = frozenset(NetworkViewSet.request_media_types["estimate_fee"])
FEE_ESTIMATE_MAX_BODY = 1024 * 1024
FEE_ESTIMATE_CACHE_CONTROL = "public, max-age=60"


class FeeEstimateView(AcyclicViewMixin, APIView):
    """POST only; the GET of the same path (the fee schedule) is another view."""

    def post(self, request):
        body = _request_body(request)
        query = FeeEstimateFilterSet(FeeEstimateFilterSet.read_query(request.META.get("QUERY_STRING", "")))
        state_mode, throttle = query.state_mode, query.throttle
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


_estimate_fee = FeeEstimateView.as_view()
