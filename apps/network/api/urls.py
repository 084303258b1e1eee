from django.urls import re_path

from apps.network.api.views import NetworkViewSet, network_fees

app_name = "network-api"

urlpatterns = [
    re_path(rf"^network/{action}/?$", NetworkViewSet.as_view({"get": action}), name=f"network-{action}")
    for action in ("exchangerate", "nodes", "stake", "supply")
]
# GET: gas prices from the fee schedule; POST: fee estimation of a transaction.
urlpatterns.append(re_path(r"^network/fees/?$", network_fees, name="network-fees"))
