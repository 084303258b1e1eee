from django.urls import re_path

from apps.network.api.views import FeeEstimateView

app_name = "network-api"

urlpatterns = [
    # Unnamed: the landing page links every named route, and a browser's GET of this POST-only one is a 404.
    re_path(r"^network/fees/?$", FeeEstimateView.as_view()),
]
