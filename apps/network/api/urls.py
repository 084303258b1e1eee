from django.urls import re_path

from apps.network.api.views import NetworkViewSet

app_name = "network-api"

# GET only: `network/fees` also answers POST (fee estimation), registered with its own view.
urlpatterns = [
    re_path(rf"^network/{action}/?$", NetworkViewSet.as_view({"get": action}), name=f"network-{action}")
    for action in ("exchangerate", "fees", "nodes", "stake", "supply")
]
