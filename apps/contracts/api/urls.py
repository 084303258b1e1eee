from django.urls import re_path

from apps.common.api.routers import MirrorRouter
from apps.contracts.api.views import AllContractLogViewSet, ContractLogViewSet, ContractStateViewSet, ContractViewSet

app_name = "contracts-api"

# Literal segments (`results`, `logs`) come before the `{id}` patterns they would otherwise match.

# --- Logs ---
log_routes = [
    re_path(r"^contracts/results/logs/?$", AllContractLogViewSet.as_view({"get": "list"}), name="contract-logs"),
    re_path(
        r"^contracts/(?P<contract_id_or_address>[^/]+)/results/logs/?$",
        ContractLogViewSet.as_view({"get": "list"}),
        name="contract-log-list",
    ),
]

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------
router = MirrorRouter()
router.register("contracts", ContractViewSet, basename="contract")
contract_routes = [
    re_path(
        r"^contracts/(?P<contract_id_or_address>[^/]+)/state/?$",
        ContractStateViewSet.as_view({"get": "list"}),
        name="contract-state",
    ),
    *router.urls,
]

urlpatterns = [*log_routes, *contract_routes]
