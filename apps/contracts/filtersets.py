"""Query parameters of the contract routes."""

import re

from apps.blocks.filtersets import parse_block_number
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import EvmAddressType, parse_entity_id, parse_positive_long, parse_timestamp
from apps.common.filters import RANGE_OPERATORS, LastValueFilter, OperatorFilter, equals_only, parse_bool
from apps.common.filtersets import ListFilterSet, QueryFilterSet

# --- contract results (part B) ----------------------------------------------------------------

MAX_INT = (1 << 31) - 1
_BLOCK_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")


def parse_sender(text: str) -> int | bytes:
    """An account id (encoded), or the 20 bytes of an EVM address that does not encode an id."""
    entity = parse_entity_id(text, evm_address_type=EvmAddressType.NO_SHARD_REALM)
    if entity.evm_address is not None:
        return bytes.fromhex(entity.evm_address)
    return entity.encoded


def parse_block_hash(text: str) -> str:
    """The lowercase hex of a 32- or 48-byte block hash (a block's hash starts with it)."""
    match = _BLOCK_HASH.match(text)
    if not match:
        raise ValueError(f"Invalid block hash {text!r}")
    return match.group(1).lower()


def parse_transaction_index(text: str) -> int:
    value = parse_positive_long(text, allow_zero=True)
    if value > MAX_INT:
        raise ValueError(f"Invalid transaction index {text!r}")
    return value


def parse_nonce(text: str) -> int:
    return parse_transaction_index(text)


class ContractResultFilterSet(ListFilterSet):
    """`/contracts/{id}/results` and `/contracts/results`."""

    sender = OperatorFilter(param="from", parser=parse_sender)
    block_hash = LastValueFilter(param="block.hash", parser=equals_only(parse_block_hash))
    block_number = LastValueFilter(param="block.number", parser=equals_only(parse_block_number))
    hbar = LastValueFilter(parser=parse_bool)
    internal = LastValueFilter(parser=parse_bool)
    timestamp = OperatorFilter(parser=parse_timestamp)
    transaction_index = LastValueFilter(
        param="transaction.index", parser=equals_only(parse_transaction_index)
    )

    default_order = "desc"

    def validate(self) -> None:
        super().validate()
        has_number = self.value("block.number") is not None
        if has_number and self.value("block.hash") is not None:
            raise InvalidArgument(
                "Invalid parameter usage: block.hash - cannot combine block.number and block.hash"
            )
        if (
            self.value("transaction.index") is not None
            and not has_number
            and self.value("block.hash") is None
        ):
            raise InvalidArgument(
                "Invalid parameter usage: transaction.index - transaction.index requires block.number"
                " or block.hash filter to be specified"
            )

    def comparisons(self, name: str) -> list:
        return self.form.cleaned_data.get(name) or []


class ContractResultDetailFilterSet(QueryFilterSet):
    """`/contracts/{id}/results/{timestamp}`: only `hbar`."""

    hbar = LastValueFilter(parser=parse_bool)


class ContractResultByTransactionFilterSet(QueryFilterSet):
    """`/contracts/results/{transactionIdOrHash}`."""

    messages_in_query_order = True
    hbar = LastValueFilter(parser=parse_bool)
    nonce = LastValueFilter(parser=equals_only(parse_nonce))


class ContractActionFilterSet(ListFilterSet):
    index = OperatorFilter(parser=parse_transaction_index, operators=RANGE_OPERATORS)

    def comparisons(self, name: str) -> list:
        return self.form.cleaned_data.get(name) or []


# --- end contract results ---------------------------------------------------------------------
