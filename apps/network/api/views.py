from django.http import HttpResponse
from rest_framework import viewsets
from rest_framework.response import Response

from apps.common.api.exceptions import DetailedError
from apps.common.codecs import MAX_LONG
from apps.common.java import JavaQuery, java_next_link
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


class NetworkViewSet(viewsets.ViewSet):
    """Errors as the Java service words them; every answer cached for a minute."""

    # What each route reads from its query, for our OpenAPI document.
    query_parameters = {
        "exchangerate": ("timestamp",),
        "fees": ("order", "timestamp"),
        "nodes": ("file.id", "limit", "node.id", "order"),
        "stake": (),
        "supply": ("q", "timestamp"),
    }
    # The routes answering one object, absent (404) when its file or row is missing.
    detail_actions = ("exchangerate", "fees", "stake", "supply")

    def exchangerate(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        bound = timestamp_bound(query, timestamp_comparisons(query))
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        return Response(serializers.exchange_rate_set(rates.data, rates.consensus_timestamp))

    def fees(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        comparisons = timestamp_comparisons(query)
        order = query.order()
        bound = timestamp_bound(query, comparisons)
        schedules = system_file(selectors.FEE_SCHEDULE_FILE, bound, parse_fee_schedules)
        rates = system_file(selectors.EXCHANGE_RATE_FILE, bound, parse_exchange_rate_set)
        reference = schedules.consensus_timestamp if bound.upper is None else bound.upper
        return Response(serializers.network_fees(schedules, rates, reference=reference, order=order))

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
        return Response({"nodes": [serializers.network_node(row) for row in rows], "links": {"next": link}})

    def stake(self, request):
        stake = selectors.network_stake_latest()
        if stake is None:
            raise DetailedError(404, "No network stake data found")
        return Response(serializers.network_stake(stake))

    def supply(self, request):
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        comparisons = timestamp_comparisons(query)
        kind = supply_type(query)
        bound = timestamp_bound(query, comparisons)
        supply = selectors.unreleased_supply(lower=bound.lower, upper=bound.upper)
        if supply.consensus_timestamp == 0:
            raise DetailedError(404, "Network supply not found")
        if kind is None:
            return Response(serializers.network_supply(supply))
        tinybars = serializers.TOTAL_SUPPLY if kind == "totalcoins" else serializers.TOTAL_SUPPLY - supply.unreleased
        return HttpResponse(serializers.hbars(tinybars), content_type="text/plain;charset=UTF-8")

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if 200 <= response.status_code < 300:
            response["Cache-Control"] = CACHE_CONTROL_NETWORK
            next_link = (getattr(response, "data", None) or {}).get("links", {}).get("next")
            if next_link:
                response["Link"] = f'<{next_link}>; rel="next"'
        return response
