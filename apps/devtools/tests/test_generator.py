"""The generated ledger is consistent and deterministic: checked in the database it was written to."""

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from apps.common.database.schema import mirror_tables
from apps.devtools.generator.ledger import (
    TABLES,
    TOTAL_SUPPLY,
    TREASURY,
    Layout,
    count_before,
)
from apps.devtools.generator.loader import (
    DatabaseNotEmpty,
    django_conninfo,
    load_ledger,
    prepare_database,
)

LAYOUT = Layout(transactions=30_000, accounts=700, seed=3)
# Chunks that split the ledger unevenly, so rows written by different connections meet.
SMALL_CHUNK = 4_300


def _truncate_mirror() -> None:
    with connection.cursor() as cursor:
        cursor.execute("truncate " + ", ".join(f'"{table}"' for table in mirror_tables()))


@pytest.fixture(scope="module")
def ledger(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        load_ledger(django_conninfo(), LAYOUT, progress=lambda message: None, chunk=SMALL_CHUNK)
        try:
            yield
        finally:
            _truncate_mirror()


def scalar(query: str, params=()) -> object:
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchone()[0]


def rows(query: str, params=()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchall()


def table_digests(conninfo: str) -> dict[str, str]:
    """Per written table, a digest of its rows in a fixed order (read outside the test's transaction, whose
    locks would keep the generator from emptying the tables)."""
    with psycopg.connect(conninfo, autocommit=True) as database:
        return {
            table: database.execute(
                f"select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) from \"{table}\" r"
            ).fetchone()[0]
            for table in TABLES
        }


# pytest-django runs the tests of the whole database after the others (the module's ledger is gone then).
@pytest.mark.django_db(transaction=True)
def test_generate_refuses_a_database_holding_rows_unless_told_to_replace():
    conninfo = django_conninfo()
    with psycopg.connect(conninfo, autocommit=True) as database:
        database.execute("insert into topic (id, timestamp_range) values (5, '[1,)')")
    try:
        with pytest.raises(DatabaseNotEmpty, match="topic"):
            prepare_database(conninfo, replace=False)
        with pytest.raises(CommandError, match="--replace"):
            call_command("generate", "--transactions", "10", "--accounts", "5")

        prepare_database(conninfo, replace=True)

        with psycopg.connect(conninfo) as database:
            assert database.execute("select count(*) from topic").fetchone()[0] == 0
    finally:
        with psycopg.connect(conninfo, autocommit=True) as database:
            database.execute("truncate topic")


@pytest.mark.django_db(transaction=True)
def test_generate_writes_a_small_ledger_and_reports_it(capsys):
    try:
        call_command("generate", "--transactions", "250", "--accounts", "20", "--seed", "9")

        assert "generated 250 transactions" in capsys.readouterr().out
        assert scalar("select count(*) from transaction") == 250
    finally:
        _truncate_mirror()


@pytest.mark.django_db
def test_every_transaction_balances_its_hbar_transfers(ledger):
    sums = rows("select sum(amount) from crypto_transfer group by consensus_timestamp")
    assert len(sums) == LAYOUT.transactions
    assert {total for (total,) in sums} == {0}


@pytest.mark.django_db
def test_every_balance_snapshot_and_the_final_balances_hold_the_whole_supply(ledger):
    totals = rows("select consensus_timestamp, sum(balance) from account_balance group by 1 order by 1")
    assert [timestamp for timestamp, _ in totals] == [
        LAYOUT.snapshot_timestamp(point) for point in LAYOUT.snapshot_points()
    ]
    assert {total for _, total in totals} == {TOTAL_SUPPLY}
    assert scalar("select sum(balance) from entity where type = 'ACCOUNT'") == TOTAL_SUPPLY
    final = LAYOUT.snapshot_timestamp(LAYOUT.transactions)
    assert not rows(
        "select id from entity e join account_balance b on b.account_id = e.id and b.consensus_timestamp = %s"
        " where e.balance <> b.balance",
        [final],
    )


@pytest.mark.django_db
def test_a_snapshot_is_the_starting_balance_plus_the_transfers_before_it(ledger):
    first, middle = (LAYOUT.snapshot_timestamp(point) for point in LAYOUT.snapshot_points()[:2])
    assert not rows(
        "select a.account_id from account_balance a join account_balance b using (account_id)"
        " where a.consensus_timestamp = %(first)s and b.consensus_timestamp = %(middle)s"
        " and b.balance <> a.balance + coalesce((select sum(amount) from crypto_transfer"
        "  where entity_id = a.account_id and consensus_timestamp < %(middle)s), 0)",
        {"first": first, "middle": middle},
    )


@pytest.mark.django_db
def test_no_balance_goes_negative_and_the_treasury_stays_richest(ledger):
    assert scalar("select min(balance) from account_balance") >= 0
    assert scalar("select min(balance) from token_balance") >= 0
    assert scalar("select balance from entity where id = %s", [TREASURY]) > TOTAL_SUPPLY // 2


@pytest.mark.django_db
def test_token_supplies_match_the_token_balances(ledger):
    assert not rows(
        "select token_id from token t where total_supply <>"
        " (select sum(balance) from token_account a where a.token_id = t.token_id)"
    )
    assert scalar("select count(*) from token") == LAYOUT.fungible_tokens + LAYOUT.nft_tokens


@pytest.mark.django_db
def test_an_nft_moves_from_its_last_receiver_and_ends_with_the_latest(ledger):
    moves = """
        select consensus_timestamp, (x ->> 'token_id')::bigint as token_id, (x ->> 'serial_number')::bigint as serial,
            (x ->> 'sender_account_id')::bigint as sender, (x ->> 'receiver_account_id')::bigint as receiver
        from transaction, jsonb_array_elements(nft_transfer) x where nft_transfer is not null
    """
    assert scalar(f"select count(*) from ({moves}) m") == count_before("nft", LAYOUT.transactions)
    assert not rows(
        f"select * from (select sender, lag(receiver) over (partition by token_id, serial order by consensus_timestamp)"
        f" as previous from ({moves}) m) chain where previous <> sender"
    )
    assert not rows(
        f"select n.token_id from nft n join (select distinct on (token_id, serial) * from ({moves}) m"
        f" order by token_id, serial, consensus_timestamp desc) last"
        f" on last.token_id = n.token_id and last.serial = n.serial_number"
        f" where n.account_id <> last.receiver or lower(n.timestamp_range) <> last.consensus_timestamp"
    )


@pytest.mark.django_db
def test_a_contract_slot_reads_what_its_previous_change_wrote(ledger):
    assert not rows(
        "select * from (select value_read, lag(value_written) over (partition by contract_id, slot"
        " order by consensus_timestamp) as previous from contract_state_change) c where previous <> value_read"
    )
    assert not rows(
        "select * from contract_state s where value <> (select value_written from contract_state_change c"
        " where c.contract_id = s.contract_id and c.slot = s.slot order by consensus_timestamp desc limit 1)"
    )


@pytest.mark.django_db
def test_blocks_chain_their_hashes_and_sum_their_gas(ledger):
    assert not rows(
        "select * from (select prev_hash, lag(hash) over (order by index) as previous from record_file) b"
        " where previous <> prev_hash"
    )
    assert not rows(
        "select index from record_file f where gas_used <> coalesce((select sum(gas_used) from contract_result r"
        " where r.consensus_timestamp between f.consensus_start and f.consensus_end), 0)"
    )
    assert scalar("select sum(count) from record_file") == LAYOUT.transactions


@pytest.mark.django_db
def test_ids_and_counts_follow_from_the_layout(ledger):
    assert scalar("select count(*) from record_file") == LAYOUT.blocks
    assert [schedule for (schedule,) in rows("select schedule_id from schedule order by 1")] == list(
        range(LAYOUT.first_schedule, LAYOUT.first_schedule + LAYOUT.schedules)
    )
    types = dict(rows("select type, count(*) from transaction group by type"))
    assert types[27] == count_before("message", LAYOUT.transactions) == scalar("select count(*) from topic_message")
    assert types[7] == count_before("contract", LAYOUT.transactions) == scalar("select count(*) from contract_result")
    assert scalar("select count(*) from entity where type = 'ACCOUNT'") == LAYOUT.accounts + 10


@pytest.mark.django_db
def test_topic_sequence_numbers_count_up_from_one_and_every_topic_has_its_fees(ledger):
    sequences = rows("select min(sequence_number), max(sequence_number), count(*) from topic_message group by topic_id")
    assert len(sequences) == LAYOUT.topics
    assert all(low == 1 and high == count for low, high, count in sequences)
    assert scalar("select count(*) from topic t join custom_fee f on f.entity_id = t.id") == LAYOUT.topics


@pytest.mark.django_db
def test_registered_nodes_follow_from_the_layout(ledger):
    assert rows("select count(*), count(*) filter (where deleted) from registered_node") == [
        (LAYOUT.registered_nodes, LAYOUT.registered_nodes // 10)
    ]
    # Each node's one endpoint is of its type, as the importer stores it.
    assert rows(
        "select type[1], count(*) from registered_node"
        " where jsonb_array_length(service_endpoints) = 1 and service_endpoints -> 0 ? (array["
        "'', 'block_node', 'general_service', 'mirror_node', 'rpc_relay'])[type[1] + 1] group by 1 order by 1"
    ) == [(node_type, LAYOUT.registered_nodes // 4) for node_type in (1, 2, 3, 4)]


@pytest.mark.django_db(transaction=True)
def test_the_same_seed_gives_the_same_rows_however_chunked_and_another_seed_others():
    conninfo = django_conninfo()
    small = Layout(transactions=5_000, accounts=120, seed=3)
    try:
        load_ledger(conninfo, small, progress=lambda message: None, chunk=700)
        written = table_digests(conninfo)
        prepare_database(conninfo, replace=True)
        load_ledger(conninfo, small, progress=lambda message: None)

        assert table_digests(conninfo) == written

        prepare_database(conninfo, replace=True)
        load_ledger(conninfo, Layout(transactions=5_000, accounts=120, seed=4), progress=lambda message: None)

        other = table_digests(conninfo)
        assert other["transaction"] != written["transaction"]
        assert other["record_file"] != written["record_file"]
    finally:
        _truncate_mirror()
