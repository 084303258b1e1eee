from django.urls import re_path

from apps.network.api.views import NetworkViewSet, RegisteredNodeViewSet

app_name = "network-api"

# `network/nodes` is the list; `network/fees` answers GET (gas prices from the fee schedule)
# and POST (fee estimation).
METHODS = {"nodes": {"get": "list"}, "fees": {"get": "fees", "post": "estimate_fee"}}

urlpatterns = [
    *(
        re_path(
            rf"^network/{action}/?$",
            NetworkViewSet.as_view(METHODS.get(action, {"get": action})),
            name=f"network-{action}",
        )
        for action in ("exchangerate", "fees", "nodes", "stake", "supply")
    ),
    re_path(
        r"^network/registered-nodes/?$",
        RegisteredNodeViewSet.as_view({"get": "list"}),
        name="network-registered-nodes",
    ),
]
