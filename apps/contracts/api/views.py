from drf_spectacular.utils import extend_schema
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


@extend_schema(
    summary="List contracts",
    description="Contracts, each with its admin key, memo, EVM address, bytecode file, expiry and auto-renewal, "
    "in order of contract id.",
)
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

    @extend_schema(
        summary="Get a contract",
        description="One contract with its initcode and runtime bytecode: as it is now or, with `timestamp`, "
        "as it was then. A contract that does not exist answers 404.",
    )
    def retrieve(self, request, contract_id_or_address):
        contract = paths.parse_contract_detail_path(contract_id_or_address)
        timestamps = self.query_filterset(self.detail_filterset_class).timestamps
        row = contracts.contract_get(contract=contract, timestamps=timestamps)
        if row is None:
            raise NotFound()
        return self.answer(self.represent_one(row))


@extend_schema(
    summary="List a contract's storage",
    description="The contract's storage slots with their values: as they are now or, with `timestamp`, as they "
    "were then. They come in order of slot.",
)
class ContractStateViewSet(MirrorViewSet):
    filterset_class = StateFilterSet
    selector = state.state_list
    serializer_class = StateSerializer
    results_key = "state"

    def scope(self) -> tuple:
        return (paths.contract_id_from_path(self.kwargs["contract_id_or_address"]),)


# --- Logs ---

# What a search of the log routes needs (`ContractLogFilterSet`), for our OpenAPI document.
LOG_SEARCH_RULES = (
    "Searching by topic needs one `timestamp`, or a `timestamp` range bounded on both sides and no longer than "
    "the configured maximum (7 days unless set otherwise); an `index` condition needs a `timestamp` one."
)


@extend_schema(
    summary="List a contract's logs",
    description="The event logs the contract emitted (or an account delegating its code to it), each with its "
    "topics, data, block and transaction, in order of consensus timestamp and then log index. "
    f"{LOG_SEARCH_RULES}",
)
class ContractLogViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results/logs`: the logs a contract, or an
    account with a code delegation, emitted."""

    filterset_class = ContractLogFilterSet
    selector = logs.contract_log_list
    serializer_class = ContractLogSerializer
    results_key = "logs"

    def scope(self) -> tuple:
        return (self.kwargs["contract_id_or_address"],)  # read by the FilterSet, after the query


@extend_schema(
    summary="List contract logs",
    description="The event logs of every contract, or of one transaction (`transaction.hash`), each with its "
    "topics, data, block and transaction, in order of consensus timestamp and then log index. "
    f"{LOG_SEARCH_RULES}",
)
class AllContractLogViewSet(MirrorViewSet):
    """`/contracts/results/logs`: the logs of every contract, optionally of one transaction."""

    filterset_class = AllContractLogFilterSet
    selector = logs.all_contract_log_list
    serializer_class = ContractLogSerializer
    results_key = "logs"
    cache_control = {"list": "public, max-age=10"}


# --- Contract results and actions -------------------------------------------------------------

_PARTIAL_CONTENT = 206


@extend_schema(
    summary="List a contract's results",
    description="The results of the calls to the contract: caller, amount, gas, function parameters, result "
    "and error message, in order of consensus timestamp. `block.number` or `block.hash` keeps one block, and "
    "`transaction.index` positions within it.",
)
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

    @extend_schema(
        summary="Get a contract result by timestamp",
        description="The result of the contract's call at that consensus timestamp, with its logs, state "
        "changes and Ethereum transaction fields. It is 206 Partial Content while the call has no result "
        "recorded, and 404 when there is no such call.",
    )
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


@extend_schema(
    summary="List contract results",
    description="The results of every contract call, with their Ethereum transaction fields and blocks, in "
    "order of consensus timestamp. `from` keeps one caller's; an EVM address no account holds answers 404. "
    "`block.number` or `block.hash` keeps one block, and `transaction.index` positions within it.",
)
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

    @extend_schema(
        summary="Get a contract result by transaction",
        description="The result of the contract call a transaction made (named by its id or Ethereum hash), "
        "with its logs, state changes and Ethereum transaction fields; `nonce` picks one of the child "
        "transactions sharing the id. It is 206 Partial Content while the call has no result recorded, and "
        "404 when there is no such call.",
    )
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


@extend_schema(
    summary="List a transaction's contract actions",
    description="The calls and creations a contract transaction made inside the EVM (its call trace): caller, "
    "recipient, call type, gas, input and result of each, in order of index.",
)
class ContractActionViewSet(MirrorViewSet):
    """`/contracts/results/{transactionIdOrHash}/actions`."""

    filterset_class = ContractActionFilterSet
    selector = actions.contract_action_list
    serializer_class = ContractActionSerializer
    results_key = "actions"
    cache_control = {"list": "public, max-age=600"}

    def scope(self) -> tuple:
        return (self.kwargs["transaction_id_or_hash"],)  # read by the FilterSet, after the query
