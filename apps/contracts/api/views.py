from rest_framework.response import Response

from apps.common.api.views import MirrorViewSet
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import parse_timestamp
from apps.contracts.api.serializers import (
    ContractActionSerializer,
    ContractLogSerializer,
    ContractResultDetailsSerializer,
    ContractResultSerializer,
    ContractSerializer,
    StateSerializer,
    contract_result_details,
)
from apps.contracts.filtersets import (
    AllContractLogFilterSet,
    AllContractResultFilterSet,
    ContractActionFilterSet,
    ContractDetailFilterSet,
    ContractFilterSet,
    ContractLogFilterSet,
    ContractResultByTransactionFilterSet,
    ContractResultDetailFilterSet,
    ContractResultFilterSet,
    StateFilterSet,
    hbar_of,
    parse_transaction_path,
)
from apps.contracts.gas_price import attach_gas_prices
from apps.contracts.selectors import (
    actions,
    contract_transactions,
    contracts,
    logs,
    paths,
    results,
    state,
)

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------


class ContractViewSet(MirrorViewSet):
    filterset_class = ContractFilterSet
    detail_filterset_class = ContractDetailFilterSet
    selector = contracts.contract_list
    serializer_class = ContractSerializer
    results_key = "contracts"
    list_cache = True
    cache_control = {"list": "public, max-age=10"}
    lookup_url_kwarg = "contract_id_or_address"
    lookup_value_regex = "[^/]+"

    def retrieve(self, request, contract_id_or_address):
        contract = paths.parse_contract_detail_path(contract_id_or_address)
        timestamps = self.query_filterset(self.detail_filterset_class).timestamps
        row = contracts.contract_get(contract=contract, timestamps=timestamps)
        if row is None:
            raise NotFound()
        return self.answer(self.represent_one(row))


class ContractStateViewSet(MirrorViewSet):
    filterset_class = StateFilterSet
    selector = state.state_list
    serializer_class = StateSerializer
    results_key = "state"

    def scope(self) -> tuple:
        return (paths.contract_id_from_path(self.kwargs["contract_id_or_address"]),)


# --- Logs ---


class ContractLogViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results/logs`: the logs a contract, or an
    account with a code delegation, emitted."""

    filterset_class = ContractLogFilterSet
    selector = logs.contract_log_list
    serializer_class = ContractLogSerializer
    results_key = "logs"

    def scope(self) -> tuple:
        return (self.kwargs["contract_id_or_address"],)  # read by the FilterSet, after the query


class AllContractLogViewSet(MirrorViewSet):
    """`/contracts/results/logs`: the logs of every contract, optionally of one transaction."""

    filterset_class = AllContractLogFilterSet
    selector = logs.all_contract_log_list
    serializer_class = ContractLogSerializer
    results_key = "logs"
    cache_control = {"list": "public, max-age=10"}


# --- Contract results and actions -------------------------------------------------------------

_PARTIAL_CONTENT = 206


class ContractResultViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results[/{timestamp}]`."""

    filterset_class = ContractResultFilterSet
    detail_filterset_class = ContractResultDetailFilterSet
    selector = results.contract_result_list
    serializer_class = ContractResultSerializer
    results_key = "results"
    cache_control = {"retrieve": "public, max-age=600"}

    def scope(self) -> tuple:
        return (self.kwargs["contract"],)  # read by the FilterSet, after the query

    def retrieve(self, request, contract, timestamp):
        # This route reads `hbar` before anything else.
        hbar = hbar_of(self.query_params())
        messages = []
        try:
            contract_id = paths.contract_id_from_path(contract)
        except InvalidArgument as error:
            messages.extend(error.messages)
        try:
            consensus_timestamp = parse_timestamp(timestamp)
        except ValueError:
            messages.append("Invalid parameter: timestamp")
        if messages:
            raise InvalidArgument(*messages)
        self.validate_detail_query()
        transaction = None
        if contract_id is not None:
            transaction = contract_transactions.contract_transaction_at(
                timestamp=consensus_timestamp, entity_id=contract_id
            )
        return _result_details(transaction, state_contract_id=contract_id, hbar=hbar)


class AllContractResultViewSet(MirrorViewSet):
    """`/contracts/results`: every contract's results, with their Ethereum transactions and blocks."""

    filterset_class = AllContractResultFilterSet
    selector = results.all_contract_result_list
    serializer_class = ContractResultDetailsSerializer
    results_key = "results"
    cache_control = {"list": "public, max-age=10"}
    # A `from` EVM address naming no entity is a 404, as the upstream answers (for our OpenAPI document).
    error_statuses = {"list": (404,)}

    def get_serializer_context(self):
        # Valid here: the FilterSet checked it.
        return {**super().get_serializer_context(), "hbar": hbar_of(self.query_params())}


class ContractResultByTransactionViewSet(MirrorViewSet):
    """`/contracts/results/{transactionIdOrHash}`."""

    detail_filterset_class = ContractResultByTransactionFilterSet
    cache_control = {"retrieve": "public, max-age=600"}

    def retrieve(self, request, transaction_id_or_hash):
        filterset = self.query_filterset(self.detail_filterset_class)
        filterset.validate()
        hbar = hbar_of(filterset.params)
        key = contract_transactions.contract_transaction_named(
            parse_transaction_path(transaction_id_or_hash), nonce=filterset.value("nonce", 0)
        )
        transaction = None
        if key is not None:
            transaction = contract_transactions.contract_transaction_at(
                timestamp=key.consensus_timestamp, entity_id=key.entity_id
            )
        return _result_details(transaction, state_contract_id=None, hbar=hbar)


def _result_details(transaction, *, state_contract_id: int | None, hbar: bool) -> Response:
    """The answer of a single-result route: 206 when the result has no call result yet."""
    result = None
    if transaction is not None:
        result = results.contract_result_details(transaction=transaction, state_contract_id=state_contract_id)
    if result is None:
        raise NotFound()
    attach_gas_prices([result])
    data = contract_result_details(result, hbar=hbar)
    return Response(data, status=_PARTIAL_CONTENT if result["call_result"] is None else 200)


class ContractActionViewSet(MirrorViewSet):
    """`/contracts/results/{transactionIdOrHash}/actions`."""

    filterset_class = ContractActionFilterSet
    selector = actions.contract_action_list
    serializer_class = ContractActionSerializer
    results_key = "actions"
    cache_control = {"list": "public, max-age=600"}

    def scope(self) -> tuple:
        return (self.kwargs["transaction_id_or_hash"],)  # read by the FilterSet, after the query
