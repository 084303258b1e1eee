"""A contract's state: a page of `/contracts/{contractIdOrAddress}/state`.

A page of current state is one range read of the `contract_state` primary key (slots
there are 32 bytes); a page of historical state is the newest `contract_state_change` row
per slot (slots there have their leading zero bytes trimmed), read through its
`(contract_id, slot, consensus_timestamp)` index.
"""

from collections.abc import Sequence

from django.db.models import F, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.accounts.models import Entity
from apps.common.query.comparisons import Comparison, filter_by
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import PageCriteria
from apps.contracts.models import ContractState, ContractStateChange

SLOT_BYTES = 32


def state_list(criteria: PageCriteria) -> list[dict]:
    """A page of slots ordered by slot: `contract_id`, `slot`, `value`, `modified_timestamp`
    and the contract's `evm_address`, in one statement (compiled once per order and limit for
    the current state of every slot). The scope is the contract's id, None for an address
    naming none. `slot` values are numbers; without `timestamp` the state is the current one,
    with it the newest value of each slot changed within every range (`eq` reads as `lte`:
    the state then)."""
    (contract_id,) = criteria.scope
    if contract_id is None:
        return []
    slots, timestamps = criteria["slot"], criteria["timestamp"]
    if not slots and not timestamps:
        return _CURRENT_STATE.rows(contract_id, shape=(criteria.order, criteria.limit))
    return list(_state_page(contract_id, slots, timestamps, criteria.order, criteria.limit))


def _state_page(
    contract_id: int, slots: Sequence[Comparison], timestamps: Sequence[Comparison], order: str, limit: int
) -> QuerySet:
    slot_order = "-slot" if order == "desc" else "slot"
    evm_address = Subquery(Entity.objects.filter(id=contract_id).values("evm_address")[:1])
    if not timestamps:
        slots = [Comparison(c.operator, c.value.to_bytes(SLOT_BYTES)) for c in slots]
        changes = filter_by(ContractState.objects.filter(contract_id=contract_id), "slot", slots)
        rows = changes.order_by(slot_order).values(
            "contract_id", "slot", "value", "modified_timestamp", evm_address=evm_address
        )
    else:
        slots = [Comparison(c.operator, c.value.to_bytes((c.value.bit_length() + 7) // 8)) for c in slots]
        changes = filter_by(ContractStateChange.objects.filter(contract_id=contract_id), "slot", slots)
        # `eq` reads as `lte`: the state then.
        as_of = [Comparison("lte" if c.operator == "eq" else c.operator, c.value) for c in timestamps]
        changes = filter_by(changes, "consensus_timestamp", as_of)
        rows = (
            changes.order_by(slot_order, "-consensus_timestamp")
            .distinct("slot")
            .values(
                "contract_id",
                "slot",
                value=Coalesce("value_written", "value_read"),
                modified_timestamp=F("consensus_timestamp"),
                evm_address=evm_address,
            )
        )
    return rows[:limit]


_CURRENT_STATE = CompiledQuery(lambda contract_id, shape: _state_page(contract_id, (), (), *shape))
