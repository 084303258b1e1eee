from apps.accounts.api.serializers import (
    CryptoAllowanceSerializer,
    format_timestamp_range,
)
from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    encode_key,
    format_entity_id,
    format_timestamp,
    to_base64,
)
from apps.tokens.models import TokenType
from apps.transactions.api.serializers import format_transaction_id
from apps.transactions.selectors import transaction_type_name

__all__ = (
    "NftAllowanceSerializer",
    "NftSerializer",
    "NftTransactionSerializer",
    "TokenAirdropSerializer",
    "TokenAllowanceSerializer",
    "TokenBalanceSerializer",
    "TokenInfoSerializer",
    "TokenRelationshipSerializer",
    "TokenSerializer",
)

NANOS_PER_SECOND = 1_000_000_000


class NftSerializer(RowSerializer):
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


class TokenSerializer(RowSerializer):
    """A token of `/tokens`, from `selectors.token_queryset`."""

    def to_representation(self, row):
        return {
            "admin_key": encode_key(row["admin_key"]),
            "decimals": row["decimals"],
            "metadata": to_base64(row["metadata"]) or "",
            "name": row["name"],
            "symbol": row["symbol"],
            "token_id": format_entity_id(row["token_id"]),
            "type": row["type"],
        }


class TokenInfoSerializer(RowSerializer):
    """One token, from `selectors.token_info`: supplies and decimals as strings,
    `expiry_timestamp` in nanoseconds."""

    def to_representation(self, info):
        token, entity, custom_fee = info["token"], info["entity"], info["custom_fee"]
        keys = ("fee_schedule_key", "freeze_key", "kyc_key", "metadata_key", "pause_key", "supply_key", "wipe_key")
        return {
            "admin_key": encode_key(entity["key"]),
            "auto_renew_account": format_entity_id(entity["auto_renew_account_id"]),
            "auto_renew_period": entity["auto_renew_period"],
            "created_timestamp": format_timestamp(token["created_timestamp"]),
            "custom_fees": _custom_fees(custom_fee, token),
            "decimals": str(token["decimals"]),
            "deleted": entity["deleted"],
            "expiry_timestamp": _expiry(entity, token),
            **{key: encode_key(token[key]) for key in keys},
            "freeze_default": token["freeze_default"],
            "initial_supply": str(token["initial_supply"]),
            "max_supply": str(token["max_supply"]),
            "memo": entity["memo"],
            "metadata": to_base64(token["metadata"]) or "",
            "modified_timestamp": format_timestamp(max(token["valid_from"], entity["valid_from"])),
            "name": token["name"],
            "pause_status": token["pause_status"],
            "supply_type": token["supply_type"],
            "symbol": token["symbol"],
            "token_id": format_entity_id(token["token_id"]),
            "total_supply": str(token["total_supply"]),
            "treasury_account_id": format_entity_id(token["treasury_account_id"]),
            "type": token["type"],
        }


def _expiry(entity: dict, token: dict) -> int | None:
    # Counted from the token's creation: a token entity's own `created_timestamp` may be unset.
    if entity["expiration_timestamp"] is not None:
        return entity["expiration_timestamp"]
    if token["created_timestamp"] is None or entity["auto_renew_period"] is None:
        return None
    return token["created_timestamp"] + entity["auto_renew_period"] * NANOS_PER_SECOND


def _custom_fees(custom_fee: dict, token: dict) -> dict:
    fees = {
        "created_timestamp": format_timestamp(custom_fee["valid_from"]),
        "fixed_fees": [_fixed_fee(fee) for fee in custom_fee["fixed_fees"] or ()],
    }
    if token["type"] == TokenType.FUNGIBLE_COMMON:
        fees["fractional_fees"] = [
            _fractional_fee(fee, token["token_id"]) for fee in custom_fee["fractional_fees"] or ()
        ]
    else:
        fees["royalty_fees"] = [_royalty_fee(fee) for fee in custom_fee["royalty_fees"] or ()]
    return fees


def _fee_base(fee: dict) -> dict:
    return {
        "all_collectors_are_exempt": bool(fee.get("all_collectors_are_exempt")),
        "collector_account_id": format_entity_id(fee.get("collector_account_id")),
    }


def _fixed_fee(fee: dict) -> dict:
    return {
        **_fee_base(fee),
        "amount": fee.get("amount"),
        "denominating_token_id": format_entity_id(fee.get("denominating_token_id")),
    }


def _fraction(fee: dict) -> dict:
    return {"denominator": fee.get("denominator"), "numerator": fee.get("numerator")}


def _fractional_fee(fee: dict, token_id: int) -> dict:
    return {
        **_fee_base(fee),
        "amount": _fraction(fee),
        "denominating_token_id": format_entity_id(token_id),
        "maximum": fee.get("maximum_amount"),
        "minimum": fee.get("minimum_amount", 0),
        "net_of_transfers": bool(fee.get("net_of_transfers")),
    }


def _royalty_fee(fee: dict) -> dict:
    fallback = fee.get("fallback_fee") or {}
    return {
        **_fee_base(fee),
        "amount": _fraction(fee),
        "fallback_fee": {
            "amount": fallback["amount"],
            "denominating_token_id": format_entity_id(fallback.get("denominating_token_id")),
        }
        if fallback.get("amount")
        else None,
    }


class TokenBalanceSerializer(RowSerializer):
    def to_representation(self, row):
        return {"account": format_entity_id(row["account_id"]), "balance": row["balance"], "decimals": row["decimals"]}


class NftTransactionSerializer(RowSerializer):
    """A transaction of an NFT, from `selectors.nft_transaction_list`."""

    def to_representation(self, row):
        transfer = row["transfer"] or {}
        return {
            "consensus_timestamp": format_timestamp(row["consensus_timestamp"]),
            "is_approval": bool(transfer.get("is_approval")),
            "nonce": row["nonce"],
            "receiver_account_id": format_entity_id(transfer.get("receiver_account_id")),
            "sender_account_id": format_entity_id(transfer.get("sender_account_id")),
            "transaction_id": format_transaction_id(row["payer_account_id"], row["valid_start_ns"]),
            "type": transaction_type_name(row["type"]),
        }


FREEZE_STATUSES = ("NOT_APPLICABLE", "FROZEN", "UNFROZEN")
KYC_STATUSES = ("NOT_APPLICABLE", "GRANTED", "REVOKED")


def _status(statuses: tuple[str, ...], value: int | None) -> str | None:
    return None if value is None else statuses[value]


class TokenAllowanceSerializer(CryptoAllowanceSerializer):
    def to_representation(self, row):
        return {**super().to_representation(row), "token_id": format_entity_id(row["token_id"])}


class TokenRelationshipSerializer(RowSerializer):
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


class NftAllowanceSerializer(RowSerializer):
    def to_representation(self, row):
        return {
            "approved_for_all": row["approved_for_all"],
            "owner": format_entity_id(row["owner"]),
            "spender": format_entity_id(row["spender"]),
            "timestamp": format_timestamp_range(row["timestamp_range"]),
            "token_id": format_entity_id(row["token_id"]),
        }


class TokenAirdropSerializer(RowSerializer):
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
