from django.conf import settings

from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    MAX_NUM,
    encode_alias,
    encode_key,
    format_entity_id,
    format_timestamp,
    to_hex,
)

__all__ = (
    "AccountSerializer",
    "BalanceSerializer",
    "CryptoAllowanceSerializer",
    "StakingRewardSerializer",
    "entity_expiry",
    "format_delegation_address",
    "format_evm_address",
    "format_timestamp_range",
)

NANOS_PER_SECOND = 1_000_000_000
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
EVM_ADDRESS_LENGTH = 20
_ZERO_ADDRESS = bytes(EVM_ADDRESS_LENGTH)


def _token_balances(tokens: list[dict]) -> list[dict]:
    return [{"token_id": format_entity_id(token["token_id"]), "balance": token["balance"]} for token in tokens]


class BalanceSerializer(RowSerializer):
    def to_representation(self, row):
        return {
            "account": format_entity_id(row["account_id"]),
            "balance": row["balance"],
            "tokens": _token_balances(row["tokens"]),
        }


def format_evm_address(row: dict) -> str:
    """The account's EVM address; without one, a 20-byte alias, else the id as a long-zero address."""
    if row["evm_address"] is not None:
        return to_hex(row["evm_address"])
    alias = row["alias"]
    if alias is not None and len(alias) == EVM_ADDRESS_LENGTH:
        return to_hex(alias)
    return "0x" + format(row["id"] & MAX_NUM, "040x")


def format_delegation_address(address: bytes | None) -> str:
    """`0x` + the delegate's address; `0x` alone when there is none (cleared means all zeros)."""
    if not address or bytes(address) == _ZERO_ADDRESS:
        return "0x"
    return to_hex(address)


def entity_expiry(row: dict) -> int | None:
    """When an entity row expires: its own expiry, else its creation plus one auto-renew period."""
    if row["expiration_timestamp"] is not None:
        return row["expiration_timestamp"]
    if row["created_timestamp"] is None or row["auto_renew_period"] is None:
        return None
    return row["created_timestamp"] + row["auto_renew_period"] * NANOS_PER_SECOND


class AccountSerializer(RowSerializer):
    """The `AccountInfo` object, from a row of `selectors.account_list` / `account_get`."""

    def to_representation(self, row):
        staked_node = row["staked_node_id"]
        staked_to_node = staked_node is not None and staked_node != -1
        period_start = row["stake_period_start"]
        account = {
            "account": format_entity_id(row["id"]),
            "alias": encode_alias(row["alias"]),
            "auto_renew_period": row["auto_renew_period"],
            "balance": (
                {
                    "balance": row["balance"],
                    "timestamp": format_timestamp(row["balance_timestamp"]),
                    "tokens": _token_balances(row["tokens"]),
                }
                if "balance" in row
                else None
            ),
            "created_timestamp": format_timestamp(row["created_timestamp"]),
            "decline_reward": row["decline_reward"],
            "deleted": row["deleted"],
            "ethereum_nonce": row["ethereum_nonce"],
            "evm_address": format_evm_address(row),
            "expiry_timestamp": format_timestamp(entity_expiry(row)),
            "key": encode_key(row["key"]),
            "max_automatic_token_associations": row["max_automatic_token_associations"],
            "memo": row["memo"],
            "pending_reward": row["pending_reward"],
            "receiver_sig_required": row["receiver_sig_required"],
            "staked_account_id": format_entity_id(row["staked_account_id"]),
            "staked_node_id": staked_node if staked_to_node else None,
            "stake_period_start": (
                format_timestamp(period_start * NANOS_PER_DAY)
                if staked_to_node and period_start is not None and period_start != -1
                else None
            ),
        }
        if settings.MIRROR["DELEGATION_ADDRESS"]:
            account["delegation_address"] = format_delegation_address(row["delegation_address"])
        return account


# Lists under an account


def format_timestamp_range(timestamp_range) -> dict:
    return {"from": format_timestamp(timestamp_range.lower), "to": format_timestamp(timestamp_range.upper)}


class StakingRewardSerializer(RowSerializer):
    def to_representation(self, row):
        return {
            "account_id": format_entity_id(row["account_id"]),
            "amount": row["amount"],
            "timestamp": format_timestamp(row["consensus_timestamp"]),
        }


class CryptoAllowanceSerializer(RowSerializer):
    def to_representation(self, row):
        return {
            "amount": row["amount"],
            "amount_granted": row["amount_granted"],
            "owner": format_entity_id(row["owner"]),
            "spender": format_entity_id(row["spender"]),
            "timestamp": format_timestamp_range(row["timestamp_range"]),
        }
