from django.urls import re_path

from apps.contracts.api.views import ContractResultByTransactionViewSet, ContractResultViewSet

app_name = "contracts-api"

# --- contract results and actions (part B) ----------------------------------------------------
# Literal segments (`results`, `logs`, `actions`, `opcodes`) come before the `{id}` patterns they shadow.
_results = ContractResultViewSet.as_view
_by_transaction = ContractResultByTransactionViewSet.as_view
results_urlpatterns = [
    re_path(r"^contracts/results/?$", _results({"get": "list_all"}), name="contract-results"),
    re_path(
        r"^contracts/results/(?P<transaction_id_or_hash>(?!logs/?$)[^/]+)/actions/?$",
        _by_transaction({"get": "actions"}),
        name="contract-actions",
    ),
    re_path(
        r"^contracts/results/(?P<transaction_id_or_hash>[^/]+)/opcodes/?$",
        _by_transaction({"get": "opcodes"}),
        name="contract-opcodes",
    ),
    # The interface description also names the opcodes route under `/contracts/{transactionIdOrHash}`.
    re_path(
        r"^contracts/(?P<transaction_id_or_hash>[^/]+)/results/opcodes/?$",
        _by_transaction({"get": "opcodes"}),
        name="contract-opcodes-alias",
    ),
    re_path(
        r"^contracts/results/(?P<transaction_id_or_hash>(?!logs/?$)[^/]+)/?$",
        _by_transaction({"get": "retrieve"}),
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
# --- end contract results and actions ---------------------------------------------------------

urlpatterns = [*results_urlpatterns]
