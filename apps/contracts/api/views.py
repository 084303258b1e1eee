from rest_framework.response import Response

from apps.common.api.exceptions import InvalidArgument, NotFound
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import format_timestamp, parse_timestamp
from apps.common.pagination import Anchor
from apps.contracts import selectors
from apps.contracts.api.serializers import (
    ContractActionSerializer,
    ContractResultDetailsSerializer,
    ContractResultSerializer,
    contract_result_details,
)
from apps.contracts.filtersets import (
    ContractActionFilterSet,
    ContractResultByTransactionFilterSet,
    ContractResultDetailFilterSet,
    ContractResultFilterSet,
)
from apps.contracts.gas_price import attach_gas_prices
from apps.contracts.models import ContractAction, ContractResult
from apps.transactions.api.views import parse_transaction_id

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
                transaction_index=filterset.value("transaction.index"),
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

    def opcodes(self, request, transaction_id_or_hash):
        # Opcode traces replay the transaction in an EVM; until that lands the route is unknown.
        raise NotFound()


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
