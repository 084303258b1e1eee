import pytest

from apps.common.query.comparisons import Comparison
from apps.transactions.models import TransactionHash
from apps.transactions.selectors import (
    RESULT_FAIL,
    RESULT_SUCCESS,
    TransactionListFilter,
    result_name,
    transaction_page,
    transaction_page_timestamps,
    transaction_type_id,
    transaction_type_name,
    transactions_at,
    transactions_by_hash,
    transactions_by_id,
)
from apps.transactions.tests.factories import (
    SECOND,
    create_assessed_fee,
    create_crypto_transfers,
    create_entity_transaction,
    create_staking_reward,
    create_token_transfers,
    create_transaction,
    transaction_hash,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
MINUTE = 60 * SECOND


@pytest.fixture
def ledger():
    """Account 0.0.8 pays t1 and t6, receives hbar in t2 and tokens in t3, and is only
    recorded in entity_transaction for t4; t5 is a synthetic child record it pays for
    without a transfer of its own; t7 does not involve it."""
    t1 = create_transaction(T + 1, 8)
    create_crypto_transfers(t1, (8, -10), (9, 10))
    t2 = create_transaction(T + 2, 10)
    create_crypto_transfers(t2, (10, -20), (8, 20))
    t3 = create_transaction(T + 3, 9)
    create_token_transfers(t3, 5000, (9, -5), (8, 5))
    t4 = create_transaction(T + 4, 10, type=37)
    create_entity_transaction(t4, 8)
    create_transaction(T + 5, 8, fee=0, type=22, nonce=1)
    create_transaction(T + 6, 8, type=27, result=11)
    create_transaction(T + 7, 12)


def page(**criteria) -> list[int]:
    """The page's consensus timestamps, relative to T."""
    return [timestamp - T for timestamp in transaction_page_timestamps(criteria=TransactionListFilter(**criteria))]


def eq(value):
    return Comparison("eq", value)


def test_page_without_filters_is_newest_first(ledger):
    assert page() == [7, 6, 5, 4, 3, 2, 1]


def test_page_ascending_and_limited(ledger):
    assert page(order="asc", limit=3) == [1, 2, 3]
    assert page(limit=2) == [7, 6]


def test_account_matches_payer_transfers_tokens_and_entity_transactions(ledger):
    assert page(accounts=[eq(8)]) == [6, 4, 3, 2, 1]


def test_account_page_is_limited_and_ordered(ledger):
    assert page(accounts=[eq(8)], limit=2) == [6, 4]
    assert page(accounts=[eq(8)], limit=2, order="asc") == [1, 2]


def test_account_comparisons(ledger):
    assert page(accounts=[eq(9)]) == [3, 1]
    assert page(accounts=[eq(8), eq(12)]) == [7, 6, 4, 3, 2, 1]
    assert page(accounts=[Comparison("gte", 12), Comparison("lt", 98)]) == [7]
    assert page(accounts=[Comparison("gt", 8), Comparison("lt", 10)]) == [3, 1]
    assert page(accounts=[eq(8), Comparison("gt", 8)]) == []


def test_the_fee_collector_is_found_without_its_account_index(ledger):
    # crypto_transfer's account index leaves 0.0.98 out; its transfers are found all the same.
    assert page(accounts=[eq(98)]) == [7, 6, 4, 3, 2, 1]
    assert page(accounts=[eq(98), eq(12)], directions=["credit"]) == [7, 6, 4, 3, 2, 1]
    assert page(accounts=[eq(account) for account in range(90, 110)], limit=2) == [7, 6]
    assert page(accounts=[Comparison("gt", 97), Comparison("lt", 99)], limit=2) == [7, 6]


def test_account_of_unresolvable_address_matches_nothing(ledger):
    assert page(accounts=[eq(None)]) == []


def test_many_accounts_read_in_one_branch(ledger):
    accounts = [eq(account) for account in range(4, 20)]

    assert page(accounts=accounts) == [7, 6, 4, 3, 2, 1]
    assert page(accounts=accounts, limit=3, order="asc") == [1, 2, 3]


def test_several_transfers_of_one_transaction_count_once(ledger):
    assert page(accounts=[eq(8)], limit=2, order="asc") == [1, 2]
    assert page(directions=["credit"], limit=3) == [7, 6, 4]
    assert page(accounts=[Comparison("gte", 8), Comparison("lte", 9)], limit=3, order="asc") == [1, 2, 3]


def test_credit_and_debit(ledger):
    assert page(accounts=[eq(8)], directions=["credit"]) == [3, 2]
    assert page(accounts=[eq(8)], directions=["debit"]) == [6, 1]
    assert page(accounts=[eq(8)], directions=["credit", "debit"]) == []


def test_transaction_types(ledger):
    assert page(types=[27]) == [6]
    assert page(types=[27, 37]) == [6, 4]
    assert page(types=[37], accounts=[eq(8)]) == [4]
    assert page(types=[27], accounts=[eq(8)], directions=["debit"]) == [6]


def test_result(ledger):
    assert page(result=RESULT_FAIL) == [6]
    assert page(result=RESULT_SUCCESS, accounts=[eq(8)]) == [4, 3, 2, 1]
    assert page(result=RESULT_FAIL, accounts=[eq(8)], directions=["debit"]) == [6]


def test_timestamps(ledger):
    assert page(timestamps=[eq(T + 3)]) == [3]
    assert page(timestamps=[eq(T + 3), eq(T + 3)]) == [3]
    assert page(timestamps=[eq(T + 3), eq(T + 4)]) == []
    assert page(timestamps=[Comparison("gt", T + 2), Comparison("lte", T + 4)]) == [4, 3]
    assert page(timestamps=[Comparison("gte", T + 6), Comparison("gt", T + 5)]) == [7, 6]
    assert page(timestamps=[Comparison("ne", T + 7), Comparison("ne", T + 6)], limit=2) == [5, 4]
    assert page(timestamps=[Comparison("lt", T + 3)], accounts=[eq(8)]) == [2, 1]
    assert page(timestamps=[Comparison("gt", T + 4), Comparison("lt", T + 5)]) == []


def test_deleted_transfers_do_not_count(ledger):
    row = create_transaction(T + 8, 12)
    create_crypto_transfers(row, (50, 1), errata="DELETE")

    assert page(accounts=[eq(50)]) == []
    assert [t["entity_id"] for t in transactions_at(timestamps=[T + 8])[0]["crypto_transfers"]] == [3, 12, 98]


def test_transaction_page_reads_rows_in_page_order(ledger):
    rows = transaction_page(TransactionListFilter(accounts=[eq(9)]))

    assert [row["consensus_timestamp"] for row in rows] == [T + 3, T + 1]
    assert rows[0]["token_transfers"] == [
        {"consensus_timestamp": T + 3, "token_id": 5000, "account_id": 8, "amount": 5, "is_approval": None},
        {"consensus_timestamp": T + 3, "token_id": 5000, "account_id": 9, "amount": -5, "is_approval": None},
    ]


def test_transactions_at_attaches_sorted_transfers(ledger):
    (row,) = transactions_at(timestamps=[T + 1])

    assert [(t["entity_id"], t["amount"]) for t in row["crypto_transfers"]] == [
        (3, 1),
        (8, -10),
        (8, -3),
        (9, 10),
        (98, 2),
    ]
    assert row["token_transfers"] == []
    assert row["staking_reward_transfers"] == []
    assert "assessed_custom_fees" not in row


def test_transactions_at_orders_and_skips_missing(ledger):
    assert [row["consensus_timestamp"] - T for row in transactions_at(timestamps=[T + 2, T + 99, T + 1])] == [1, 2]
    assert [row["consensus_timestamp"] - T for row in transactions_at(timestamps=[T + 1, T + 2], order="desc")] == [
        2,
        1,
    ]
    assert transactions_at(timestamps=[]) == []


def test_staking_rewards_only_with_a_debit_of_the_reward_account(django_assert_num_queries):
    paid = create_transaction(T + 1, 8)
    create_crypto_transfers(paid, (800, -50), (8, 50))
    create_staking_reward(paid, 8, 50)
    unpaid = create_transaction(T + 2, 9)
    create_staking_reward(unpaid, 9, 70)

    with django_assert_num_queries(1):
        rows = transactions_at(timestamps=[T + 1, T + 2])

    assert [r["staking_reward_transfers"] for r in rows] == [
        [{"consensus_timestamp": T + 1, "account_id": 8, "amount": 50}],
        [],
    ]


def test_assessed_custom_fees_only_in_detail():
    row = create_transaction(T + 1, 8)
    create_assessed_fee(row, 9001, 20, token=5000, payers=[8])
    create_assessed_fee(row, 9001, 10)
    create_assessed_fee(row, 9000, 30)

    (detail,) = transactions_at(timestamps=[T + 1], detail=True)

    assert [(fee["collector_account_id"], fee["amount"]) for fee in detail["assessed_custom_fees"]] == [
        (9000, 30),
        (9001, 10),
        (9001, 20),
    ]
    assert detail["assessed_custom_fees"][2]["effective_payer_account_ids"] == [8]


# --- By transaction id ------------------------------------------------------------------------

V = T  # the valid start of the transaction id looked up


def by_id(**kwargs):
    kwargs.setdefault("now", T)
    lookup = transactions_by_id(payer=10, valid_start=V, **kwargs)
    return [row["consensus_timestamp"] - V for row in lookup.rows], lookup.pending_schedule


def test_by_id_reads_the_consensus_window():
    create_transaction(V - SECOND, 10, valid_start_ns=V)
    create_transaction(V + 5, 10, valid_start_ns=V)
    create_transaction(V + 35 * MINUTE, 10, valid_start_ns=V, nonce=1)
    create_transaction(V - SECOND - 1, 10, valid_start_ns=V)
    create_transaction(V + 35 * MINUTE + 1, 10, valid_start_ns=V)
    create_transaction(V + 6, 11, valid_start_ns=V)
    create_transaction(V + 7, 10, valid_start_ns=V + 1)

    assert by_id() == ([-SECOND, 5, 35 * MINUTE], False)
    assert by_id(nonce=1) == ([35 * MINUTE], False)
    assert by_id(nonce=2) == ([], False)


def test_by_id_scheduled_filter():
    create_transaction(V + 1, 10, valid_start_ns=V, type=42)
    create_transaction(V + 2, 10, valid_start_ns=V, scheduled=True)

    assert by_id() == ([1, 2], False)
    assert by_id(scheduled=False) == ([1], False)
    assert by_id(scheduled=True) == ([2], False)


def test_by_id_finds_a_long_term_scheduled_execution():
    days_30 = 30 * 24 * 60 * MINUTE
    create_transaction(V + 1, 10, valid_start_ns=V, type=42)
    create_transaction(V + days_30, 10, valid_start_ns=V, scheduled=True)

    assert by_id() == ([1, days_30], False)
    assert by_id(scheduled=True) == ([days_30], False)
    assert by_id(scheduled=False) == ([1], False)


def test_by_id_pending_schedule_while_it_may_still_execute():
    create_transaction(V + 1, 10, valid_start_ns=V, type=42)

    assert by_id(now=V + 2) == ([1], True)
    assert by_id(now=V + 89_285 * MINUTE + 2) == ([1], False)
    assert by_id(now=V + 2, scheduled=False) == ([1], False)


def test_by_id_failed_schedule_create_is_final():
    create_transaction(V + 1, 10, valid_start_ns=V, type=42, result=11)

    assert by_id(now=V + 2) == ([1], False)


def test_by_id_appends_inner_transactions_of_a_batch():
    create_transaction(V + 1, 10, valid_start_ns=V, type=74, inner_transactions=[10, V + 1, 12, V + 2])
    create_transaction(V + 2, 10, valid_start_ns=V + 1, parent_consensus_timestamp=V + 1)
    create_transaction(V + 3, 12, valid_start_ns=V + 2, parent_consensus_timestamp=V + 1, nonce=1)
    create_transaction(V + 4, 12, valid_start_ns=V + 2, parent_consensus_timestamp=V + 1)

    assert by_id() == ([1, 2, 3, 4], False)
    assert by_id(nonce=0) == ([1, 2, 4], False)
    assert by_id(scheduled=True) == ([], False)


def test_by_id_rows_carry_detail_transfers():
    row = create_transaction(V + 1, 10, valid_start_ns=V)
    create_assessed_fee(row, 9000, 5)

    (found,) = transactions_by_id(payer=10, valid_start=V, now=T).rows

    assert [fee["amount"] for fee in found["assessed_custom_fees"]] == [5]
    assert len(found["crypto_transfers"]) == 3


# --- By hash ----------------------------------------------------------------------------------


def test_by_hash_matches_all_48_bytes():
    create_transaction(T + 1, 10)
    create_transaction(T + 2, 10, hashed=False, transaction_hash=transaction_hash(T + 1))

    found = transactions_by_hash(transaction_hash=transaction_hash(T + 1)).rows
    assert [row["consensus_timestamp"] for row in found] == [T + 1]
    other = transaction_hash(T + 1)[:32] + bytes(16)
    assert transactions_by_hash(transaction_hash=other).rows == []
    assert transactions_by_hash(transaction_hash=transaction_hash(T + 9)).rows == []


def test_by_hash_filters_and_orders():
    digest = transaction_hash(T + 2)
    create_transaction(T + 2, 10, nonce=1)
    create_transaction(T + 1, 10, hashed=False, scheduled=True)
    TransactionHash.objects.create(
        consensus_timestamp=T + 1, hash=digest[:32], hash_suffix=digest[32:], payer_account_id=10
    )

    def by_hash(**kwargs):
        return [row["consensus_timestamp"] - T for row in transactions_by_hash(transaction_hash=digest, **kwargs).rows]

    assert by_hash() == [1, 2]
    assert by_hash(nonce=1) == [2]
    assert by_hash(scheduled=True) == [1]
    assert transactions_by_hash(transaction_hash=digest).pending_schedule is False


# --- Enumerations -----------------------------------------------------------------------------


def test_enumerations():
    assert transaction_type_name(14) == "CRYPTOTRANSFER"
    assert transaction_type_name(74) == "ATOMICBATCH"
    assert transaction_type_name(999) == "UNKNOWN"
    assert transaction_type_id("cryptoTransfer") == 14
    with pytest.raises(ValueError):
        transaction_type_id("transfer")
    assert result_name(22) == "SUCCESS"
    assert result_name(11) == "DUPLICATE_TRANSACTION"
    assert result_name(32767) == "UNKNOWN"
