"""Finding a contract transaction by hash or transaction id, without HTTP."""

import pytest

from apps.contracts.selectors.contract_transactions import (
    contract_transaction_by_hash,
    contract_transaction_by_id,
)
from apps.contracts.tests.results_factories import (
    create_result,
    create_result_transaction,
)

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005


def test_contract_transaction_by_hash_prefers_success_then_latest():
    create_result(T, 5001, transaction_hash=b"\x01" * 32, transaction_result=33)
    create_result(T + 1, 5001, transaction_hash=b"\x01" * 32)
    create_result(T + 2, 5001, transaction_hash=b"\x01" * 32, transaction_result=33)
    key = contract_transaction_by_hash(transaction_hash=b"\x01" * 32)
    assert (key.consensus_timestamp, key.entity_id) == (T + 1, 5001)
    assert contract_transaction_by_hash(transaction_hash=b"\x02" * 32) is None


def test_contract_transaction_by_id_reads_the_nonce():
    result = create_result(T, 5001)
    create_result_transaction(result, T - 100)
    key = contract_transaction_by_id(payer=8001, valid_start=T - 100, nonce=0)
    assert (key.consensus_timestamp, key.payer_account_id, key.entity_id) == (T, 8001, 8001)
    assert contract_transaction_by_id(payer=8001, valid_start=T - 100, nonce=1) is None
