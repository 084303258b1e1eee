from django.urls import re_path

from apps.common.api.routers import MirrorRouter
from apps.contracts.api.call_views import contract_call_view, opcodes_view
from apps.contracts.api.views import (
    AllContractLogViewSet,
    AllContractResultViewSet,
    ContractActionViewSet,
    ContractLogViewSet,
    ContractResultByTransactionViewSet,
    ContractResultViewSet,
    ContractStateViewSet,
    ContractViewSet,
)

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

# --- Contract results and actions ---
# Literal segments (`results`, `logs`, `actions`, `opcodes`) come before the `{id}` patterns they shadow.
_results = ContractResultViewSet.as_view
results_urlpatterns = [
    re_path(r"^contracts/results/?$", AllContractResultViewSet.as_view({"get": "list"}), name="contract-results"),
    re_path(
        r"^contracts/results/(?P<transaction_id_or_hash>(?!logs/?$)[^/]+)/actions/?$",
        ContractActionViewSet.as_view({"get": "list"}),
        name="contract-actions",
    ),
    re_path(r"^contracts/results/(?P<transaction_id_or_hash>[^/]+)/opcodes/?$", opcodes_view, name="contract-opcodes"),
    # The interface description also names the opcodes route under `/contracts/{transactionIdOrHash}`.
    re_path(
        r"^contracts/(?P<transaction_id_or_hash>[^/]+)/results/opcodes/?$", opcodes_view, name="contract-opcodes-alias"
    ),
    re_path(
        r"^contracts/results/(?P<transaction_id_or_hash>(?!logs/?$)[^/]+)/?$",
        ContractResultByTransactionViewSet.as_view({"get": "retrieve"}),
        name="contract-result-by-transaction",
    ),
    re_path(
        r"^contracts/(?P<contract>[^/]+)/results/?$", _results({"get": "list"}), name="contract-results-by-id"
    ),
    re_path(
        r"^contracts/(?P<contract>[^/]+)/results/(?P<timestamp>(?!logs/?$)[^/]+)/?$",
        _results({"get": "retrieve"}),
        name="contract-result-by-timestamp",
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

# --- contract execution (web3): before `/contracts/{id}`, which would take `call` ---------------
call_routes = [re_path(r"^contracts/call/?$", contract_call_view, name="contract-call")]

urlpatterns = [*log_routes, *call_routes, *results_urlpatterns, *contract_routes]
