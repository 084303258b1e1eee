from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    encode_key,
    format_entity_id,
    format_timestamp,
    to_base64,
    to_sql_base64,
)

__all__ = ("ScheduleSerializer",)

SIGNATURE_TYPES = {2: "CONTRACT", 3: "ED25519", 4: "RSA_3072", 5: "ECDSA_384", 6: "ECDSA_SECP256K1"}


class ScheduleSerializer(RowSerializer):
    """A schedule row joined with its entity and signatures (`selectors.with_entities_and_signatures`)."""

    def to_representation(self, schedule):
        return {
            "admin_key": encode_key(schedule["key"]),
            "consensus_timestamp": format_timestamp(schedule["consensus_timestamp"]),
            "creator_account_id": format_entity_id(schedule["creator_account_id"]),
            "deleted": schedule["deleted"],
            "executed_timestamp": format_timestamp(schedule["executed_timestamp"]),
            "expiration_time": format_timestamp(schedule["expiration_time"]),
            "memo": schedule["memo"],
            "payer_account_id": format_entity_id(schedule["payer_account_id"]),
            "schedule_id": format_entity_id(schedule["schedule_id"]),
            "signatures": [
                {
                    "consensus_timestamp": format_timestamp(signature["consensus_timestamp"]),
                    "public_key_prefix": to_sql_base64(signature["public_key_prefix"]),
                    "signature": to_sql_base64(signature["signature"]),
                    "type": SIGNATURE_TYPES.get(signature["type"], "UNKNOWN"),
                }
                for signature in schedule["signatures"]
            ],
            "transaction_body": to_base64(schedule["transaction_body"]),
            "wait_for_expiry": schedule["wait_for_expiry"],
        }
