"""Read-only admin for the registered nodes: the network's block nodes, mirror nodes, RPC relays
and other services, each with its service endpoints.

The list shows the rows `/api/v1/network/registered-nodes` reads, deleted ones too; the search
box takes a registered node id (`5`).
"""

from django.contrib import admin

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    display_each,
    display_key,
    display_timestamp,
    enum_names,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_positive_long
from apps.network.models import RegisteredNode, RegisteredNodeType

# `BLOCK_NODE, MIRROR_NODE`; a number no type has as itself.
display_types = display_each(enum_names({node_type.value: node_type.name for node_type in RegisteredNodeType}))


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
    column_displays = {
        "admin_key": display_key,
        "created_timestamp": timestamp_link("TRANSACTION"),
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
