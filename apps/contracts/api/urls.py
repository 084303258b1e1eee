from django.urls import re_path

from apps.contracts.api.views import AllContractLogViewSet, ContractLogViewSet

app_name = "contracts-api"

# --- Logs (literal `results/logs` before any `{id}` pattern) ---
urlpatterns = [
    re_path(r"^contracts/results/logs/?$", AllContractLogViewSet.as_view({"get": "list"}), name="contract-logs"),
    re_path(
        r"^contracts/(?P<contract_id_or_address>[^/]+)/results/logs/?$",
        ContractLogViewSet.as_view({"get": "list"}),
        name="contract-log-list",
    ),
]
