"""Read-only admin for transactions.

The table is one of the largest of the mirror: every list here is an ordered,
limited read, filters use static choices (never `select distinct` over the
table), and the paginator counts at most `COUNT_CAP` rows.
"""

import re

from django.contrib import admin
from django.core.paginator import Paginator
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.http import urlencode

from apps.common.codecs import format_entity_id, format_timestamp, parse_entity_id, parse_timestamp
from apps.transactions import selectors
from apps.transactions.api.serializers import format_transaction_id
from apps.transactions.models import Transaction

COUNT_CAP = 10_000
# `0.0.8-1234567890-000000001`, or the SDKs' `0.0.8@1234567890.000000001`.
_TRANSACTION_ID = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-(\d{1,19})-|@(\d{1,19})\.)(\d{1,9})$")


class CappedCountPaginator(Paginator):
    """Counts at most `COUNT_CAP + 1` rows instead of the whole table."""

    @cached_property
    def count(self):
        return self.object_list.order_by()[: COUNT_CAP + 1].count()


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


@admin.register(Transaction)
class TransactionAdmin(admin.ModelAdmin):
    list_display = ("timestamp", "transaction_id", "name", "result_name", "payer", "charged_tx_fee")
    list_filter = (TypeFilter, ResultFilter, PayerFilter)
    search_fields = ("consensus_timestamp",)
    search_help_text = "Transaction id (0.0.8-1234567890-000000001) or consensus timestamp (1234567890.000000001)"
    ordering = ("-consensus_timestamp",)
    paginator = CappedCountPaginator
    show_full_result_count = False
    list_per_page = 50

    @admin.display(description="consensus timestamp", ordering="consensus_timestamp")
    def timestamp(self, transaction):
        return format_timestamp(transaction.consensus_timestamp)

    @admin.display(description="transaction id")
    def transaction_id(self, transaction):
        return format_transaction_id(transaction.payer_account_id, transaction.valid_start_ns)

    @admin.display(description="type")
    def name(self, transaction):
        return selectors.transaction_type_name(transaction.type)

    @admin.display(description="result")
    def result_name(self, transaction):
        return selectors.result_name(transaction.result)

    @admin.display(description="payer")
    def payer(self, transaction):
        payer = format_entity_id(transaction.payer_account_id)
        return format_html('<a href="?{}">{}</a>', urlencode({"payer": payer}), payer)

    def get_search_results(self, request, queryset, search_term):
        """A transaction id selects its transactions; a timestamp the one at that instant."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if match := _TRANSACTION_ID.match(term):
            shard, realm, num, seconds, sdk_seconds, nanos = match.groups()
            try:
                payer = parse_entity_id(f"{shard}.{realm}.{num}", allow_evm_address=False).encoded
            except ValueError:
                return queryset.none(), False
            if sdk_seconds is not None:
                seconds, nanos = sdk_seconds, nanos.ljust(9, "0")
            valid_start = int(seconds) * 1_000_000_000 + int(nanos)
            return queryset.filter(payer_account_id=payer, valid_start_ns=valid_start), False
        try:
            return queryset.filter(consensus_timestamp=parse_timestamp(term)), False
        except ValueError:
            return queryset.none(), False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
