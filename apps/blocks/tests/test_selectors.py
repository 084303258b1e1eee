import pytest

from apps.blocks.selectors import block_get, block_queryset
from apps.blocks.tests.factories import block_hash, create_record_files, record_file
from apps.common.errors import InvalidArgument

pytestmark = pytest.mark.django_db

HASH = block_hash(11)


@pytest.fixture
def blocks():
    create_record_files(
        record_file(10, 1000),
        record_file(11, 1100, size=None, bytes=b"\x00" * 7),
        record_file(12, 1200, size=None, bytes=None),
    )


@pytest.mark.parametrize(
    "hash_or_number",
    [
        "11",
        "0011",
        HASH,
        "0x" + HASH,
        HASH.upper(),
        "0x" + HASH.upper(),
        HASH[:64],
        "0x" + HASH[:64],
        HASH[:64].upper(),
    ],
)
def test_block_get_finds_block_by_each_form(blocks, hash_or_number):
    block = block_get(hash_or_number=hash_or_number)

    assert (block["index"], block["hash"]) == (11, HASH)


@pytest.mark.parametrize(
    "hash_or_number", ["99", "0", "9223372036854775807", "f" * 96, "0x" + "f" * 64, HASH[32:] + HASH[:32]]
)
def test_block_get_returns_none_when_absent(blocks, hash_or_number):
    assert block_get(hash_or_number=hash_or_number) is None


@pytest.mark.parametrize(
    "hash_or_number",
    [
        "",
        "-1",
        "1.5",
        "1test",
        "9223372036854775808",
        HASH[:63],
        "0x" + HASH[:63],
        HASH[:65],
        HASH + "0",
        "0x" + HASH[:95],
        "0X" + HASH,
        "g" * 64,
        "0x",
    ],
)
def test_block_get_rejects_malformed_hash_or_number(blocks, hash_or_number):
    with pytest.raises(InvalidArgument) as error:
        block_get(hash_or_number=hash_or_number)

    assert error.value.messages == ["Invalid parameter: hashOrNumber"]


def test_block_get_by_hash_prefix_picks_earliest_matching_block(db):
    create_record_files(
        record_file(21, 2100, hash=HASH[:64] + "1" * 32),
        record_file(20, 2000, hash=HASH[:64] + "2" * 32),
    )

    assert block_get(hash_or_number=HASH[:64])["index"] == 20


def test_block_get_by_number_picks_earliest_matching_block(db):
    create_record_files(record_file(30, 3100), record_file(30, 3000))

    assert block_get(hash_or_number="30")["consensus_end"] == 3000


def test_block_queryset_reads_size_from_column_or_bytes(blocks):
    sizes = {row["index"]: row["block_size"] for row in block_queryset()}

    assert sizes == {10: 1000, 11: 7, 12: None}


def test_block_queryset_does_not_select_bytes():
    query = str(block_queryset().query)

    assert 'LENGTH("record_file"."bytes")' in query
    assert '"record_file"."bytes"' not in query.replace('LENGTH("record_file"."bytes")', "")


def test_block_queryset_selects_the_block_columns():
    query = str(block_queryset().query)

    for column in ("consensus_end", "consensus_start", "count", "gas_used", "hash", "index", "logs_bloom", "name"):
        assert f'"record_file"."{column}"' in query
    for column in ("file_hash", "load_start", "round_start", "receipts_root"):
        assert f'"record_file"."{column}"' not in query
