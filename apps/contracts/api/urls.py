from django.urls import re_path

from apps.common.api.routers import MirrorRouter
from apps.contracts.api.views import ContractStateViewSet, ContractViewSet

app_name = "contracts-api"

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------
# `contracts/{id}` must come after every literal `contracts/results...` route.
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

urlpatterns = [*contract_routes]
