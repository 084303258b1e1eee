"""Read-only admin for the registered nodes: the network's block nodes, mirror nodes, RPC relays
and other services, each with its service endpoints.

The list shows the rows `/api/v1/network/registered-nodes` reads, deleted ones too; the search
box takes a registered node id (`5`).
"""

import json

from django.contrib import admin

from apps.common.admin import MirrorModelAdmin, column, display_timestamp
from apps.common.ledger.codecs import format_timestamp, parse_positive_long
from apps.network.models import RegisteredNode, RegisteredNodeType


def display_types(types: list[int] | None) -> str | None:
    """`BLOCK_NODE, MIRROR_NODE`; a number no type has as itself."""
    if types is None:
        return None
    names = {node_type.value: node_type.name for node_type in RegisteredNodeType}
    return ", ".join(names.get(node_type, str(node_type)) for node_type in types)


def display_range(timestamps) -> str | None:
    """`[1700000000.000000001, …)`, the timestamps as the API prints them."""
    if timestamps is None:
        return None
    return f"[{format_timestamp(timestamps.lower)}, {format_timestamp(timestamps.upper) or '…'})"


def display_json(value) -> str | None:
    return None if value is None else json.dumps(value, indent=1, sort_keys=True)


@admin.register(RegisteredNode)
class RegisteredNodeAdmin(MirrorModelAdmin):
    list_display = (
        "registered_node_id",
        "description",
        column("type", display_types),
        column("created_timestamp", display_timestamp, description="created", sortable=True),
        "deleted",
    )
    list_filter = ("deleted",)
    search_fields = ("registered_node_id",)
    search_help_text = "Registered node id (5)"
    ordering = ("registered_node_id",)
    list_per_page = 50
    column_displays = {
        "created_timestamp": display_timestamp,
        "service_endpoints": display_json,
        "timestamp_range": display_range,
        "type": display_types,
    }

    def get_search_results(self, request, queryset, search_term):
        """A registered node id selects that node; anything else nothing."""
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            return queryset.filter(registered_node_id=parse_positive_long(term, allow_zero=True)), False
        except ValueError:
            return queryset.none(), False
