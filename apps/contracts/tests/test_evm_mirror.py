"""`MirrorReader` and the block lookups: EVM state read from the mirror tables, without HTTP."""

import pytest

from apps.contracts.evm.mirror import (
    DELEGATION_PREFIX,
    TOKEN_CODE_MARKER,
    MirrorReader,
    block_at,
    block_by_hash,
    block_by_number,
    earliest_block,
    entity_id_of_long_zero,
    latest_block,
    long_zero_address,
)
from apps.contracts.tests.evm_ledger import (
    BLOCKS,
    DELEGATING_ADDRESS,
    DELEGATING_EOA,
    EOA,
    EOA_ADDRESS,
    STORAGE,
    STORAGE_ADDRESS,
    TOKEN,
    block_hash,
    load_ledger,
    long_zero,
    runtime,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def ledger():
    load_ledger()


def test_long_zero_addresses_name_entity_ids():
    assert entity_id_of_long_zero(long_zero(1001)) == 1001
    assert entity_id_of_long_zero(EOA_ADDRESS) is None
    assert long_zero_address(1001) == long_zero(1001)


def test_accounts_by_long_zero_or_evm_address():
    reader = MirrorReader(timestamp=None)
    by_id, by_address = reader.account(long_zero(EOA)), reader.account(EOA_ADDRESS)
    assert by_id == by_address
    assert (by_id.entity_id, by_id.type, by_id.balance, by_id.nonce, by_id.code) == (EOA, "ACCOUNT", 500, 3, b"")
    assert reader.account(bytes.fromhex("77" * 20)) is None


def test_code_of_contracts_tokens_and_delegating_accounts():
    reader = MirrorReader(timestamp=None)
    assert reader.account(STORAGE_ADDRESS).code == runtime("Storage")
    assert reader.account(long_zero(TOKEN)).code == TOKEN_CODE_MARKER
    assert reader.account(long_zero(TOKEN)).is_token
    assert reader.account(DELEGATING_ADDRESS).code == DELEGATION_PREFIX + STORAGE_ADDRESS
    assert reader.account(long_zero(DELEGATING_EOA)).code == DELEGATION_PREFIX + STORAGE_ADDRESS


def test_storage_latest_and_as_of_a_time():
    assert MirrorReader(timestamp=None).storage(STORAGE, 0) == 7
    assert MirrorReader(timestamp=BLOCKS[1][0]).storage(STORAGE, 0) == 0
    assert MirrorReader(timestamp=BLOCKS[2][1]).storage(STORAGE, 0) == 5
    assert MirrorReader(timestamp=BLOCKS[3][1]).storage(STORAGE, 0) == 7
    assert MirrorReader(timestamp=None).storage(STORAGE, 1) == 0


def test_an_entity_created_later_is_absent_from_an_older_state():
    assert MirrorReader(timestamp=BLOCKS[1][0] - 1).account(long_zero(EOA)) is None
    assert MirrorReader(timestamp=BLOCKS[1][0]).account(long_zero(EOA)).entity_id == EOA


def test_block_lookups():
    assert latest_block().number == 3
    assert earliest_block().number == 1
    assert block_by_number(2).consensus_end == BLOCKS[2][1]
    assert block_by_number(9) is None
    assert block_by_hash(block_hash(2)[:64]).number == 2
    assert block_by_hash("ab" * 32) is None
    assert block_at(BLOCKS[2][0] + 1).number == 2
    assert MirrorReader(timestamp=None).block_hash(2) == bytes.fromhex(block_hash(2))[:32]
