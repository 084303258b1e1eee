from rest_framework.response import Response

from apps.common.api.exceptions import NotFound
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import format_entity_id, parse_entity_id
from apps.common.pagination import Anchor
from apps.contracts import selectors
from apps.contracts.api.serializers import ContractSerializer, StateSerializer, format_uint256
from apps.contracts.filtersets import ContractDetailFilterSet, ContractFilterSet, StateFilterSet, parse_slot
from apps.contracts.models import Contract, ContractState


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------


def _parse_contract_anchor(text: str) -> int:
    return parse_entity_id(text, allow_evm_address=False).encoded


class ContractViewSet(MirrorViewSet):
    filterset_class = ContractFilterSet
    detail_filterset_class = ContractDetailFilterSet
    serializer_class = ContractSerializer
    results_key = "contracts"
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
