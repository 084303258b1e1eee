"""Query parameters of the contract routes."""

import re

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_timestamp
from apps.common.filters import RANGE_OPERATORS, Comparison, OperatorFilter
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.contracts.models import ContractState
from apps.contracts.selectors import (
    ContractListFilter,
    StateListFilter,
    contract_id_by_evm_address,
    parse_contract_id,
)

__all__ = ("ContractDetailFilterSet", "ContractFilterSet", "StateFilterSet", "parse_contract_id_text", "parse_slot")


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------

_SLOT = re.compile(r"^(?:0x)?([0-9A-Fa-f]{1,64})$")
# Checked first; what the shape allows but no id is (a num too large, say) is refused after the whole query.
_CONTRACT_ID = re.compile(r"^(?:\d+\.){0,2}(?:-?\d+|[0-9A-Fa-f]{40})$")
_ADDRESS_DIGITS = re.compile(r"[0-9A-Fa-f]{40}$")
TIMESTAMP_NOT_EQUALS = "Not equals (ne) operator is not supported for timestamp"


def parse_contract_id_text(text: str) -> str:
    """A `contract.id` operand of a plausible shape, read into an id once the whole query is valid."""
    if not _CONTRACT_ID.match(text):
        raise ValueError(f"Invalid contract id {text!r}")
    return text


def parse_slot(text: str) -> int:
    """A storage slot, up to 32 bytes of hex with or without `0x`, as a number."""
    match = _SLOT.match(text)
    if not match:
        raise ValueError(f"Invalid slot {text!r}")
    return int(match.group(1), 16)


class ContractFilterSet(ListFilterSet):
    contract_id = OperatorFilter(param="contract.id", field_name="id", parser=parse_contract_id_text)

    default_order = "desc"

    class Meta:
        model = Entity
        fields = ()

    def list_filter(self) -> ContractListFilter:
        """The validated query, for `selectors.contract_list`. An EVM address (no
        `0x` here) is compared with `eq` only and resolved to the live entity
        holding it; a value shaped like an id that encodes none is `contractid`."""
        self.validate()
        comparisons = self.form.cleaned_data.get("contract.id") or ()
        if any(_ADDRESS_DIGITS.search(c.value) and c.operator != "eq" for c in comparisons):
            raise InvalidArgument.for_params("contract.id")
        contracts = []
        for comparison in comparisons:
            try:
                entity = parse_contract_id(comparison.value)
            except ValueError:
                raise InvalidArgument.for_params("contractid") from None
            if entity.evm_address is None:
                value = entity.encoded
            else:
                value = contract_id_by_evm_address(bytes.fromhex(entity.evm_address))
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
