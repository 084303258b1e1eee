import pytest
from django.core.management import call_command

from apps.blocks.models import RecordFile
from apps.blocks.services import append_block
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.clock import frozen_at

pytestmark = pytest.mark.django_db

SECOND = 1_000_000_000
END = 1_700_000_000 * SECOND


@pytest.fixture
def newest():
    create_record_files(record_file(6, END - 5 * SECOND), record_file(7, END, round_start=40, round_end=41))
    return RecordFile.objects.get(index=7)


def test_appends_an_empty_block_after_the_newest(newest):
    block = append_block(consensus_end=END + 2 * SECOND)

    stored = RecordFile.objects.get(consensus_end=END + 2 * SECOND)
    assert stored.index == block.index == 8
    assert (stored.consensus_start, stored.consensus_end) == (END + 1, END + 2 * SECOND)
    assert stored.prev_hash == newest.hash
    assert len(stored.hash) == 96 and stored.hash != newest.hash
    assert len(stored.file_hash) == 96
    assert (stored.count, stored.gas_used, bytes(stored.logs_bloom), stored.sidecar_count) == (0, 0, b"", 0)
    assert (stored.round_start, stored.round_end) == (42, 42)
    assert stored.load_start == stored.load_end == 1_700_000_002
    assert stored.name == "2023-11-14T22_13_20.000000001Z.rcd"
    assert (stored.hapi_version_minor, stored.version) == (newest.hapi_version_minor, newest.version)


def test_blocks_chain_on(newest):
    second = append_block(consensus_end=END + 2 * SECOND)
    third = append_block(consensus_end=END + 4 * SECOND)

    assert third.index == 9
    assert third.prev_hash == second.hash
    assert third.consensus_start == second.consensus_end + 1


def test_nothing_to_follow_in_an_empty_mirror():
    assert append_block(consensus_end=END) is None
    assert not RecordFile.objects.exists()


def test_never_goes_back_in_time(newest):
    assert append_block(consensus_end=END) is None
    assert append_block(consensus_end=END - 1) is None
    assert RecordFile.objects.count() == 2


def test_demo_tick_command_appends_a_block_ending_now(newest, client):
    with frozen_at(END + 3 * SECOND):
        call_command("demo_tick")

    blocks = client.get("/api/v1/blocks", {"limit": 1}).json()["blocks"]
    assert blocks[0]["number"] == 8
    assert blocks[0]["timestamp"] == {"from": "1700000000.000000001", "to": "1700000003.000000000"}
    assert blocks[0]["previous_hash"] == f"0x{newest.hash}"
    assert blocks[0]["count"] == 0
