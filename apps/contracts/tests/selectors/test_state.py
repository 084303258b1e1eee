"""The state selector, without HTTP."""

import pytest

from apps.contracts.filtersets import StateFilterSet
from apps.contracts.models import ContractState
from apps.contracts.selectors.state import state_list

pytestmark = pytest.mark.django_db


def test_state_list_pads_slot_comparisons_to_a_word():
    for slot in (1, 2, 3):
        ContractState.objects.create(
            contract_id=5001, slot=slot.to_bytes(32), value=b"\x01", created_timestamp=1, modified_timestamp=1
        )
    criteria = StateFilterSet({"slot": ["gte:2"], "order": ["desc"], "limit": ["1"]}).criteria(scope=(5001,))
    rows = state_list(criteria)
    assert [(row["slot"], row["evm_address"]) for row in rows] == [((3).to_bytes(32), None)]
    assert state_list(StateFilterSet({}).criteria(scope=(None,))) == []
