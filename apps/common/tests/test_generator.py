from collections import Counter, defaultdict

import psycopg
import pytest
from django.core.management import CommandError, call_command

from apps.common.generator.ledger import KINDS, TOTAL_SUPPLY, TREASURY, Layout, Ledger, count_before
from apps.common.generator.loader import DatabaseNotEmpty, django_conninfo, prepare_database

LAYOUT = Layout(transactions=45_000, accounts=700, seed=3)


def generated(layout: Layout) -> tuple[Ledger, dict[str, list[list[str]]]]:
    """The ledger and every row it produced, split into fields."""
    ledger = Ledger(layout)
    tables = defaultdict(list)
    for _, rows in ledger.transaction_chunks():
        for table, lines in rows.lines.items():
            tables[table].extend(line.rstrip("\n").split("\t") for line in lines)
    for table, lines in ledger.final_state().lines.items():
        tables[table].extend(line.rstrip("\n").split("\t") for line in lines)
    return ledger, tables


@pytest.fixture(scope="module")
def ledger_rows():
    return generated(LAYOUT)[1]


def test_the_same_seed_gives_the_same_rows_and_another_seed_others(ledger_rows):
    small = Layout(transactions=300, accounts=50, seed=3)
    assert generated(small)[1] == generated(small)[1]
    other_seed = Layout(transactions=300, accounts=50, seed=4)
    assert generated(small)[1]["transaction"] != generated(other_seed)[1]["transaction"]


def test_every_transaction_balances_its_hbar_transfers(ledger_rows):
    sums = Counter()
    for entity_id, timestamp, amount, payer, approval in ledger_rows["crypto_transfer"]:
        sums[timestamp] += int(amount)
    assert len(sums) == LAYOUT.transactions
    assert set(sums.values()) == {0}


def test_every_balance_snapshot_and_the_final_balances_hold_the_whole_supply(ledger_rows):
    totals = Counter()
    for timestamp, balance, account in ledger_rows["account_balance"]:
        totals[timestamp] += int(balance)
    assert len(totals) == len(LAYOUT.snapshot_points()) == 3
    assert set(totals.values()) == {TOTAL_SUPPLY}
    accounts = [row for row in ledger_rows["entity"] if row[4] == "ACCOUNT"]
    assert sum(int(row[13]) for row in accounts) == TOTAL_SUPPLY


def test_no_balance_goes_negative_however_many_accounts_share_the_supply(ledger_rows):
    assert all(int(balance) >= 0 for _, balance, _ in ledger_rows["account_balance"])
    crowded = Ledger(Layout(transactions=1_000, accounts=200_000))
    for _ in crowded.transaction_chunks():
        pass
    assert min(crowded.hbar.values()) >= 0
    assert crowded.hbar[TREASURY] > TOTAL_SUPPLY // 2


def test_token_supplies_match_the_token_balances(ledger_rows):
    supplies = {int(row[0]): int(row[4]) for row in ledger_rows["token"]}
    held = Counter()
    for account, token, *_, balance, balance_timestamp in ledger_rows["token_account"]:
        held[int(token)] += int(balance)
    assert held == supplies
    assert all(int(row[2]) >= 0 for row in ledger_rows["token_balance"])


def test_ids_and_counts_follow_from_the_layout(ledger_rows):
    assert len(ledger_rows["record_file"]) == LAYOUT.blocks
    assert [int(row[0]) for row in ledger_rows["schedule"]] == list(
        range(LAYOUT.first_schedule, LAYOUT.first_schedule + LAYOUT.schedules)
    )
    types = Counter(row[1] for row in ledger_rows["transaction"])
    assert types["27"] == count_before("message", LAYOUT.transactions) == len(ledger_rows["topic_message"])
    assert types["7"] == count_before("contract", LAYOUT.transactions) == len(ledger_rows["contract_result"])
    assert count_before("crypto", len(KINDS)) == KINDS.count("crypto")


def test_topic_sequence_numbers_count_up_from_one_per_topic(ledger_rows):
    numbers = defaultdict(list)
    for row in ledger_rows["topic_message"]:
        numbers[row[-1]].append(int(row[3]))
    assert len(numbers) == LAYOUT.topics
    assert all(sequence == list(range(1, len(sequence) + 1)) for sequence in numbers.values())


@pytest.mark.django_db(transaction=True)
def test_generate_refuses_a_database_holding_rows_unless_told_to_replace():
    conninfo = django_conninfo()
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute("insert into topic (id, timestamp_range) values (5, '[1,)')")
    try:
        with pytest.raises(DatabaseNotEmpty, match="topic"):
            prepare_database(conninfo, replace=False)
        with pytest.raises(CommandError, match="--replace"):
            call_command("generate", "--transactions", "10", "--accounts", "5")

        prepare_database(conninfo, replace=True)

        with psycopg.connect(conninfo) as connection:
            assert connection.execute("select count(*) from topic").fetchone()[0] == 0
    finally:
        with psycopg.connect(conninfo, autocommit=True) as connection:
            connection.execute("truncate topic")
