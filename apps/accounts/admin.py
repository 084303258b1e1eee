"""Read-only admin for accounts (and contracts, which are accounts too).

Search takes what people paste: `0.0.8` (or `8`), a base32 alias or an EVM
address, each one index lookup. An account's page shows every column as the API
prints it, then its token balances and its latest transactions, read through the
same selectors as the API.
"""

from django.contrib import admin

from apps.accounts.api.serializers import (
    entity_expiry,
    format_delegation_address,
    format_evm_address,
)
from apps.accounts.models import Entity
from apps.accounts.selectors.accounts import account_get, account_transactions
from apps.accounts.selectors.balances import BALANCE_ENTITY_TYPES
from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_entity_id,
    display_hbar,
    display_key,
    display_result,
    display_seconds,
    display_table,
    display_timestamp,
    display_transaction_type,
    entity_link,
    timestamp_link,
)
from apps.common.ledger.codecs import (
    decode_base32_alias,
    encode_alias,
    parse_entity_id,
)
from apps.transactions.api.serializers import format_transaction_id

RECENT_TRANSACTIONS = 25
NANOS_PER_DAY = 86_400 * 1_000_000_000
NOT_STAKED = -1


class TypeFilter(admin.SimpleListFilter):
    title = "type"
    parameter_name = "type"

    def lookups(self, request, model_admin):
        return [(entity_type, entity_type.label) for entity_type in BALANCE_ENTITY_TYPES]

    def queryset(self, request, queryset):
        return queryset.filter(type=self.value()) if self.value() else queryset


@admin.register(Entity)
class AccountAdmin(MirrorModelAdmin):
    page_kinds = ("ACCOUNT",)
    list_display = (
        column("id", display_entity_id, description="account", sortable=True),
        "type",
        column("balance", display_hbar),
        "evm",
        "memo",
        column("created_timestamp", display_timestamp, description="created"),
        "deleted",
    )
    list_filter = (TypeFilter,)
    search_fields = ("id",)
    search_help_text = "Account id (0.0.8), base32 alias or EVM address (0x…)"
    ordering = ("id",)
    column_displays = {
        "id": display_entity_id,
        "alias": encode_alias,
        "auto_renew_account_id": entity_link("ACCOUNT"),
        "auto_renew_period": display_seconds,
        "balance": display_hbar,
        "balance_timestamp": display_timestamp,
        "created_timestamp": timestamp_link("TRANSACTION"),
        "delegation_address": format_delegation_address,
        "evm_address": "evm",
        "expiration_timestamp": "expiry",
        "key": display_key,
        "obtainer_id": entity_link(),
        "proxy_account_id": entity_link("ACCOUNT"),
        "stake_period_start": "stake_period",
        "staked_account_id": entity_link("ACCOUNT"),
        "staked_node_id": "staked_node",
    }
    detail_related = ("token_balances", "recent_transactions")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(type__in=BALANCE_ENTITY_TYPES)

    def get_search_results(self, request, queryset, search_term):
        """An id, alias or EVM address selects its account; anything else nothing."""
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            entity = parse_entity_id(term)
        except ValueError:
            try:
                return queryset.filter(alias=decode_base32_alias(term)), False
            except ValueError:
                return queryset.none(), False
        if entity.evm_address is not None:
            return queryset.filter(evm_address=bytes.fromhex(entity.evm_address)), False
        return queryset.filter(id=entity.encoded), False

    @admin.display(description="EVM address")
    def evm(self, entity):
        return format_evm_address({"id": entity.id, "evm_address": entity.evm_address, "alias": entity.alias})

    @detail_display("expiry timestamp")
    def expiry(self, entity):
        return display_timestamp(entity_expiry(vars(entity)))

    @detail_display("staked node id")
    def staked_node(self, entity):
        return None if entity.staked_node_id == NOT_STAKED else entity.staked_node_id

    @detail_display("stake period start")
    def stake_period(self, entity):
        day = entity.stake_period_start
        return None if day in (None, NOT_STAKED) else display_timestamp(day * NANOS_PER_DAY)

    @detail_display("token balances")
    def token_balances(self, entity):
        account = account_get(account_id=entity.id, now=0)
        link = entity_link("TOKEN")
        tokens = account["tokens"] if account else ()
        return display_table(("token", "balance"), ((link(token["token_id"]), token["balance"]) for token in tokens))

    @detail_display(f"latest {RECENT_TRANSACTIONS} transactions")
    def recent_transactions(self, entity):
        link = timestamp_link("TRANSACTION")
        return display_table(
            ("consensus timestamp", "transaction id", "type", "result"),
            (
                (
                    link(row["consensus_timestamp"]),
                    format_transaction_id(row["payer_account_id"], row["valid_start_ns"]),
                    display_transaction_type(row["type"]),
                    display_result(row["result"]),
                )
                for row in account_transactions(entity.id, limit=RECENT_TRANSACTIONS, order="desc")
            ),
        )
