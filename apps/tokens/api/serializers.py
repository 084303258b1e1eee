from rest_framework import serializers

from apps.common.codecs import format_entity_id, format_timestamp, to_base64

__all__ = ("NftSerializer",)


class NftSerializer(serializers.BaseSerializer):
    """One NFT, from a row of `nft` read as a dict with `modified_timestamp`
    (the lower bound of `timestamp_range`) and `deleted` already decided by the
    route (the token's deletion counts in lists, not for one NFT)."""

    def to_representation(self, row):
        return {
            "account_id": format_entity_id(row["account_id"]),
            "created_timestamp": format_timestamp(row["created_timestamp"]),
            "delegating_spender": format_entity_id(row["delegating_spender"]),
            "deleted": row["deleted"],
            "metadata": to_base64(row["metadata"]),
            "modified_timestamp": format_timestamp(row["modified_timestamp"]),
            "serial_number": row["serial_number"],
            "spender": format_entity_id(row["spender"]),
            "token_id": format_entity_id(row["token_id"]),
        }
