from rest_framework import serializers

from apps.common.codecs import add_hex_prefix, decode_entity_id, format_entity_id, format_timestamp, to_hex

# --- Logs ---

__all__ = ("ContractLogSerializer",)

WORD_HEX_DIGITS = 64
_ZERO_WORD = "0x" + "0" * WORD_HEX_DIGITS


def _long_zero_address(encoded_id: int) -> str:
    entity = decode_entity_id(encoded_id)
    return f"0x{entity.shard:08x}{entity.realm:016x}{entity.num:016x}"


def _word(data: bytes | None) -> str | None:
    """A 32-byte word as the upstream prints a log topic or data: left-padded to 64 hex digits."""
    if data is None:
        return None
    return to_hex(data, pad=WORD_HEX_DIGITS) if data else _ZERO_WORD


class ContractLogSerializer(serializers.BaseSerializer):
    def to_representation(self, log):
        topics = (log["topic0"], log["topic1"], log["topic2"], log["topic3"])
        return {
            "address": to_hex(log["evm_address"]) if log["evm_address"] else _long_zero_address(log["contract_id"]),
            "block_hash": add_hex_prefix(log["block_hash"]),
            "block_number": log["block_number"],
            "bloom": to_hex(log["bloom"]) or "0x",
            "contract_id": format_entity_id(log["contract_id"]),
            "data": to_hex(log["data"], pad=WORD_HEX_DIGITS) or "0x",
            "index": log["index"],
            "root_contract_id": format_entity_id(log["root_contract_id"]),
            "timestamp": format_timestamp(log["consensus_timestamp"]),
            "topics": [_word(topic) for topic in topics if topic is not None],
            "transaction_hash": to_hex(log["transaction_hash"]) or "0x",
            "transaction_index": log["transaction_index"],
        }
