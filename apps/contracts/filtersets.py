"""Query parameters of the contract routes."""

import re

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_entity_id, parse_timestamp
from apps.common.filters import RANGE_OPERATORS, Comparison, OperatorFilter
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.contracts.models import ContractState
from apps.contracts.selectors import ContractListFilter, StateListFilter, contract_id_by_evm_address

__all__ = ("ContractDetailFilterSet", "ContractFilterSet", "StateFilterSet", "parse_slot")


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------

_SLOT = re.compile(r"^(?:0x)?([0-9A-Fa-f]{1,64})$")
TIMESTAMP_NOT_EQUALS = "Not equals (ne) operator is not supported for timestamp"


def parse_slot(text: str) -> int:
    """A storage slot, up to 32 bytes of hex with or without `0x`, as a number."""
    match = _SLOT.match(text)
    if not match:
        raise ValueError(f"Invalid slot {text!r}")
    return int(match.group(1), 16)


class ContractFilterSet(ListFilterSet):
    contract_id = OperatorFilter(param="contract.id", field_name="id", parser=parse_entity_id)

    default_order = "desc"

    class Meta:
        model = Entity
        fields = ()

    def list_filter(self) -> ContractListFilter:
        """The validated query, for `selectors.contract_list`; an EVM address is
        compared with `eq` only and resolved to the live entity holding it."""
        self.validate()
        contracts = []
        for comparison in self.form.cleaned_data.get("contract.id") or ():
            entity = comparison.value
            if entity.evm_address is None:
                value = entity.encoded
            elif comparison.operator == "eq":
                value = contract_id_by_evm_address(bytes.fromhex(entity.evm_address))
            else:
                raise InvalidArgument.for_params("contract.id")
            contracts.append(Comparison(comparison.operator, value))
        return ContractListFilter(contracts=tuple(contracts), limit=self.limit_value, order=self.order_value)


class ContractDetailFilterSet(QueryFilterSet):
    timestamp = OperatorFilter(field_name="timestamp_range", parser=parse_timestamp)

    class Meta:
        model = Entity
        fields = ()

    @property
    def timestamps(self) -> tuple[Comparison, ...]:
        self.validate()
        return tuple(self.form.cleaned_data.get("timestamp") or ())


class StateFilterSet(ListFilterSet):
    slot = OperatorFilter(field_name="slot", parser=parse_slot, operators=RANGE_OPERATORS)
    # `ne` passes validation but is refused by the route, with its own message.
    timestamp = OperatorFilter(field_name="modified_timestamp", parser=parse_timestamp)

    class Meta:
        model = ContractState
        fields = ()

    def list_filter(self, contract_id: int | None) -> StateListFilter:
        """The validated query, for `selectors.state_list`."""
        self.validate()
        data = self.form.cleaned_data
        timestamps = tuple(data.get("timestamp") or ())
        if any(comparison.operator == "ne" for comparison in timestamps):
            raise InvalidArgument(TIMESTAMP_NOT_EQUALS)
        return StateListFilter(
            contract_id=contract_id,
            slots=tuple(data.get("slot") or ()),
            timestamps=timestamps,
            limit=self.limit_value,
            order=self.order_value,
        )
