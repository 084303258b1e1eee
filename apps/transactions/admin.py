"""Read-only admin for transactions.

The table is one of the largest of the mirror: every list here is an ordered,
limited read, filters use static choices (never `select distinct` over the
table), and the paginator counts at most `COUNT_CAP` rows.

The search box takes what the API prints: a transaction id (or the SDKs'
`0.0.8@1234567890.000000001`), a consensus timestamp, a transaction hash (hex,
`0x` optional, or base64) or a payer account id.
"""

import re

from django.contrib import admin
from django.utils.html import format_html
from django.utils.http import urlencode

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_boolean,
    display_bytes,
    display_entity_id,
    display_hbar,
    display_json,
    display_key,
    display_result,
    display_seconds,
    display_table,
    display_timestamp,
    display_transaction_type,
    entity_link,
    parse_search_entity_id,
    parse_search_timestamp,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_entity_id
from apps.transactions import selectors
from apps.transactions.api.serializers import (
    decode_max_custom_fees,
    format_transaction_id,
)
from apps.transactions.api.views import parse_transaction_hash
from apps.transactions.models import Transaction

account_link, token_link = entity_link("ACCOUNT"), entity_link("TOKEN")

# `0.0.8-1234567890-000000001`, or the SDKs' `0.0.8@1234567890.000000001`.
_TRANSACTION_ID = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-(\d{1,19})-|@(\d{1,19})\.)(\d{1,9})$")


class TypeFilter(admin.SimpleListFilter):
    title = "type"
    parameter_name = "type"

    def lookups(self, request, model_admin):
        choices = ((str(type_id), name) for type_id, name in selectors.TRANSACTION_TYPES.items())
        return sorted(choices, key=lambda choice: choice[1])

    def queryset(self, request, queryset):
        return queryset.filter(type=int(self.value())) if self.value() else queryset


class ResultFilter(admin.SimpleListFilter):
    title = "result"
    parameter_name = "result"

    def lookups(self, request, model_admin):
        return ((selectors.RESULT_SUCCESS, "Success"), (selectors.RESULT_FAIL, "Fail"))

    def queryset(self, request, queryset):
        if self.value() == selectors.RESULT_SUCCESS:
            return queryset.filter(result__in=selectors.SUCCESS_RESULTS)
        if self.value() == selectors.RESULT_FAIL:
            return queryset.exclude(result__in=selectors.SUCCESS_RESULTS)
        return queryset


class PayerFilter(admin.SimpleListFilter):
    """Set by the payer links of the list (`?payer=0.0.8`); shows the payer chosen."""

    title = "payer"
    parameter_name = "payer"

    def lookups(self, request, model_admin):
        return ((self.value(), self.value()),) if self.value() else ()

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        try:
            payer = parse_entity_id(self.value(), allow_evm_address=False).encoded
        except ValueError:
            return queryset.none()
        return queryset.filter(payer_account_id=payer)


def display_nft_transfers(transfers: list[dict] | None):
    """The NFT transfers, as the API's `nft_transfers`."""
    return display_table(
        ("token", "serial number", "sender", "receiver", "approval"),
        (
            (
                token_link(transfer.get("token_id")),
                transfer.get("serial_number"),
                account_link(transfer.get("sender_account_id")),
                account_link(transfer.get("receiver_account_id")),
                display_boolean(bool(transfer.get("is_approval"))),
            )
            for transfer in transfers or ()
        ),
    )


def display_itemized_transfers(transfers: list[dict] | None):
    """The hbar transfers itemized by the transaction itself, amounts in ℏ."""
    return display_table(
        ("account", "amount", "approval"),
        (
            (
                account_link(transfer.get("entity_id")),
                display_hbar(transfer.get("amount")),
                display_boolean(bool(transfer.get("is_approval"))),
            )
            for transfer in transfers or ()
        ),
    )


def display_max_custom_fees(limits: list[bytes] | None):
    """The protobuf fee limits as the API's `max_custom_fees`."""
    return None if limits is None else display_json(decode_max_custom_fees(limits))


def display_inner_transactions(flat: list[int] | None) -> str | None:
    """The (payer, valid start) pairs, stored flat, as transaction ids."""
    if flat is None:
        return None
    return ", ".join(format_transaction_id(payer, valid_start) for payer, valid_start in zip(flat[0::2], flat[1::2]))


@admin.register(Transaction)
class TransactionAdmin(MirrorModelAdmin):
    page_kinds = ("TRANSACTION",)
    list_display = (
        column("consensus_timestamp", display_timestamp, sortable=True),
        "transaction_id",
        column("type", display_transaction_type),
        column("result", display_result),
        "payer",
        column("charged_tx_fee", display_hbar, description="charged fee"),
    )
    list_filter = (TypeFilter, ResultFilter, PayerFilter)
    search_fields = ("consensus_timestamp",)
    search_help_text = (
        "Transaction id (0.0.8-1234567890-000000001), consensus timestamp (1234567890.000000001), "
        "transaction hash (hex or base64) or payer (0.0.8)"
    )
    ordering = ("-consensus_timestamp",)
    detail_summary = ("transaction_id",)
    column_displays = {
        "consensus_timestamp": display_timestamp,
        "batch_key": display_key,
        "charged_tx_fee": display_hbar,
        "entity_id": entity_link(),
        "initial_balance": display_hbar,
        "inner_transactions": display_inner_transactions,
        "itemized_transfer": display_itemized_transfers,
        "max_custom_fees": display_max_custom_fees,
        "max_fee": display_hbar,
        "memo": display_bytes,
        "nft_transfer": display_nft_transfers,
        "node_account_id": account_link,
        "parent_consensus_timestamp": timestamp_link("TRANSACTION"),
        "payer_account_id": account_link,
        "result": display_result,
        "type": display_transaction_type,
        "valid_duration_seconds": display_seconds,
        "valid_start_ns": display_timestamp,
    }
    column_labels = {"valid_start_ns": "valid start timestamp"}
    detail_related = ("transfers", "token_transfers")

    @admin.display(description="transaction id")
    def transaction_id(self, transaction):
        return format_transaction_id(transaction.payer_account_id, transaction.valid_start_ns)

    @admin.display(description="payer")
    def payer(self, transaction):
        payer = display_entity_id(transaction.payer_account_id)
        return format_html('<a href="?{}">{}</a>', urlencode({"payer": payer}), payer)

    @detail_display("transfers")
    def transfers(self, transaction):
        return display_table(
            ("account", "amount", "approval"),
            (
                (
                    account_link(transfer["entity_id"]),
                    display_hbar(transfer["amount"]),
                    display_boolean(bool(transfer["is_approval"])),
                )
                for transfer in self._lists(transaction)["crypto_transfers"]
            ),
        )

    @detail_display("token transfers")
    def token_transfers(self, transaction):
        return display_table(
            ("token", "account", "amount", "approval"),
            (
                (
                    token_link(transfer["token_id"]),
                    account_link(transfer["account_id"]),
                    transfer["amount"],
                    display_boolean(bool(transfer["is_approval"])),
                )
                for transfer in self._lists(transaction)["token_transfers"]
            ),
        )

    @staticmethod
    def _lists(transaction) -> dict:
        """The transaction as the API reads it, with its transfer lists; read once per page."""
        if not hasattr(transaction, "api_row"):
            rows = selectors.transactions_at(timestamps=[transaction.consensus_timestamp])
            transaction.api_row = rows[0] if rows else {"crypto_transfers": [], "token_transfers": []}
        return transaction.api_row

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        if match := _TRANSACTION_ID.match(term):
            return self._by_transaction_id(queryset, *match.groups()), False
        if (timestamp := parse_search_timestamp(term)) is not None:
            return queryset.filter(consensus_timestamp=timestamp), False
        if (payer := parse_search_entity_id(term)) is not None:
            return queryset.filter(payer_account_id=payer), False
        if transaction_hash := parse_transaction_hash(term):
            rows = selectors.transactions_by_hash(transaction_hash=transaction_hash).rows
            return queryset.filter(consensus_timestamp__in=[row["consensus_timestamp"] for row in rows]), False
        return queryset.none(), False

    @staticmethod
    def _by_transaction_id(queryset, shard, realm, num, seconds, sdk_seconds, nanos):
        try:
            payer = parse_entity_id(f"{shard}.{realm}.{num}", allow_evm_address=False).encoded
        except ValueError:
            return queryset.none()
        if sdk_seconds is not None:
            seconds, nanos = sdk_seconds, nanos.ljust(9, "0")
        valid_start = int(seconds) * 1_000_000_000 + int(nanos)
        return queryset.filter(payer_account_id=payer, valid_start_ns=valid_start)
