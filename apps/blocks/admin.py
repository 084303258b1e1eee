"""Read-only admin for blocks (record files).

The search box takes what `/api/v1/blocks` prints: a block number, a hash (`0x` optional, a
prefix of at least `MIN_HASH_PREFIX_DIGITS`), or a timestamp (`seconds.nanos`), which finds
the block that contains it.
"""

from django.contrib import admin

from apps.blocks.models import RecordFile
from apps.common.admin import (
    MirrorModelAdmin,
    column,
    display_hex,
    display_timestamp,
    parse_search_hex,
    parse_search_timestamp,
)
from apps.common.ledger.codecs import parse_positive_long

# Shorter prefixes would match a large share of a big table.
MIN_HASH_PREFIX_DIGITS = 8


@admin.register(RecordFile)
class RecordFileAdmin(MirrorModelAdmin):
    list_display = (
        "index",
        column("consensus_end", display_timestamp, sortable=True),
        column("hash", display_hex),
        "count",
        "gas_used",
    )
    search_fields = ("index",)
    search_help_text = (
        "Block number (42), hash (0x…, at least 8 hex digits) or a timestamp in the block (1700000000.000000001)"
    )
    ordering = ("-consensus_end",)
    column_displays = {
        "hash": display_hex,
        "prev_hash": display_hex,
        "file_hash": display_hex,
        "consensus_start": display_timestamp,
        "consensus_end": display_timestamp,
    }

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        if term.isdigit():
            try:
                return queryset.filter(index=parse_positive_long(term, allow_zero=True)), False
            except ValueError:
                return queryset.none(), False
        if (timestamp := parse_search_timestamp(term)) is not None:
            return queryset.filter(consensus_end=self._block_end_containing(timestamp)), False
        if hash_prefix := parse_search_hex(term, min_digits=MIN_HASH_PREFIX_DIGITS):
            return queryset.filter(hash__startswith=hash_prefix), False
        return queryset.none(), False

    @staticmethod
    def _block_end_containing(timestamp: int) -> int | None:
        """The first block ending at or after `timestamp`, if it starts at or before it (one index read)."""
        blocks = RecordFile.objects.filter(consensus_end__gte=timestamp).order_by("consensus_end")
        block = blocks.values("consensus_start", "consensus_end").first()
        return block["consensus_end"] if block and block["consensus_start"] <= timestamp else None
