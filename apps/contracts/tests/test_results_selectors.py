"""The results and actions selectors, without HTTP."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.tests.factories import create_entity
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.api.exceptions import NotFound
from apps.common.filters import Comparison
from apps.contracts import selectors
from apps.contracts.api import encoding
from apps.contracts.tests.results_factories import (
    create_action,
    create_log,
    create_result,
    create_result_transaction,
)
from apps.network.models import FileData

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005


def timestamps(rows) -> list[int]:
    return [row["consensus_timestamp"] for row in rows]


def test_result_list_orders_limits_and_skips_wrong_nonce():
    for offset in range(4):
        create_result(T + offset, 5001)
    create_result(T + 9, 5001, transaction_result=312)
    create_result(T + 10, 5002)
    criteria = selectors.ContractResultFilter(contract_id=5001, order="asc", limit=3)
    assert timestamps(selectors.contract_result_list(criteria=criteria)) == [T, T + 1, T + 2]


def test_result_list_senders_by_address():
    create_entity(8002, evm_address=b"\xfb" * 20)
    create_result(T, 5001)
    create_result(T + 1, 5001, payer=8002)
    for operator, expected in (("eq", [T + 1]), ("ne", [T]), ("lt", [T])):
        senders = [Comparison(operator, b"\xfb" * 20)]
        criteria = selectors.ContractResultFilter(contract_id=None, senders=senders)
        assert timestamps(selectors.contract_result_list(criteria=criteria)) == expected


@pytest.mark.parametrize("operator", ["eq", "gt"])
def test_result_list_sender_address_no_entity_holds_is_not_found(operator):
    criteria = selectors.ContractResultFilter(contract_id=None, senders=[Comparison(operator, b"\xfc" * 20)])
    with pytest.raises(NotFound):
        selectors.contract_result_list(criteria=criteria)


def test_result_list_by_block_hash_prefix():
    create_record_files(record_file(7, T + 1, consensus_start=T, hash="ab" * 48))
    create_result(T, 5001)
    create_result(T + 2, 5001)
    criteria = selectors.ContractResultFilter(contract_id=5001, block_hash="ab" * 32)
    assert timestamps(selectors.contract_result_list(criteria=criteria)) == [T]


def test_synthetic_results_stand_for_their_last_log_and_yield_to_real_results():
    create_result(T, 5001)
    create_log(T, 7001, 0, synthetic=True)
    create_log(T + 1, 7001, 0, synthetic=True, payer_account_id=8004)
    create_log(T + 1, 7002, 1, synthetic=True, payer_account_id=8003, root_contract_id=None)
    rows = selectors.contract_result_list(
        criteria=selectors.ContractResultFilter(contract_id=None, synthetic=True)
    )
    assert [(row["consensus_timestamp"], row["contract_id"]) for row in rows] == [(T + 1, 7002), (T, 5001)]
    assert rows[0]["sender_id"] == 8003
    ascending = selectors.ContractResultFilter(contract_id=None, synthetic=True, order="asc")
    rows = selectors.contract_result_list(criteria=ascending)
    assert [(row["consensus_timestamp"], row["sender_id"]) for row in rows] == [(T, 8001), (T + 1, 8004)]


def test_contract_transaction_by_hash_prefers_success_then_latest():
    create_result(T, 5001, transaction_hash=b"\x01" * 32, transaction_result=33)
    create_result(T + 1, 5001, transaction_hash=b"\x01" * 32)
    create_result(T + 2, 5001, transaction_hash=b"\x01" * 32, transaction_result=33)
    key = selectors.contract_transaction_by_hash(transaction_hash=b"\x01" * 32)
    assert (key.consensus_timestamp, key.entity_id) == (T + 1, 5001)
    assert selectors.contract_transaction_by_hash(transaction_hash=b"\x02" * 32) is None


def test_contract_transaction_by_id_reads_the_nonce():
    result = create_result(T, 5001)
    create_result_transaction(result, T - 100)
    key = selectors.contract_transaction_by_id(payer=8001, valid_start=T - 100, nonce=0)
    assert (key.consensus_timestamp, key.payer_account_id, key.entity_id) == (T, 8001, 8001)
    assert selectors.contract_transaction_by_id(payer=8001, valid_start=T - 100, nonce=1) is None


def test_result_details_need_a_result():
    transaction = selectors.ContractTransaction(
        consensus_timestamp=T, payer_account_id=8001, contract_ids=[5001]
    )
    assert selectors.contract_result_details(transaction=transaction, state_contract_id=5001) is None


def test_file_versions_restart_at_creates_and_non_empty_updates():
    rows = [
        (1, b"\x01", 17),
        (2, b"\x02", 16),
        (3, b"", 19),
        (4, b"\x03", 16),
        (5, b"\x09", 19),
        (6, b"\x0a", 16),
    ]
    FileData.objects.bulk_create(
        FileData(consensus_timestamp=ts, entity_id=1001, file_data=data, transaction_type=kind)
        for ts, data, kind in rows
    )
    assert selectors.file_versions(file_id=1001) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert selectors.file_versions(file_id=1001, at=4) == [b"\x01\x02\x03"]
    assert selectors.file_versions(file_id=1001, count=1) == [b"\x09\x0a"]
    assert selectors.file_versions(file_id=1001, count=2) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert selectors.file_versions(file_id=1001, count=3) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert selectors.file_versions(file_id=1001, at=5, count=1) == [b"\x09"]
    assert selectors.file_versions(file_id=1001, at=3, count=1) == [b"\x01\x02"]


def test_the_latest_versions_read_only_their_own_rows():
    # Fifty versions of two rows each (an update, then an append).
    FileData.objects.bulk_create(
        FileData(consensus_timestamp=ts, entity_id=1001, file_data=bytes([ts % 256]), transaction_type=kind)
        for version in range(50)
        for ts, kind in ((2 * version + 1, 19), (2 * version + 2, 16))
    )
    with CaptureQueriesContext(connection) as captured:
        assert selectors.file_versions(file_id=1001, count=2) == [bytes([99, 100]), bytes([97, 98])]
    (query,) = captured
    with connection.cursor() as cursor:
        # A hundred rows are cheaper to read whole; a real file's history is read by its index.
        cursor.execute("set local enable_seqscan = off")
        cursor.execute("set local enable_bitmapscan = off")
        cursor.execute("explain (analyze, format json) " + query["sql"])
        plan = cursor.fetchone()[0][0]["Plan"]

    def file_data_rows_read(node: dict) -> int:
        own = 0
        if node.get("Relation Name") == "file_data":
            own = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
        return own + sum(file_data_rows_read(child) for child in node.get("Plans", ()))

    # The two versions' four rows, and backwards from the newest to the second start.
    assert file_data_rows_read(plan) <= 8, json.dumps(plan, indent=1)


def test_actions_of_one_payer_by_index():
    for index in range(3):
        create_action(T, index)
    create_action(T, 3, payer=9)
    rows = selectors.contract_action_list(
        timestamp=T, payer=8001, indexes=[Comparison("gte", 1)], order="desc", limit=5
    )
    assert [row["index"] for row in rows] == [2, 1]


@pytest.mark.parametrize(
    ("encode", "value", "expected"),
    [
        (encoding.hex_quantity, b"\x0a", "0xa"),
        (encoding.hex_quantity, b"\x01\x2a", "0x12a"),
        (encoding.hex_quantity, b"", "0x"),
        (encoding.hex_word, b"\x01", "0x" + "00" * 31 + "01"),
        (encoding.hex_word, b"", "0x"),
        (encoding.uint256, b"", "0x" + "00" * 32),
        (encoding.uint256, None, None),
        (encoding.bloom, None, "0x"),
        (encoding.bloom, b"", "0x" + "00" * 256),
        (encoding.long_zero_address, 0, None),
        (encoding.long_zero_address, (1 << 54) | 5, "0x00000001" + "0" * 16 + "0000000000000005"),
        (encoding.signed_integer, b"\xff", -1),
        (encoding.signed_integer, b"\x00\xff", 255),
    ],
)
def test_encodings(encode, value, expected):
    assert encode(value) == expected


def test_weibar_quantities():
    assert encoding.weibar_quantity(b"", in_tinybars=True) == "0x"
    assert encoding.weibar_quantity((25 * 10**10).to_bytes(8, "big"), in_tinybars=True) == "0x19"
    assert encoding.weibar_quantity(b"\x0a\xbc", in_tinybars=False) == "0xabc"
