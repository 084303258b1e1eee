from rest_framework.response import Response

from apps.common.api.exceptions import NotFound
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import format_entity_id, format_timestamp, parse_entity_id, parse_timestamp
from apps.common.filters import Comparison
from apps.common.pagination import Anchor
from apps.contracts import selectors
from apps.contracts.api.serializers import ContractLogSerializer, ContractSerializer, StateSerializer, format_uint256
from apps.contracts.filtersets import (
    AllContractLogFilterSet,
    ContractDetailFilterSet,
    ContractFilterSet,
    ContractLogFilterSet,
    KeyBound,
    LogCriteria,
    StateFilterSet,
    parse_log_index,
    parse_slot,
)
from apps.contracts.models import Contract, ContractLog, ContractState

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
        return Response(self.get_serializer(row).data)


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
