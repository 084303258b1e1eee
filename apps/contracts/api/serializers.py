from rest_framework import serializers

from apps.accounts.api.serializers import entity_expiry
from apps.common.codecs import add_hex_prefix, decode_entity_id, encode_key, format_entity_id, format_timestamp, to_hex

__all__ = ("ContractSerializer", "StateSerializer", "format_long_zero_address", "format_uint256")


# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------

UINT256_HEX_DIGITS = 64


def format_long_zero_address(encoded: int) -> str:
    """The EVM address an entity id encodes: shard (4 bytes), realm (8) and num (8)."""
    entity = decode_entity_id(encoded)
    return f"0x{entity.shard:08x}{entity.realm:016x}{entity.num:016x}"


def format_uint256(data: bytes | None) -> str | None:
    """A 32-byte word, left-padded with zeros; empty bytes are zero."""
    if data is None:
        return None
    return "0x" + bytes(data).hex().rjust(UINT256_HEX_DIGITS, "0")


class ContractSerializer(serializers.BaseSerializer):
    """The `Contract` object, from a row of `selectors.contract_list`, or of
    `selectors.contract_get` with its bytecodes."""

    def to_representation(self, row):
        evm_address = row["evm_address"]
        timestamp_range = row["timestamp_range"]
        contract = {
            "admin_key": encode_key(row["key"]),
            "auto_renew_account": format_entity_id(row["auto_renew_account_id"]),
            "auto_renew_period": row["auto_renew_period"],
            "contract_id": format_entity_id(row["id"]),
            "created_timestamp": format_timestamp(row["created_timestamp"]),
            "deleted": row["deleted"],
            "evm_address": to_hex(evm_address) if evm_address is not None else format_long_zero_address(row["id"]),
            "expiration_timestamp": format_timestamp(entity_expiry(row)),
            "file_id": format_entity_id(row["file_id"]),
            "max_automatic_token_associations": row["max_automatic_token_associations"],
            "memo": row["memo"],
            "nonce": row["ethereum_nonce"],
            "obtainer_id": format_entity_id(row["obtainer_id"]),
            "permanent_removal": row["permanent_removal"],
            "proxy_account_id": format_entity_id(row["proxy_account_id"]),
            "timestamp": {
                "from": format_timestamp(timestamp_range.lower),
                "to": format_timestamp(timestamp_range.upper),
            },
        }
        if "bytecode" in row:
            contract["bytecode"] = add_hex_prefix(row["bytecode"])
            contract["runtime_bytecode"] = to_hex(row["runtime_bytecode"]) or "0x"
        return contract


class StateSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        evm_address = row["evm_address"]
        return {
            "address": to_hex(evm_address) if evm_address else format_long_zero_address(row["contract_id"]),
            "contract_id": format_entity_id(row["contract_id"]),
            "timestamp": format_timestamp(row["modified_timestamp"]),
            "slot": format_uint256(row["slot"]),
            "value": format_uint256(row["value"]),
        }


# --- Logs ---

__all__ += ("ContractLogSerializer",)

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
