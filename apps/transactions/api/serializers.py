"""The `Transaction` and `TransactionDetail` objects, rendered from the rows
`selectors.transactions_at` (and the lookups by id or hash) return."""


from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    MAX_LONG,
    decode_entity_id,
    encode_entity_id,
    encode_key,
    format_entity_id,
    format_timestamp,
    to_base64,
)
from apps.common.ledger.protobuf import protobuf_fields
from apps.transactions.selectors import result_name, transaction_type_name

__all__ = (
    "TransactionDetailSerializer",
    "TransactionSerializer",
    "decode_max_custom_fees",
    "format_transaction_id",
)


def format_transaction_id(payer: int, valid_start_ns: int) -> str:
    """`shard.realm.num-seconds-nanos`, nanos zero-padded to 9 digits."""
    entity = decode_entity_id(payer)
    seconds, nanos = divmod(valid_start_ns, 1_000_000_000)
    return f"{entity.shard}.{entity.realm}.{entity.num}-{seconds}-{nanos:09d}"


class TransactionSerializer(RowSerializer):
    def to_representation(self, row):
        max_fee, duration = row["max_fee"], row["valid_duration_seconds"]
        return {
            "batch_key": encode_key(row["batch_key"]),
            "bytes": to_base64(row["transaction_bytes"]),
            "charged_tx_fee": row["charged_tx_fee"],
            "consensus_timestamp": format_timestamp(row["consensus_timestamp"]),
            "entity_id": format_entity_id(row["entity_id"]),
            "high_volume": bool(row["high_volume"]),
            "high_volume_pricing_multiplier": row["high_volume_pricing_multiplier"],
            "max_custom_fees": decode_max_custom_fees(row["max_custom_fees"]),
            "max_fee": None if max_fee is None else str(max_fee),
            "memo_base64": to_base64(row["memo"]),
            "name": transaction_type_name(row["type"]),
            "nft_transfers": [_nft_transfer(transfer) for transfer in row["nft_transfer"] or ()],
            "node": format_entity_id(row["node_account_id"]),
            "nonce": row["nonce"],
            "parent_consensus_timestamp": format_timestamp(row["parent_consensus_timestamp"]),
            "result": result_name(row["result"]),
            "scheduled": row["scheduled"],
            "staking_reward_transfers": [
                {"account": format_entity_id(reward["account_id"]), "amount": reward["amount"]}
                for reward in row["staking_reward_transfers"]
            ],
            "token_transfers": [
                {
                    "token_id": format_entity_id(transfer["token_id"]),
                    "account": format_entity_id(transfer["account_id"]),
                    "amount": transfer["amount"],
                    "is_approval": bool(transfer["is_approval"]),
                }
                for transfer in row["token_transfers"]
            ],
            "transaction_hash": to_base64(row["transaction_hash"]),
            "transaction_id": format_transaction_id(row["payer_account_id"], row["valid_start_ns"]),
            "transfers": [
                {
                    "account": format_entity_id(transfer["entity_id"]),
                    "amount": transfer["amount"],
                    "is_approval": bool(transfer["is_approval"]),
                }
                for transfer in row["crypto_transfers"]
            ],
            "valid_duration_seconds": None if duration is None else str(duration),
            "valid_start_timestamp": format_timestamp(row["valid_start_ns"]),
        }


class TransactionDetailSerializer(TransactionSerializer):
    """A transaction looked up by id or hash: with its assessed custom fees, if any."""

    def to_representation(self, row):
        data = super().to_representation(row)
        if fees := row.get("assessed_custom_fees"):
            data["assessed_custom_fees"] = [
                {
                    "amount": fee["amount"],
                    "collector_account_id": format_entity_id(fee["collector_account_id"]),
                    "effective_payer_account_ids": [
                        format_entity_id(payer) for payer in fee["effective_payer_account_ids"] or ()
                    ],
                    "token_id": format_entity_id(fee["token_id"]),
                }
                for fee in fees
            ]
        return data


def _nft_transfer(transfer: dict) -> dict:
    return {
        "is_approval": bool(transfer.get("is_approval")),
        "receiver_account_id": format_entity_id(transfer.get("receiver_account_id")),
        "sender_account_id": format_entity_id(transfer.get("sender_account_id")),
        "serial_number": transfer.get("serial_number"),
        "token_id": format_entity_id(transfer.get("token_id")),
    }


# --- max_custom_fees: protobuf `CustomFeeLimit` messages ---------------------------------------
# CustomFeeLimit { AccountID account_id = 1; repeated FixedFee fees = 2; }
# FixedFee { int64 amount = 1; TokenID denominating_token_id = 2; }
# AccountID / TokenID { int64 shard = 1; int64 realm = 2; int64 num = 3; ... }



def decode_max_custom_fees(limits) -> list[dict]:
    """The fee limits a transaction's payer accepted, one entry per fixed fee.

    A value that is not a well-formed `CustomFeeLimit` is left out.
    """
    fees = []
    for limit in limits or ():
        try:
            fees.extend(_decode_custom_fee_limit(bytes(limit)))
        except ValueError:
            continue
    return fees


def _decode_custom_fee_limit(data: bytes) -> list[dict]:
    account_id, fees = None, []
    for field, value in protobuf_fields(data):
        if field == 1 and isinstance(value, bytes):
            account_id = _decode_entity_id(value)
        elif field == 2 and isinstance(value, bytes):
            amount, token_id = 0, None
            for fee_field, fee_value in protobuf_fields(value):
                if fee_field == 1 and isinstance(fee_value, int):
                    amount = fee_value - (1 << 64) if fee_value > MAX_LONG else fee_value
                elif fee_field == 2 and isinstance(fee_value, bytes):
                    token_id = _decode_entity_id(fee_value)
            fees.append({"amount": amount, "denominating_token_id": token_id})
    return [{"account_id": account_id, **fee} for fee in fees]


def _decode_entity_id(data: bytes) -> str | None:
    """`shard.realm.num` of an AccountID/TokenID message; None when its num is 0 (unset)."""
    parts = {1: 0, 2: 0, 3: 0}
    for field, value in protobuf_fields(data):
        if field in parts and isinstance(value, int):
            parts[field] = value
    if not parts[3]:
        return None
    return format_entity_id(encode_entity_id(parts[1], parts[2], parts[3]))
