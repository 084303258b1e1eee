"""The contract selectors, without HTTP."""

import pytest
from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.tests.factories import create_entity, create_entity_history
from apps.common.ledger.codecs import MAX_LONG, EntityId
from apps.common.query.comparisons import Comparison
from apps.contracts.filtersets import ContractFilterSet
from apps.contracts.models import Contract
from apps.contracts.selectors.contracts import (
    contract_bytecode,
    contract_get,
    contract_list,
)
from apps.network.models import FileData

pytestmark = pytest.mark.django_db

ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")


def contract_ids(rows) -> list[int]:
    return [row["id"] for row in rows]


def contracts_of(query: dict[str, list[str]]) -> list[dict]:
    return contract_list(ContractFilterSet(query).criteria())


@pytest.fixture
def contracts():
    for contract_id in (1001, 1002, 1003):
        create_entity(contract_id, type="CONTRACT", timestamp_range=Range(100, None))
        Contract.objects.create(id=contract_id, file_id=contract_id + 4000)
    create_entity(1004, type="ACCOUNT")


def test_contract_list_orders_limits_and_carries_the_file(contracts):
    rows = contracts_of({"limit": ["2"]})
    assert contract_ids(rows) == [1003, 1002]
    assert rows[0]["file_id"] == 5003
    assert contract_ids(contracts_of({"order": ["asc"]})) == [1001, 1002, 1003]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["1001", "1003"], [1003, 1001]),
        # An EVM address no live entity holds is an `eq` None.
        ([ADDRESS.hex()], []),
        ([ADDRESS.hex(), "1002"], [1002]),
        (["gt:1001", "lte:1002"], [1002]),
        (["ne:1002"], [1003, 1001]),
        (["1004"], []),
    ],
)
def test_contract_list_compares_ids(contracts, values, expected):
    assert contract_ids(contracts_of({"contract.id": values})) == expected


def test_contract_get_reads_the_newest_version_in_range(contracts):
    create_entity_history(1001, 10, 100, type="CONTRACT", evm_address=ADDRESS)
    by_id = EntityId(0, 0, 1001)
    by_address = EntityId(0, 0, None, ADDRESS.hex())

    assert contract_get(contract=by_id)["timestamp_range"].lower == 100
    assert contract_get(contract=by_id, timestamps=(Comparison("lt", 100),))["timestamp_range"].lower == 10
    assert contract_get(contract=by_address) is None
    assert contract_get(contract=by_address, timestamps=(Comparison("eq", 50),))["id"] == 1001
    assert contract_get(contract=by_id, timestamps=(Comparison("lt", 10),)) is None
    # `ne` drops the versions holding the instant.
    assert contract_get(contract=by_id, timestamps=(Comparison("ne", 150),))["timestamp_range"].lower == 10
    assert contract_get(contract=by_id, timestamps=(Comparison("ne", 50),))["timestamp_range"].lower == 100


@pytest.mark.parametrize(
    ("operator", "found"), [("gt", False), ("gte", False), ("lt", True), ("lte", True), ("eq", True), ("ne", True)]
)
def test_contract_get_takes_instants_past_the_last_bigint(contracts, operator, found):
    contract = contract_get(contract=EntityId(0, 0, 1001), timestamps=(Comparison(operator, MAX_LONG + 1),))
    assert (contract is not None) == found


def test_contract_get_is_contracts_only(contracts):
    assert contract_get(contract=EntityId(0, 0, 1004)) is None


def test_bytecode_of_a_file_starts_at_its_last_create_or_non_empty_update():
    rows = [(1, 17, b"11"), (2, 16, b"22"), (3, 19, b"33"), (4, 19, b""), (5, 16, b"44"), (7, 16, b"55")]
    for timestamp, transaction_type, data in rows:
        FileData.objects.create(
            entity_id=5001, consensus_timestamp=timestamp, transaction_type=transaction_type, file_data=data
        )
    contract = {"file_id": 5001, "initcode": b"\x01", "created_timestamp": 6}
    assert contract_bytecode(contract) == "3344"
    assert contract_bytecode({**contract, "created_timestamp": 2}) == "1122"
    assert contract_bytecode({**contract, "created_timestamp": 0}) == ""
    assert contract_bytecode({**contract, "file_id": 1000}) == "01"
