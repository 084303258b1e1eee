"""The versions of a file's content, without HTTP."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.contracts.selectors.files import file_versions
from apps.network.models import FileData

pytestmark = pytest.mark.django_db


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
    assert file_versions(file_id=1001) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert file_versions(file_id=1001, at=4) == [b"\x01\x02\x03"]
    assert file_versions(file_id=1001, count=1) == [b"\x09\x0a"]
    assert file_versions(file_id=1001, count=2) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert file_versions(file_id=1001, count=3) == [b"\x09\x0a", b"\x01\x02\x03"]
    assert file_versions(file_id=1001, at=5, count=1) == [b"\x09"]
    assert file_versions(file_id=1001, at=3, count=1) == [b"\x01\x02"]


def test_the_latest_versions_read_only_their_own_rows():
    # Fifty versions of two rows each (an update, then an append).
    FileData.objects.bulk_create(
        FileData(consensus_timestamp=ts, entity_id=1001, file_data=bytes([ts % 256]), transaction_type=kind)
        for version in range(50)
        for ts, kind in ((2 * version + 1, 19), (2 * version + 2, 16))
    )
    with CaptureQueriesContext(connection) as captured:
        assert file_versions(file_id=1001, count=2) == [bytes([99, 100]), bytes([97, 98])]
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
