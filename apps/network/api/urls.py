from django.urls import re_path

from apps.network.api.views import FeeEstimateView

app_name = "network-api"

urlpatterns = [
    re_path(r"^network/fees/?$", FeeEstimateView.as_view(), name="network-fees-estimate"),
]
