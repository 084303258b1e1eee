"""Read-only admin for blocks (record files).

The search box takes what `/api/v1/blocks` prints: a block number, a hash (`0x` optional, a
prefix of at least `MIN_HASH_PREFIX_DIGITS`), or a timestamp (`seconds.nanos`), which finds
the block that contains it. A block's page lists its transactions, each linked to its page.
"""

from django.contrib import admin

from apps.blocks.models import RecordFile
from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_epoch_seconds,
    display_hex,
    display_result,
    display_table,
    display_timestamp,
    display_transaction_type,
    enum_names,
    parse_search_hex,
    parse_search_timestamp,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_positive_long
from apps.transactions.api.serializers import format_transaction_id
from apps.transactions.models import Transaction

# Shorter prefixes would match a large share of a big table.
MIN_HASH_PREFIX_DIGITS = 8
TRANSACTIONS_SHOWN = 100
DIGEST_ALGORITHMS = ("SHA_384",)


def display_size(data: bytes | None) -> str | None:
    """A record file's own bytes by their length: the hex of a whole file reads as nothing."""
    return None if data is None else f"{len(data)} bytes"


@admin.register(RecordFile)
class RecordFileAdmin(MirrorModelAdmin):
    page_kinds = ("BLOCK",)
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
        "bytes": display_size,
        "consensus_end": display_timestamp,
        "consensus_start": display_timestamp,
        "digest_algorithm": enum_names(DIGEST_ALGORITHMS),
        "file_hash": display_hex,
        "hash": display_hex,
        "load_end": display_epoch_seconds,
        "load_start": display_epoch_seconds,
        "prev_hash": display_hex,
    }
    detail_related = ("transactions",)

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

    @detail_display(f"transactions (at most {TRANSACTIONS_SHOWN})")
    def transactions(self, block):
        rows = (
            Transaction.objects.filter(consensus_timestamp__range=(block.consensus_start, block.consensus_end))
            .order_by("consensus_timestamp")
            .values("consensus_timestamp", "payer_account_id", "valid_start_ns", "nonce", "type", "result")
        )
        link = timestamp_link("TRANSACTION")
        return display_table(
            ("consensus timestamp", "transaction id", "nonce", "type", "result"),
            (
                (
                    link(row["consensus_timestamp"]),
                    format_transaction_id(row["payer_account_id"], row["valid_start_ns"]),
                    row["nonce"],
                    display_transaction_type(row["type"]),
                    display_result(row["result"]),
                )
                for row in rows[:TRANSACTIONS_SHOWN]
            ),
        )
