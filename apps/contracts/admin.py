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
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_each,
    display_entity_id,
    display_hbar,
    display_hex,
    display_result,
    display_table,
    display_timestamp,
    entity_link,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_entity_id
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


@admin.register(Contract)
class ContractAdmin(MirrorModelAdmin):
    page_kinds = ("CONTRACT",)
    list_display = (
        column("id", display_entity_id, description="contract", sortable=True),
        column("file_id", display_entity_id, description="file"),
        "initcode_size",
        "runtime_bytecode_size",
    )
    search_fields = ("id",)
    search_help_text = "Contract id (0.0.1001) or EVM address (0x…)"
    ordering = ("-id",)
    column_displays = {"id": display_entity_id, "file_id": display_entity_id}
    detail_summary = ("entity",)

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            contract_id = _contract_id(term)
        except ValueError:
            return queryset.none(), False
        return queryset.filter(id=contract_id) if contract_id is not None else queryset.none(), False

    @admin.display(description="initcode bytes")
    def initcode_size(self, contract):
        return len(contract.initcode) if contract.initcode is not None else None

    @admin.display(description="runtime bytecode bytes")
    def runtime_bytecode_size(self, contract):
        return len(contract.runtime_bytecode) if contract.runtime_bytecode is not None else None

    @detail_display("account (balance, key, memo)")
    def entity(self, contract):
        return entity_link("ACCOUNT")(contract.id)


@admin.register(ContractResult)
class ContractResultAdmin(MirrorModelAdmin):
    list_display = (
        column("consensus_timestamp", display_timestamp, description="consensus timestamp", sortable=True),
        column("contract_id", display_entity_id, description="contract"),
        column("payer_account_id", display_entity_id, description="payer"),
        column("transaction_hash", display_hex, description="transaction hash"),
        column("transaction_result", display_result, description="transaction result"),
        "gas_used",
    )
    search_fields = ("transaction_hash",)
    search_help_text = "Transaction hash (0x…), contract id (0.0.1001) or EVM address"
    ordering = ("-consensus_timestamp",)
    column_displays = {
        "amount": display_hbar,
        "consensus_timestamp": timestamp_link("TRANSACTION"),
        "contract_id": entity_link("CONTRACT"),
        "created_contract_ids": display_each(entity_link("CONTRACT")),
        "payer_account_id": entity_link("ACCOUNT"),
        "sender_id": entity_link("ACCOUNT"),
        "transaction_result": display_result,
    }
    detail_related = ("logs",)

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        return (_search_by_hash_or_contract(queryset, term) if term else queryset), False

    @detail_display("logs")
    def logs(self, result):
        logs = ContractLog.objects.filter(consensus_timestamp=result.consensus_timestamp).order_by("index")
        contract_link = entity_link("CONTRACT")
        return display_table(
            ("index", "contract", "topics", "data"),
            (
                (
                    log.index,
                    contract_link(log.contract_id),
                    format_html_join(
                        mark_safe("<br>"),
                        "{}",
                        ((display_hex(topic),) for topic in (log.topic0, log.topic1, log.topic2, log.topic3) if topic),
                    ),
                    display_hex(log.data),
                )
                for log in logs
            ),
        )
