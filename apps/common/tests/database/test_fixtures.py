import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from apps.blocks.models import RecordFile, SidecarFile
from apps.blocks.tests.factories import create_record_files, record_file

pytestmark = pytest.mark.django_db


def record_file_row(index: int, consensus_end: int, **overrides) -> dict:
    row = {
        "name": f"block-{index}.rcd",
        "load_start": 1,
        "load_end": 2,
        "hash": f"{index:02x}" * 48,
        "prev_hash": "00" * 48,
        "consensus_start": consensus_end - 5,
        "consensus_end": consensus_end,
        "count": 4,
        "digest_algorithm": 0,
        "hapi_version_major": 0,
        "hapi_version_minor": 47,
        "hapi_version_patch": None,
        "version": 6,
        "file_hash": "ff" * 48,
        "bytes": "\\x0102",
        "index": index,
        "gas_used": 9223372036854775807,
        "logs_bloom": "\\x",
        "size": None,
        "sidecar_count": 0,
    }
    return {**row, **overrides}


def write(path, document) -> str:
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return str(path)


def load(*paths: str, replace: bool = False) -> str:
    out = StringIO()
    call_command("loadfixtures", *paths, *(["--replace"] if replace else []), stdout=out)
    return out.getvalue()


def load_error(*paths: str, replace: bool = False) -> str:
    with pytest.raises(CommandError) as error:
        load(*paths, replace=replace)
    return str(error.value)


def stored_blocks() -> list[tuple[int, int, str]]:
    return list(RecordFile.objects.order_by("consensus_end").values_list("index", "consensus_end", "name"))


@pytest.fixture
def existing_block():
    create_record_files(record_file(1, 100, name="existing.rcd"))
    return [(1, 100, "existing.rcd")]


def test_loads_rows_with_exact_column_values(tmp_path):
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700), record_file_row(8, 800)]})

    output = load(path)

    assert output == "loaded 2 rows into 1 tables\n"
    block = RecordFile.objects.get(consensus_end=700)
    assert (block.index, block.gas_used, block.hapi_version_patch, block.size) == (7, 9223372036854775807, None, None)
    assert (bytes(block.bytes), bytes(block.logs_bloom)) == (b"\x01\x02", b"")
    assert block.hash == "07" * 48


def test_loads_array_and_several_tables(tmp_path):
    sidecar = {
        "bytes": None,
        "count": 2,
        "consensus_end": 700,
        "hash_algorithm": 0,
        "hash": "\\xabcd",
        "id": 1,
        "name": "sidecar.rcd",
        "size": 5,
        "types": [1, 3],
    }
    path = write(tmp_path / "rows.json", {"record_file": [record_file_row(7, 700)], "sidecar_file": [sidecar]})

    assert load(path) == "loaded 2 rows into 2 tables\n"
    stored = SidecarFile.objects.get()
    assert (stored.types, bytes(stored.hash)) == ([1, 3], b"\xab\xcd")


def test_loads_rows_of_a_conformance_case_file(tmp_path):
    path = write(tmp_path / "case.json", {"rows": {"record_file": [record_file_row(7, 700)]}, "tests": []})

    load(path)

    assert stored_blocks() == [(7, 700, "block-7.rcd")]


def test_loads_several_files_adding_to_existing_rows(tmp_path, existing_block):
    first = write(tmp_path / "first.json", {"record_file": [record_file_row(7, 700)]})
    second = write(tmp_path / "second.json", {"record_file": [record_file_row(8, 800)]})

    assert load(first, second) == "loaded 2 rows into 1 tables\n"
    assert stored_blocks() == [*existing_block, (7, 700, "block-7.rcd"), (8, 800, "block-8.rcd")]


def test_empty_table_list_loads_nothing(tmp_path, existing_block):
    assert load(write(tmp_path / "empty.json", {"record_file": []})) == "loaded 0 rows into 1 tables\n"
    assert stored_blocks() == existing_block


def test_replace_empties_every_mirror_table_first(tmp_path, existing_block):
    with connection.cursor() as cursor:
        cursor.execute("insert into prng (consensus_timestamp, payer_account_id, range) values (1, 2, 3)")
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700)]})

    load(path, replace=True)

    assert stored_blocks() == [(7, 700, "block-7.rcd")]
    with connection.cursor() as cursor:
        cursor.execute("select count(*) from prng")
        assert cursor.fetchone() == (0,)


def test_if_empty_loads_into_an_empty_mirror(tmp_path):
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700)]})

    assert load(path, "--if-empty") == "loaded 1 rows into 1 tables\n"
    assert stored_blocks() == [(7, 700, "block-7.rcd")]


def test_if_empty_keeps_a_mirror_with_rows(tmp_path, existing_block):
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700)]})

    assert load(path, "--if-empty") == "the mirror already has rows: nothing loaded\n"
    assert stored_blocks() == existing_block


def test_if_empty_sees_rows_of_any_mirror_table(tmp_path):
    with connection.cursor() as cursor:
        cursor.execute("insert into prng (consensus_timestamp, payer_account_id, range) values (1, 2, 3)")
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700)]})

    assert load(path, "--if-empty") == "the mirror already has rows: nothing loaded\n"
    assert stored_blocks() == []


def test_if_empty_and_replace_exclude_each_other(tmp_path):
    path = write(tmp_path / "blocks.json", {"record_file": [record_file_row(7, 700)]})

    assert load_error(path, "--if-empty", replace=True) == "--replace and --if-empty exclude each other"


def test_malformed_json(tmp_path, existing_block):
    path = write(tmp_path / "broken.json", '{"record_file": [')

    message = load_error(path)

    assert message.startswith(f"nothing loaded: {path}: cannot read JSON: ")
    assert stored_blocks() == existing_block


def test_missing_file(tmp_path):
    path = str(tmp_path / "absent.json")

    assert load_error(path).startswith(f"nothing loaded: {path}: cannot read JSON: ")


@pytest.mark.parametrize("document", [[{"record_file": []}], {"record_file": {"name": "x"}}, "1"])
def test_document_that_is_not_a_table_mapping(tmp_path, document):
    path = write(tmp_path / "odd.json", json.dumps(document))

    assert load_error(path) == (
        f"nothing loaded: {path}: expected an object mapping table names to lists of rows"
    )


def test_unknown_table(tmp_path, existing_block):
    path = write(tmp_path / "tables.json", {"record_file": [record_file_row(7, 700)], "blocks": []})

    assert load_error(path) == f"nothing loaded: {path}: unknown table 'blocks'"
    assert stored_blocks() == existing_block


def test_unknown_column(tmp_path, existing_block):
    rows = [record_file_row(7, 700), record_file_row(8, 800, colour="red", weight=1)]
    path = write(tmp_path / "columns.json", {"record_file": rows})

    assert load_error(path) == (
        f"nothing loaded: {path}: table 'record_file' row 1: unknown column(s) colour, weight"
    )
    assert stored_blocks() == existing_block


def test_row_that_is_not_an_object(tmp_path, existing_block):
    path = write(tmp_path / "rows.json", {"record_file": [record_file_row(7, 700), [1, 2]]})

    assert load_error(path) == f"nothing loaded: {path}: table 'record_file' row 1: not an object"
    assert stored_blocks() == existing_block


def test_bad_value(tmp_path, existing_block):
    rows = [record_file_row(7, 700), record_file_row(8, 800), record_file_row(9, 900, count="many")]
    path = write(tmp_path / "values.json", {"record_file": rows})

    assert load_error(path) == (
        f'nothing loaded: {path}: table \'record_file\' row 2: invalid input syntax for type bigint: "many"'
    )
    assert stored_blocks() == existing_block


def test_missing_required_value(tmp_path, existing_block):
    row = record_file_row(8, 800)
    del row["name"]
    path = write(tmp_path / "values.json", {"record_file": [record_file_row(7, 700), row]})

    assert load_error(path) == (
        f"nothing loaded: {path}: table 'record_file' row 1: null value in column \"name\" "
        'of relation "record_file" violates not-null constraint'
    )
    assert stored_blocks() == existing_block


def test_duplicate_key_names_the_second_row(tmp_path, existing_block):
    rows = [record_file_row(7, 700), record_file_row(8, 700)]
    path = write(tmp_path / "duplicates.json", {"record_file": rows})

    assert load_error(path) == (
        f"nothing loaded: {path}: table 'record_file' row 1: "
        'duplicate key value violates unique constraint "record_file_pkey"'
    )
    assert stored_blocks() == existing_block


def test_row_conflicting_with_an_existing_row(tmp_path, existing_block):
    path = write(tmp_path / "conflict.json", {"record_file": [record_file_row(1, 100)]})

    assert load_error(path) == (
        f"nothing loaded: {path}: table 'record_file' row 0: "
        'duplicate key value violates unique constraint "record_file_pkey"'
    )
    assert stored_blocks() == existing_block


def test_bad_file_after_good_file_loads_nothing(tmp_path, existing_block):
    good = write(tmp_path / "good.json", {"record_file": [record_file_row(7, 700)]})
    bad = write(tmp_path / "bad.json", {"record_file": [{**record_file_row(8, 800), "index": "eight"}]})

    message = load_error(good, bad)

    assert message == (
        f'nothing loaded: {bad}: table \'record_file\' row 0: invalid input syntax for type bigint: "eight"'
    )
    assert stored_blocks() == existing_block


def test_failed_replace_keeps_existing_rows(tmp_path, existing_block):
    good = write(tmp_path / "good.json", {"record_file": [record_file_row(7, 700)]})
    bad = write(tmp_path / "bad.json", {"nope": []})

    assert load_error(good, bad, replace=True) == f"nothing loaded: {bad}: unknown table 'nope'"
    assert stored_blocks() == existing_block


def test_database_is_usable_after_a_failed_load(tmp_path, existing_block):
    load_error(write(tmp_path / "bad.json", {"record_file": [record_file_row(8, 800, count="x")]}))

    load(write(tmp_path / "good.json", {"record_file": [record_file_row(7, 700)]}))

    assert stored_blocks() == [*existing_block, (7, 700, "block-7.rcd")]
