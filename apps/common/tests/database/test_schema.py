import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from apps.common.database.schema import (
    ensure_mirror_schema,
    mirror_schema_exists,
    mirror_tables,
)

pytestmark = pytest.mark.django_db


def execute(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


def tables_in_current_schema() -> list[str]:
    """Tables and views, partitions left out (they store their parent's rows)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "select table_name from information_schema.tables t"
            " where table_schema = current_schema() and not exists (select 1 from pg_inherits"
            "  where inhrelid = format('%I.%I', t.table_schema, t.table_name)::regclass)"
            " order by table_name"
        )
        return [name for (name,) in cursor.fetchall()]


def record_file_columns() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "select column_name from information_schema.columns"
            " where table_schema = current_schema() and table_name = 'record_file'"
        )
        return {name for (name,) in cursor.fetchall()}


def use_scratch_schema() -> None:
    execute("create schema scratch; set local search_path to scratch, public")


def test_mirror_tables_are_the_unmanaged_models_tables():
    assert "record_file" in mirror_tables()
    assert "sidecar_file" in mirror_tables()
    assert "auth_user" not in mirror_tables()
    assert list(mirror_tables()) == sorted(mirror_tables())


def test_migrated_database_holds_every_mirror_table():
    assert set(mirror_tables()) <= set(tables_in_current_schema())


def test_ensure_mirror_schema_leaves_existing_schema_alone():
    execute("alter table record_file add column marker integer; drop table prng")

    created = ensure_mirror_schema(connection)

    assert created is False
    assert "marker" in record_file_columns()
    assert "prng" not in tables_in_current_schema()


def test_ensure_mirror_schema_leaves_schema_with_a_single_mirror_table_alone():
    use_scratch_schema()
    execute("create table record_file (marker integer)")

    assert mirror_schema_exists(connection) is True
    assert ensure_mirror_schema(connection) is False
    assert tables_in_current_schema() == ["record_file"]


def test_ensure_mirror_schema_creates_every_table_in_an_empty_schema():
    use_scratch_schema()
    assert mirror_schema_exists(connection) is False

    created = ensure_mirror_schema(connection)

    assert created is True
    assert tables_in_current_schema() == list(mirror_tables())
    assert mirror_schema_exists(connection) is True


def test_created_tables_match_the_models_columns():
    use_scratch_schema()
    ensure_mirror_schema(connection)

    with connection.cursor() as cursor:
        for model in apps.get_models():
            if model._meta.managed:
                continue
            cursor.execute(
                "select column_name from information_schema.columns"
                " where table_schema = current_schema() and table_name = %s",
                [model._meta.db_table],
            )
            columns = {name for (name,) in cursor.fetchall()}
            model_columns = {field.column for field in model._meta.concrete_fields}
            assert model_columns <= columns, model._meta.db_table


def test_ensure_mirror_schema_a_second_time_changes_nothing():
    use_scratch_schema()
    ensure_mirror_schema(connection)

    assert ensure_mirror_schema(connection) is False
    assert tables_in_current_schema() == list(mirror_tables())


def test_migrate_again_leaves_an_altered_table_alone():
    execute("alter table record_file add column marker integer")

    call_command("migrate", verbosity=0)

    assert "marker" in record_file_columns()


def test_reapplying_the_schema_migration_leaves_an_altered_table_alone():
    execute("alter table record_file add column marker integer; drop table prng")

    call_command("migrate", "common", "zero", verbosity=0)
    call_command("migrate", "common", verbosity=0)

    assert "marker" in record_file_columns()
    assert "prng" not in tables_in_current_schema()


def test_balance_tables_take_timestamps_from_1970_to_2040():
    execute(
        "insert into account_balance values (0, 1, 2), (2240611199999999999, 1, 2);"
        "insert into token_balance values (0, 2, 1, 3), (2240611199999999999, 2, 1, 3)"
    )

    with connection.cursor() as cursor:
        cursor.execute("select count(*) from account_balance join token_balance using (consensus_timestamp)")
        assert cursor.fetchone()[0] == 2


def test_transaction_info_by_hash_matches_the_first_32_bytes_and_returns_the_whole_hash():
    full_hash = bytes(range(7, 55))
    other_hash = bytes([7 + 32]) + full_hash[1:]  # same partition, different prefix
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into transaction_hash (consensus_timestamp, hash, payer_account_id, hash_suffix)"
            " values (10, %s, 1001, %s), (11, %s, 1002, null)",
            [full_hash[:32], full_hash[32:], other_hash],
        )
        cursor.execute("select * from get_transaction_info_by_hash(%s)", [full_hash[:32]])
        assert cursor.fetchall() == [(10, full_hash, 1001)]
        cursor.execute("select * from get_transaction_info_by_hash(%s)", [other_hash])
        assert cursor.fetchall() == [(11, other_hash, 1002)]
