from rest_framework import serializers

from apps.common.codecs import format_entity_id

__all__ = ("BalanceSerializer",)


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
