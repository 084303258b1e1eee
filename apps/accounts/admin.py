"""Read-only admin for accounts (and contracts, which are accounts too).

Search takes what people paste: `0.0.8` (or `8`), a base32 alias or an EVM
address, each one index lookup. An account's page shows its balance, its token
balances and its latest transactions, read through the same selectors as the API.
"""

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from apps.accounts.api.serializers import format_delegation_address, format_evm_address
from apps.accounts.models import Entity
from apps.accounts.selectors.accounts import account_get, account_transactions
from apps.accounts.selectors.balances import BALANCE_ENTITY_TYPES
from apps.common.admin import ReadOnlyModelAdmin
from apps.common.ledger.codecs import (
    decode_base32_alias,
    encode_alias,
    encode_key,
    format_entity_id,
    format_timestamp,
    parse_entity_id,
)
from apps.transactions import selectors as transaction_selectors
from apps.transactions.api.serializers import format_transaction_id

RECENT_TRANSACTIONS = 25


class TypeFilter(admin.SimpleListFilter):
    title = "type"
    parameter_name = "type"

    def lookups(self, request, model_admin):
        return [(entity_type, entity_type.label) for entity_type in BALANCE_ENTITY_TYPES]

    def queryset(self, request, queryset):
        return queryset.filter(type=self.value()) if self.value() else queryset


@admin.register(Entity)
class AccountAdmin(ReadOnlyModelAdmin):
    list_display = ("account", "type", "balance", "evm", "memo", "created", "deleted")
    list_filter = (TypeFilter,)
    search_fields = ("id",)
    search_help_text = "Account id (0.0.8), base32 alias or EVM address (0x…)"
    ordering = ("id",)
    list_per_page = 50
    fields = (
        "account",
        "type",
        "balance",
        "balance_time",
        "token_balances",
        "evm",
        "alias_text",
        "key_text",
        "delegation",
        "memo",
        "created",
        "expires",
        "auto_renew_period",
        "deleted",
        "staking",
        "recent_transactions",
    )
    readonly_fields = fields

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

    @admin.display(description="account", ordering="id")
    def account(self, entity):
        return format_entity_id(entity.id)

    @admin.display(description="EVM address")
    def evm(self, entity):
        return format_evm_address({"id": entity.id, "evm_address": entity.evm_address, "alias": entity.alias})

    @admin.display(description="alias")
    def alias_text(self, entity):
        return encode_alias(entity.alias)

    @admin.display(description="key")
    def key_text(self, entity):
        key = encode_key(entity.key)
        return f"{key['_type']} {key['key']}" if key else None

    @admin.display(description="delegation address")
    def delegation(self, entity):
        return format_delegation_address(entity.delegation_address)

    @admin.display(description="created")
    def created(self, entity):
        return format_timestamp(entity.created_timestamp)

    @admin.display(description="expires")
    def expires(self, entity):
        return format_timestamp(entity.expiration_timestamp)

    @admin.display(description="balance timestamp")
    def balance_time(self, entity):
        return format_timestamp(entity.balance_timestamp)

    @admin.display(description="staking")
    def staking(self, entity):
        if entity.staked_node_id not in (None, -1):
            return f"node {entity.staked_node_id}" + (" (declines rewards)" if entity.decline_reward else "")
        if entity.staked_account_id:
            return f"account {format_entity_id(entity.staked_account_id)}"
        return None

    @admin.display(description="token balances")
    def token_balances(self, entity):
        account = account_get(account_id=entity.id, now=0)
        tokens = account["tokens"] if account else ()
        rows = format_html_join(
            "", "<tr><td>{}</td><td>{}</td></tr>", ((format_entity_id(t["token_id"]), t["balance"]) for t in tokens)
        )
        return format_html("<table><tr><th>token</th><th>balance</th></tr>{}</table>", rows) if tokens else None

    @admin.display(description="recent transactions")
    def recent_transactions(self, entity):
        rows = account_transactions(entity.id, limit=RECENT_TRANSACTIONS, order="desc")
        if not rows:
            return None
        body = format_html_join(
            "",
            '<tr><td><a href="../../../transactions/transaction/{}/change/">{}</a></td>'
            "<td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    row["consensus_timestamp"],
                    format_timestamp(row["consensus_timestamp"]),
                    format_transaction_id(row["payer_account_id"], row["valid_start_ns"]),
                    transaction_selectors.transaction_type_name(row["type"]),
                    transaction_selectors.result_name(row["result"]),
                )
                for row in rows
            ),
        )
        return format_html(
            "<table><tr><th>consensus timestamp</th><th>transaction id</th><th>type</th><th>result</th></tr>"
            "{}</table>",
            body,
        )
