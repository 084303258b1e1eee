"""Writes to the blocks table, for the demo only: in a deployment the importer owns it.

`append_block` closes a new, empty block at the given time after the newest one, so the
demo's mirror looks live (its freshness check stays operational) while every row stays
consistent: numbers follow on, each block starts right after the previous one ends, and
each names the previous one's hash.
"""

import hashlib
from datetime import UTC, datetime

from apps.blocks.models import RecordFile

__all__ = ("append_block",)

NANOS_PER_SECOND = 1_000_000_000


def append_block(*, consensus_end: int) -> RecordFile | None:
    """The new block ending at `consensus_end`; None if the mirror has no block or a newer one."""
    newest = RecordFile.objects.order_by("-consensus_end").first()
    if newest is None or newest.consensus_end >= consensus_end:
        return None
    consensus_start = newest.consensus_end + 1
    block_hash = hashlib.sha384(f"{newest.hash}{consensus_end}".encode()).hexdigest()
    loaded_at = consensus_end // NANOS_PER_SECOND
    block = RecordFile(
        **{field.attname: getattr(newest, field.attname) for field in RecordFile._meta.concrete_fields}
    )
    block.name = _record_file_name(consensus_start)
    block.index = newest.index + 1
    block.consensus_start = consensus_start
    block.consensus_end = consensus_end
    block.prev_hash = newest.hash
    block.hash = block_hash
    block.file_hash = hashlib.sha384(block_hash.encode()).hexdigest()
    block.load_start = block.load_end = loaded_at
    block.count = 0
    block.gas_used = 0
    block.logs_bloom = b""
    block.bytes = None
    block.sidecar_count = 0
    if newest.round_end is not None:
        block.round_start = block.round_end = newest.round_end + 1
    block.save(force_insert=True)
    return block


def _record_file_name(consensus_start: int) -> str:
    """`2026-11-20T10_00_18.333861275Z.rcd`, as the network names record files."""
    seconds, nanos = divmod(consensus_start, NANOS_PER_SECOND)
    return f"{datetime.fromtimestamp(seconds, tz=UTC):%Y-%m-%dT%H_%M_%S}.{nanos:09d}Z.rcd"
