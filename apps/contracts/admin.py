"""Read-only admin for contracts and contract results with their logs.

Search takes what people paste, each one index lookup: a contract by `0.0.N`
or EVM address, a result by transaction hash (`0x` + 64 hex digits, or a
48-byte Hedera hash, matched on its first 32 bytes) or by its contract's id or
address. A result's page lists the logs it emitted (the admin cannot register
`contract_log` itself: its primary key is composite). Lists are ordered,
limited reads; counts are capped.
"""

import re

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from apps.common.admin import ReadOnlyModelAdmin
from apps.common.ledger.codecs import (
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    to_hex,
)
from apps.contracts.models import (
    Contract,
    ContractLog,
    ContractResult,
    ContractTransactionHash,
)
from apps.contracts.selectors.paths import contract_id_by_evm_address

_TRANSACTION_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")
ETHEREUM_HASH_BYTES = 32


def _contract_id(term: str) -> int | None:
    """The id an id or EVM address names (None when it names nothing); ValueError otherwise."""
    entity = parse_entity_id(term)
    if entity.evm_address is None:
        return entity.encoded
    return contract_id_by_evm_address(bytes.fromhex(entity.evm_address))


def _search_by_hash_or_contract(queryset, term: str):
    """A transaction hash selects its rows, a contract id or address the contract's."""
    if match := _TRANSACTION_HASH.match(term):
        # The hash index: the rows themselves index no hash.
        hashes = ContractTransactionHash.objects.filter(hash=bytes.fromhex(match.group(1))[:ETHEREUM_HASH_BYTES])
        return queryset.filter(consensus_timestamp__in=hashes.values("consensus_timestamp"))
    try:
        contract_id = _contract_id(term)
    except ValueError:
        return queryset.none()
    return queryset.filter(contract_id=contract_id) if contract_id is not None else queryset.none()


class MirrorRowAdmin(ReadOnlyModelAdmin):
    list_per_page = 50

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]


@admin.register(Contract)
class ContractAdmin(MirrorRowAdmin):
    list_display = ("contract", "file", "initcode_size", "runtime_bytecode_size")
    search_fields = ("id",)
    search_help_text = "Contract id (0.0.1001) or EVM address (0x…)"
    ordering = ("-id",)

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            contract_id = _contract_id(term)
        except ValueError:
            return queryset.none(), False
        return queryset.filter(id=contract_id) if contract_id is not None else queryset.none(), False

    @admin.display(description="contract", ordering="id")
    def contract(self, contract):
        return format_entity_id(contract.id)

    @admin.display(description="file")
    def file(self, contract):
        return format_entity_id(contract.file_id)

    @admin.display(description="initcode bytes")
    def initcode_size(self, contract):
        return len(contract.initcode) if contract.initcode is not None else None

    @admin.display(description="runtime bytecode bytes")
    def runtime_bytecode_size(self, contract):
        return len(contract.runtime_bytecode) if contract.runtime_bytecode is not None else None


@admin.register(ContractResult)
class ContractResultAdmin(MirrorRowAdmin):
    list_display = ("timestamp", "contract", "payer", "hash", "transaction_result", "gas_used")
    search_fields = ("transaction_hash",)
    search_help_text = "Transaction hash (0x…), contract id (0.0.1001) or EVM address"
    ordering = ("-consensus_timestamp",)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "logs"]

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        return (_search_by_hash_or_contract(queryset, term) if term else queryset), False

    @admin.display(description="logs")
    def logs(self, result):
        logs = ContractLog.objects.filter(consensus_timestamp=result.consensus_timestamp).order_by("index")
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    log.index,
                    format_entity_id(log.contract_id),
                    " ".join(to_hex(topic) for topic in (log.topic0, log.topic1, log.topic2, log.topic3) if topic),
                    to_hex(log.data),
                )
                for log in logs
            ),
        )
        if not rows:
            return None
        return format_html(
            "<table><tr><th>index</th><th>contract</th><th>topics</th><th>data</th></tr>{}</table>", rows
        )

    @admin.display(description="consensus timestamp", ordering="consensus_timestamp")
    def timestamp(self, result):
        return format_timestamp(result.consensus_timestamp)

    @admin.display(description="contract")
    def contract(self, result):
        return format_entity_id(result.contract_id)

    @admin.display(description="payer")
    def payer(self, result):
        return format_entity_id(result.payer_account_id)

    @admin.display(description="transaction hash")
    def hash(self, result):
        return to_hex(result.transaction_hash)
