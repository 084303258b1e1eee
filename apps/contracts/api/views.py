from rest_framework.response import Response

from apps.common.api.exceptions import InvalidArgument, NotFound
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import format_entity_id, format_timestamp, parse_entity_id, parse_timestamp
from apps.common.filters import Comparison
from apps.common.pagination import Anchor
from apps.contracts import selectors
from apps.contracts.api.serializers import (
    ContractActionSerializer,
    ContractLogSerializer,
    ContractResultDetailsSerializer,
    ContractResultSerializer,
    ContractSerializer,
    StateSerializer,
    contract_result_details,
    format_uint256,
)
from apps.contracts.filtersets import (
    AllContractLogFilterSet,
    ContractActionFilterSet,
    ContractDetailFilterSet,
    ContractFilterSet,
    ContractLogFilterSet,
    ContractResultByTransactionFilterSet,
    ContractResultDetailFilterSet,
    ContractResultFilterSet,
    KeyBound,
    LogCriteria,
    StateFilterSet,
    parse_log_index,
    parse_slot,
)
from apps.contracts.gas_price import attach_gas_prices
from apps.contracts.models import Contract, ContractAction, ContractLog, ContractResult, ContractState
from apps.transactions.api.views import parse_transaction_id

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------


def _parse_contract_anchor(text: str) -> int:
    return parse_entity_id(text, allow_evm_address=False).encoded


class ContractViewSet(MirrorViewSet):
    filterset_class = ContractFilterSet
    detail_filterset_class = ContractDetailFilterSet
    serializer_class = ContractSerializer
    results_key = "contracts"
    list_cache = True
    pagination_anchors = (Anchor("contract.id", "id", format=format_entity_id, parse=_parse_contract_anchor),)
    cache_control = {"list": "public, max-age=10"}
    lookup_url_kwarg = "contract_id_or_address"
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        return Contract.objects.none()

    def list_rows(self, filterset):
        return selectors.contract_list(criteria=filterset.list_filter())

    def retrieve(self, request, contract_id_or_address):
        contract = selectors.parse_contract_detail_path(contract_id_or_address)
        timestamps = self.get_filterset(self.detail_filterset_class).timestamps
        row = selectors.contract_get(contract=contract, timestamps=timestamps)
        if row is None:
            raise NotFound()
        return self.answer(self.represent_one(row))


class ContractStateViewSet(MirrorViewSet):
    filterset_class = StateFilterSet
    serializer_class = StateSerializer
    results_key = "state"
    pagination_anchors = (Anchor("slot", "slot", format=format_uint256, parse=parse_slot),)

    def get_queryset(self):
        return ContractState.objects.none()

    def list_rows(self, filterset):
        contract_id = selectors.contract_id_from_path(self.kwargs["contract_id_or_address"])
        return selectors.state_list(criteria=filterset.list_filter(contract_id))


# --- Logs ---


class ContractLogViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results/logs`: the logs a contract, or an
    account with a code delegation, emitted."""

    filterset_class = ContractLogFilterSet
    serializer_class = ContractLogSerializer
    results_key = "logs"
    criteria: LogCriteria | None = None

    def get_queryset(self):
        return ContractLog.objects.none()

    def list_rows(self, filterset) -> list:
        filterset.validate()
        contract_id = selectors.contract_id_from_path(self.kwargs["contract_id_or_address"])
        self.criteria = filterset.criteria()
        if contract_id is None:
            return []
        return selectors.contract_log_list(criteria=self.criteria, contract_id=contract_id)

    @property
    def pagination_anchors(self) -> tuple[Anchor, ...]:
        """Past the last row on the keyset columns the query does not pin with an
        equality; the timestamp stays inclusive, as more logs may share it."""
        timestamp, index = self.criteria.timestamp, self.criteria.index
        anchors = []
        if not timestamp.equal:
            anchors.append(
                Anchor(
                    "timestamp",
                    "consensus_timestamp",
                    format=format_timestamp,
                    parse=parse_timestamp,
                    inclusive=not index.equal,
                )
            )
        if not index.equal:
            anchors.append(Anchor("index", "index", parse=parse_log_index))
        return tuple(anchors)


class AllContractLogViewSet(ContractLogViewSet):
    """`/contracts/results/logs`: the logs of every contract, optionally of one transaction."""

    filterset_class = AllContractLogFilterSet
    cache_control = {"list": "public, max-age=10"}

    def list_rows(self, filterset) -> list:
        filterset.validate()
        self.criteria = filterset.criteria()
        if not self.restrict_to_transaction(filterset):
            return []
        return selectors.contract_log_list(criteria=self.criteria)

    def restrict_to_transaction(self, filterset) -> bool:
        """Pins the timestamp to the transaction `transaction.hash` names; False when none matches."""
        transaction_hash = filterset.transaction_hash_value()
        if transaction_hash is None:
            return True
        timestamp = selectors.transaction_timestamp_by_hash(
            transaction_hash=transaction_hash, timestamps=self.criteria.timestamp
        )
        if timestamp is None:
            return False
        self.criteria.timestamp = KeyBound("timestamp", equal=Comparison("eq", timestamp))
        return True


# --- contract results and actions (part B) ----------------------------------------------------

_TIMESTAMP_ANCHOR = Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp)
_PARTIAL_CONTENT = 206


class ContractResultViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results[/{timestamp}]` and `/contracts/results`."""

    filterset_class = ContractResultFilterSet
    detail_filterset_class = ContractResultDetailFilterSet
    results_key = "results"
    pagination_anchors = (_TIMESTAMP_ANCHOR,)
    cache_control = {"list_all": "public, max-age=10", "retrieve": "public, max-age=600"}
    # A `from` EVM address naming no entity is a 404, as the upstream answers (for our OpenAPI document).
    error_statuses = {"list_all": (404,)}

    def get_queryset(self):
        return ContractResult.objects.none()

    def get_serializer_class(self):
        return ContractResultSerializer if self.action == "list" else ContractResultDetailsSerializer

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "hbar": getattr(self, "hbar", True)}

    def list_all(self, request):
        return self.list(request)

    def list_rows(self, filterset):
        filterset.validate()
        every_contract = self.action == "list_all"
        if every_contract:
            self.hbar = hbar_of(filterset.params)
        if every_contract:
            contract_id = None
        else:
            contract_id = selectors.contract_id_from_path(self.kwargs["contract"])
            if contract_id is None:
                return []
        rows = selectors.contract_result_list(
            criteria=selectors.ContractResultFilter(
                contract_id=contract_id,
                timestamps=filterset.comparisons("timestamp"),
                senders=filterset.comparisons("from"),
                block_number=filterset.value("block.number"),
                block_hash=filterset.value("block.hash"),
                transaction_indexes=filterset.comparisons("transaction.index"),
                internal=filterset.value("internal", False),
                order=filterset.order_value,
                limit=filterset.limit_value,
                synthetic=every_contract,
            )
        )
        if every_contract:
            selectors.attach_ethereum_transactions(rows)
            selectors.attach_blocks(rows)
            attach_gas_prices(rows)
        return rows

    def retrieve(self, request, contract, timestamp):
        # This route reads `hbar` before anything else.
        hbar = hbar_of(self.query_params())
        messages = []
        try:
            contract_id = selectors.contract_id_from_path(contract)
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
            transaction = selectors.contract_transaction_at(
                timestamp=consensus_timestamp, entity_id=contract_id
            )
        return self._details(transaction, state_contract_id=contract_id, hbar=hbar)

    def _details(self, transaction, *, state_contract_id, hbar: bool) -> Response:
        result = None
        if transaction is not None:
            result = selectors.contract_result_details(
                transaction=transaction, state_contract_id=state_contract_id
            )
        if result is None:
            raise NotFound()
        attach_gas_prices([result])
        data = contract_result_details(result, hbar=hbar)
        return Response(data, status=_PARTIAL_CONTENT if result["call_result"] is None else 200)


class ContractResultByTransactionViewSet(ContractResultViewSet):
    """`/contracts/results/{transactionIdOrHash}` and its actions."""

    detail_filterset_class = ContractResultByTransactionFilterSet
    filterset_class = ContractActionFilterSet
    results_key = "actions"
    pagination_anchors = (Anchor("index", "index"),)
    detail_actions = ("retrieve",)
    cache_control = {"retrieve": "public, max-age=600", "actions": "public, max-age=600"}

    def get_queryset(self):
        return ContractAction.objects.none()

    def get_serializer_class(self):
        return ContractActionSerializer

    def retrieve(self, request, transaction_id_or_hash):
        filterset = self.get_filterset(self.detail_filterset_class)
        filterset.validate()
        hbar = hbar_of(filterset.params)
        key = self._transaction(transaction_id_or_hash, nonce=filterset.value("nonce", 0))
        transaction = None
        if key is not None:
            transaction = selectors.contract_transaction_at(
                timestamp=key.consensus_timestamp, entity_id=key.entity_id
            )
        return self._details(transaction, state_contract_id=None, hbar=hbar)

    def actions(self, request, transaction_id_or_hash):
        return self.list(request)

    def list_rows(self, filterset):
        filterset.validate()
        key = self._transaction(self.kwargs["transaction_id_or_hash"], nonce=0)
        if key is None:
            raise NotFound()
        return selectors.contract_action_list(
            timestamp=key.consensus_timestamp,
            payer=key.payer_account_id,
            indexes=filterset.comparisons("index"),
            order=filterset.order_value,
            limit=filterset.limit_value,
        )

    @staticmethod
    def _transaction(transaction_id_or_hash: str, *, nonce: int) -> selectors.ContractTransactionKey | None:
        if transaction_hash := parse_ethereum_hash(transaction_id_or_hash):
            return selectors.contract_transaction_by_hash(transaction_hash=transaction_hash)
        payer, valid_start = parse_transaction_id(transaction_id_or_hash)
        return selectors.contract_transaction_by_id(payer=payer, valid_start=valid_start, nonce=nonce)


def parse_ethereum_hash(text: str) -> bytes | None:
    hex_digits = text.removeprefix("0x")
    if len(hex_digits) == 64:
        try:
            return bytes.fromhex(hex_digits)
        except ValueError:
            return None
    return None


def hbar_of(params) -> bool:
    """Whether amounts are in tinybars (`hbar`, default true); one `true` or `false`, in any case."""
    values = params.get("hbar")
    if not values:
        return True
    if len(values) > 1 or (values[0] or "").lower() not in ("true", "false"):
        joined = ",".join(value or "" for value in values)
        raise InvalidArgument(f"Invalid hbar parameter value: {joined}. Must be 'true' or 'false'")
    return values[0].lower() == "true"


# --- end contract results and actions ---------------------------------------------------------
