from rest_framework import serializers

from apps.common.codecs import format_entity_id, format_timestamp

__all__ = (
    "BalanceSerializer",
    "CryptoAllowanceSerializer",
    "NftAllowanceSerializer",
    "StakingRewardSerializer",
    "TokenAirdropSerializer",
    "TokenAllowanceSerializer",
    "TokenRelationshipSerializer",
)


class BalanceSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "account": format_entity_id(row["account_id"]),
            "balance": row["balance"],
            "tokens": [
                {"token_id": format_entity_id(token["token_id"]), "balance": token["balance"]}
                for token in row["tokens"]
            ],
        }


#
# Account sub-routes
#

FREEZE_STATUSES = ("NOT_APPLICABLE", "FROZEN", "UNFROZEN")
KYC_STATUSES = ("NOT_APPLICABLE", "GRANTED", "REVOKED")


def format_timestamp_range(timestamp_range) -> dict:
    return {"from": format_timestamp(timestamp_range.lower), "to": format_timestamp(timestamp_range.upper)}


def _status(statuses: tuple[str, ...], value: int | None) -> str | None:
    return None if value is None else statuses[value]


class StakingRewardSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "account_id": format_entity_id(row["account_id"]),
            "amount": row["amount"],
            "timestamp": format_timestamp(row["consensus_timestamp"]),
        }


class CryptoAllowanceSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "amount": row["amount"],
            "amount_granted": row["amount_granted"],
            "owner": format_entity_id(row["owner"]),
            "spender": format_entity_id(row["spender"]),
            "timestamp": format_timestamp_range(row["timestamp_range"]),
        }


class TokenAllowanceSerializer(CryptoAllowanceSerializer):
    def to_representation(self, row):
        return {**super().to_representation(row), "token_id": format_entity_id(row["token_id"])}


class TokenRelationshipSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "automatic_association": row["automatic_association"],
            "balance": row["balance"],
            "created_timestamp": format_timestamp(row["created_timestamp"]),
            "decimals": row["decimals"],
            "freeze_status": _status(FREEZE_STATUSES, row["effective_freeze_status"]),
            "kyc_status": _status(KYC_STATUSES, row["effective_kyc_status"]),
            "token_id": format_entity_id(row["token_id"]),
        }


class NftAllowanceSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "approved_for_all": row["approved_for_all"],
            "owner": format_entity_id(row["owner"]),
            "spender": format_entity_id(row["spender"]),
            "timestamp": format_timestamp_range(row["timestamp_range"]),
            "token_id": format_entity_id(row["token_id"]),
        }


class TokenAirdropSerializer(serializers.BaseSerializer):
    def to_representation(self, row):
        return {
            "amount": row["amount"],
            "receiver_id": format_entity_id(row["receiver_account_id"]),
            "sender_id": format_entity_id(row["sender_account_id"]),
            # A fungible airdrop has serial number 0.
            "serial_number": row["serial_number"] or None,
            "timestamp": format_timestamp_range(row["timestamp_range"]),
            "token_id": format_entity_id(row["token_id"]),
        }
