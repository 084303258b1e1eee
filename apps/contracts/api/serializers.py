from django.conf import settings
from rest_framework import serializers

from apps.accounts.api.serializers import entity_expiry
from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    add_hex_prefix,
    decode_entity_id,
    encode_key,
    format_entity_id,
    format_timestamp,
    to_hex,
)
from apps.common.ledger.protobuf import protobuf_fields
from apps.contracts.api.encoding import (
    WEIBARS_PER_TINYBAR,
    bloom,
    evm_address,
    hex_bytes,
    hex_quantity,
    hex_word,
    long_zero_address,
    signed_integer,
    uint256,
    weibar_quantity,
)
from apps.transactions.selectors import SUCCESS_RESULTS, result_name

# --- Contracts and their state (`/contracts`, `/contracts/{id}`, `/contracts/{id}/state`) ------


def format_long_zero_address(encoded: int) -> str:
    """The EVM address an entity id encodes: shard (4 bytes), realm (8) and num (8)."""
    entity = decode_entity_id(encoded)
    return f"0x{entity.shard:08x}{entity.realm:016x}{entity.num:016x}"


class ContractSerializer(RowSerializer):
    """The `Contract` object, from a row of `selectors.contracts.contract_list`, or of
    `contract_get` with its bytecodes."""

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


class StateSerializer(RowSerializer):
    def to_representation(self, row):
        evm_address = row["evm_address"]
        return {
            "address": to_hex(evm_address) if evm_address else format_long_zero_address(row["contract_id"]),
            "contract_id": format_entity_id(row["contract_id"]),
            "timestamp": format_timestamp(row["modified_timestamp"]),
            "slot": uint256(row["slot"]),
            "value": uint256(row["value"]),
        }


# --- Logs ---

WORD_HEX_DIGITS = 64
_ZERO_WORD = "0x" + "0" * WORD_HEX_DIGITS


def _word(data: bytes | None) -> str | None:
    """A 32-byte word as the upstream prints a log topic or data: left-padded to 64 hex digits."""
    if data is None:
        return None
    return to_hex(data, pad=WORD_HEX_DIGITS) if data else _ZERO_WORD


class ContractLogSerializer(RowSerializer):
    def to_representation(self, log):
        topics = (log["topic0"], log["topic1"], log["topic2"], log["topic3"])
        return {
            "address": (
                to_hex(log["evm_address"]) if log["evm_address"] else format_long_zero_address(log["contract_id"])
            ),
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


# --- Contract results and actions ---

_SENDER_ID_FIELD = 13  # ContractFunctionResult.sender_id
_ALIAS_FIELD = 4  # AccountID.alias
_LEGACY_TYPE = 0

CALL_OPERATION_TYPES = {
    0: "UNKNOWN",
    1: "CALL",
    2: "CALLCODE",
    3: "DELEGATECALL",
    4: "STATICCALL",
    5: "CREATE",
    6: "CREATE2",
}
CALL_TYPES = {0: "NO_ACTION", 1: "CALL", 2: "CREATE", 3: "PRECOMPILE", 4: "SYSTEM"}
RESULT_DATA_TYPES = {11: "OUTPUT", 12: "REVERT_REASON", 13: "ERROR"}


def contract_result(row: dict) -> dict:
    """An item of `/contracts/{id}/results`."""
    contract_id = row["contract_id"]
    return {
        "address": evm_address(row["contract_evm_address"], contract_id),
        "amount": row["amount"],
        "bloom": bloom(row["bloom"]),
        "call_result": hex_bytes(row["call_result"]),
        "contract_id": format_entity_id(contract_id),
        "created_contract_ids": [format_entity_id(i) for i in row["created_contract_ids"] or ()],
        "error_message": row["error_message"] or None,
        "from": _sender_address(row),
        "function_parameters": hex_bytes(row["function_parameters"]),
        "gas_consumed": row["gas_consumed"],
        "gas_limit": row["gas_limit"],
        "gas_used": row["gas_used"],
        "hash": hex_bytes(row["transaction_hash"]),
        "timestamp": format_timestamp(row["consensus_timestamp"]),
        "to": long_zero_address(contract_id),
    }


def contract_result_details(row: dict, *, hbar: bool) -> dict:
    """A contract result with its Ethereum transaction and block (`/contracts/results` items, and
    with `logs` and `state_changes` when the row carries them, the single-result routes)."""
    data = contract_result(row)
    eth, block = row["ethereum"], row["block"]
    succeeded = row["transaction_result"] in SUCCESS_RESULTS
    data |= {
        "access_list": [],
        "block_gas_used": block["gas_used"] if block and block["gas_used"] not in (None, -1) else None,
        "block_hash": "0x" + (block["hash"] if block else ""),
        "block_number": block["index"] if block else None,
        "chain_id": settings.MIRROR["CHAIN_ID"],
        "failed_initcode": hex_bytes(row["failed_initcode"]) if row["failed_initcode"] else None,
        "gas_price": _schedule_gas_price(row),
        "max_fee_per_gas": None,
        "max_priority_fee_per_gas": None,
        "nonce": None,
        "r": None,
        "result": result_name(row["transaction_result"]),
        "s": None,
        "status": "0x1" if succeeded else "0x0",
        "transaction_index": row["transaction_index"],
        "type": 0,
        "v": None,
    }
    if eth is None:
        if not hbar and row["amount"] is not None:
            data["amount"] = row["amount"] * WEIBARS_PER_TINYBAR
    else:
        data |= _ethereum_fields(row, eth, hbar=hbar, succeeded=succeeded)
    if "logs" in row:
        data["logs"] = [_result_log(log) for log in row["logs"]]
        data["state_changes"] = [_state_change(change) for change in row["state_changes"]]
    return data


def _ethereum_fields(row: dict, eth: dict, *, hbar: bool, succeeded: bool) -> dict:
    value = signed_integer(eth["value"])
    if value is not None and hbar:
        # Truncated toward zero, as Java's BigInteger division.
        value = abs(value) // WEIBARS_PER_TINYBAR * (1 if value >= 0 else -1)
    fields = {
        "access_list": eth["access_list"] or [],
        "amount": value,
        "authorization_list": eth["authorization_list"] or [],
        "chain_id": hex_quantity(eth["chain_id"]),
        "gas_price": weibar_quantity(eth["gas_price"], in_tinybars=hbar),
        "max_fee_per_gas": weibar_quantity(eth["max_fee_per_gas"], in_tinybars=hbar),
        "max_priority_fee_per_gas": weibar_quantity(eth["max_priority_fee_per_gas"], in_tinybars=hbar),
        "nonce": eth["nonce"],
        "r": hex_bytes(eth["signature_r"]),
        "s": hex_bytes(eth["signature_s"]),
        "type": eth["type"],
        "v": (
            int.from_bytes(eth["signature_v"], "big")
            if eth["type"] == _LEGACY_TYPE and eth["signature_v"]
            else eth["recovery_id"]
        ),
    }
    if "logs" in row:
        # The single-result routes report the gas the sender allowed, the lists the gas the node charged for.
        fields["gas_limit"] = eth["gas_limit"]
    if eth["to_address"]:
        fields["to"] = hex_bytes(eth["to_address"])
    if not succeeded and not row["error_message"]:
        fields["error_message"] = result_name(row["transaction_result"])
    if not row["failed_initcode"] and not succeeded and eth["call_data"]:
        fields["failed_initcode"] = hex_bytes(eth["call_data"])
    if eth["call_data"]:
        fields["function_parameters"] = hex_bytes(eth["call_data"])
    elif not row["function_parameters"] and eth.get("call_data_file"):
        fields["function_parameters"] = hex_bytes(eth["call_data_file"])
    return fields


def _schedule_gas_price(row: dict) -> str | None:
    price = row.get("schedule_gas_price")
    return None if price is None else hex(price)


def _sender_address(row: dict) -> str | None:
    """The sender's id as an address; without an id, the alias the record names the sender by."""
    if row["sender_id"] is not None:
        return long_zero_address(row["sender_id"])
    try:
        for field, value in protobuf_fields(bytes(row["function_result"] or b"")):
            if field == _SENDER_ID_FIELD and isinstance(value, bytes):
                for id_field, id_value in protobuf_fields(value):
                    if id_field == _ALIAS_FIELD and isinstance(id_value, bytes) and id_value:
                        return hex_bytes(id_value)
    except ValueError:
        pass
    return None


def _result_log(log: dict) -> dict:
    return {
        "address": evm_address(log["evm_address"], log["contract_id"]),
        "bloom": hex_bytes(log["bloom"]),
        "contract_id": format_entity_id(log["contract_id"]),
        "data": hex_word(log["data"]),
        "index": log["index"],
        "topics": [
            uint256(log[name]) for name in ("topic0", "topic1", "topic2", "topic3") if log[name] is not None
        ],
    }


def _state_change(change: dict) -> dict:
    return {
        "address": evm_address(change["evm_address"], change["contract_id"]),
        "contract_id": format_entity_id(change["contract_id"]),
        "slot": uint256(change["slot"]),
        "value_read": uint256(change["value_read"]),
        "value_written": uint256(change["value_written"]),
    }


def contract_action(row: dict) -> dict:
    recipient = row["recipient_account"] or row["recipient_contract"]
    if row["recipient_account"]:
        recipient_type = "ACCOUNT"
    elif row["recipient_contract"]:
        recipient_type = "CONTRACT"
    else:
        recipient_type = None
    if row["recipient_address"]:
        to = "0x" + bytes(row["recipient_address"]).hex().rjust(40, "0")
    else:
        to = long_zero_address(recipient)
    return {
        "call_depth": row["call_depth"],
        "call_operation_type": CALL_OPERATION_TYPES.get(row["call_operation_type"] or 0, "UNKNOWN"),
        "call_type": CALL_TYPES.get(row["call_type"]),
        "caller": format_entity_id(row["caller"]),
        "caller_type": row["caller_type"],
        "from": long_zero_address(row["caller"]),
        "gas": row["gas"],
        "gas_used": row["gas_used"],
        "index": row["index"],
        "input": hex_bytes(row["input"]),
        "recipient": format_entity_id(recipient),
        "recipient_type": recipient_type,
        "result_data": hex_bytes(row["result_data"]),
        "result_data_type": RESULT_DATA_TYPES.get(row["result_data_type"]),
        "timestamp": format_timestamp(row["consensus_timestamp"]),
        "to": to,
        "value": row["value"],
    }


class ContractResultSerializer(RowSerializer):
    def to_representation(self, instance):
        return contract_result(instance)


class ContractResultDetailsSerializer(serializers.BaseSerializer):
    def to_representation(self, instance):
        return contract_result_details(instance, hbar=self.context["hbar"])


class ContractActionSerializer(RowSerializer):
    def to_representation(self, instance):
        return contract_action(instance)

