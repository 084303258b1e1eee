from rest_framework import serializers

from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    encode_entity_id,
    encode_key,
    format_entity_id,
    format_timestamp,
    to_base64,
)
from apps.topics.filtersets import UTF8
from apps.topics.protobuf import key_list_keys, transaction_id_fields
from apps.topics.selectors import TopicDetails

__all__ = ("TopicMessageSerializer", "TopicSerializer")

# Messages written before running hash versions were recorded used version 3.
DEFAULT_RUNNING_HASH_VERSION = 3


class TopicMessageSerializer(serializers.BaseSerializer):
    """A message; `context["encoding"]` utf-8 shows its text, otherwise base64."""

    def to_representation(self, message):
        body = bytes(message["message"])
        return {
            "chunk_info": chunk_info(message),
            "consensus_timestamp": format_timestamp(message["consensus_timestamp"]),
            "message": (
                body.decode("utf-8", errors="replace")
                if self.context.get("encoding") == UTF8
                else to_base64(body)
            ),
            "payer_account_id": format_entity_id(message["payer_account_id"]),
            "running_hash": to_base64(message["running_hash"]),
            "running_hash_version": (
                DEFAULT_RUNNING_HASH_VERSION
                if message["running_hash_version"] is None
                else message["running_hash_version"]
            ),
            "sequence_number": message["sequence_number"],
            "topic_id": format_entity_id(message["topic_id"]),
        }


def chunk_info(message: dict) -> dict | None:
    if message["chunk_num"] is None:
        return None
    if message["initial_transaction_id"] is not None:
        fields = transaction_id_fields(bytes(message["initial_transaction_id"]))
        initial_transaction_id = {
            "account_id": format_entity_id(encode_entity_id(fields["shard"], fields["realm"], fields["num"])),
            "nonce": fields["nonce"],
            "scheduled": fields["scheduled"],
            "transaction_valid_start": f"{fields['valid_start_seconds']}.{fields['valid_start_nanos']:09d}",
        }
    else:
        initial_transaction_id = {
            "account_id": format_entity_id(message["payer_account_id"]),
            "nonce": None,
            "scheduled": None,
            "transaction_valid_start": format_timestamp(message["valid_start_timestamp"]),
        }
    return {
        "initial_transaction_id": initial_transaction_id,
        "number": message["chunk_num"],
        "total": message["chunk_total"],
    }


class TopicSerializer(RowSerializer):
    """A topic's details from its topic, entity and custom fee rows (`TopicDetails`, all present)."""

    def to_representation(self, details: TopicDetails):
        topic, entity, custom_fee = details.topic, details.entity, details.custom_fee
        exempt_keys = topic["fee_exempt_key_list"]
        return {
            "admin_key": encode_key(topic["admin_key"]),
            "auto_renew_account": format_entity_id(entity["auto_renew_account_id"]),
            "auto_renew_period": entity["auto_renew_period"],
            "created_timestamp": format_timestamp(entity["created_timestamp"]),
            "custom_fees": {
                "created_timestamp": format_timestamp(custom_fee["timestamp_range"].lower),
                "fixed_fees": [fixed_fee(fee) for fee in custom_fee["fixed_fees"] or ()],
            },
            "deleted": entity["deleted"],
            "fee_exempt_key_list": [encode_key(key) for key in key_list_keys(bytes(exempt_keys or b""))],
            "fee_schedule_key": encode_key(topic["fee_schedule_key"]),
            "memo": entity["memo"],
            "submit_key": encode_key(topic["submit_key"]),
            "timestamp": {
                "from": format_timestamp(entity["timestamp_range"].lower),
                "to": format_timestamp(entity["timestamp_range"].upper),
            },
            "topic_id": format_entity_id(topic["id"]),
        }


def fixed_fee(fee: dict) -> dict:
    amount = fee.get("amount")
    return {
        "amount": None if amount is None else int(amount),
        "collector_account_id": format_entity_id(fee.get("collector_account_id")),
        "denominating_token_id": format_entity_id(fee.get("denominating_token_id")),
    }
