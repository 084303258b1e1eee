import pytest

from apps.transactions.api.serializers import (
    TransactionDetailSerializer,
    TransactionSerializer,
    decode_max_custom_fees,
    format_transaction_id,
)

ED25519_KEY = "1220" + "ab" * 32


def row(**overrides) -> dict:
    fields = {
        "batch_key": bytes.fromhex(ED25519_KEY),
        "charged_tx_fee": 7,
        "consensus_timestamp": 1565779444711927005,
        "entity_id": 900,
        "high_volume": None,
        "high_volume_pricing_multiplier": 1,
        "inner_transactions": None,
        "max_custom_fees": [
            bytes.fromhex("0a021808120808e807120318ec27120308d00f"),
            bytes.fromhex("0a02180a120308b817"),
        ],
        "max_fee": 33,
        "memo": b"memo",
        "nft_transfer": [
            {"token_id": 1500, "serial_number": 1, "sender_account_id": None, "receiver_account_id": 2001},
            {"token_id": 1500, "is_approval": True, "serial_number": 2, "sender_account_id": 2001},
        ],
        "node_account_id": 3,
        "nonce": 0,
        "parent_consensus_timestamp": None,
        "payer_account_id": 8,
        "result": 22,
        "scheduled": False,
        "transaction_bytes": b"bytes",
        "transaction_hash": bytes(range(1, 49)),
        "type": 27,
        "valid_duration_seconds": 11,
        "valid_start_ns": 1565779444711927004,
        "crypto_transfers": [{"entity_id": 3, "amount": 2, "is_approval": None}],
        "token_transfers": [{"token_id": 5000, "account_id": 8, "amount": -1, "is_approval": True}],
        "staking_reward_transfers": [{"account_id": 8, "amount": 500}],
    }
    return {**fields, **overrides}


def test_transaction_renders_every_field():
    assert TransactionSerializer(row()).data == {
        "batch_key": {"_type": "ED25519", "key": "ab" * 32},
        "bytes": "Ynl0ZXM=",
        "charged_tx_fee": 7,
        "consensus_timestamp": "1565779444.711927005",
        "entity_id": "0.0.900",
        "high_volume": False,
        "high_volume_pricing_multiplier": 1,
        "max_custom_fees": [
            {"account_id": "0.0.8", "amount": 1000, "denominating_token_id": "0.0.5100"},
            {"account_id": "0.0.8", "amount": 2000, "denominating_token_id": None},
            {"account_id": "0.0.10", "amount": 3000, "denominating_token_id": None},
        ],
        "max_fee": "33",
        "memo_base64": "bWVtbw==",
        "name": "CONSENSUSSUBMITMESSAGE",
        "nft_transfers": [
            {
                "is_approval": False,
                "receiver_account_id": "0.0.2001",
                "sender_account_id": None,
                "serial_number": 1,
                "token_id": "0.0.1500",
            },
            {
                "is_approval": True,
                "receiver_account_id": None,
                "sender_account_id": "0.0.2001",
                "serial_number": 2,
                "token_id": "0.0.1500",
            },
        ],
        "node": "0.0.3",
        "nonce": 0,
        "parent_consensus_timestamp": None,
        "result": "SUCCESS",
        "scheduled": False,
        "staking_reward_transfers": [{"account": "0.0.8", "amount": 500}],
        "token_transfers": [{"token_id": "0.0.5000", "account": "0.0.8", "amount": -1, "is_approval": True}],
        "transaction_hash": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8w",
        "transaction_id": "0.0.8-1565779444-711927004",
        "transfers": [{"account": "0.0.3", "amount": 2, "is_approval": False}],
        "valid_duration_seconds": "11",
        "valid_start_timestamp": "1565779444.711927004",
    }


def test_nulls_and_unknown_codes():
    data = TransactionSerializer(
        row(
            batch_key=None,
            max_custom_fees=None,
            max_fee=None,
            valid_duration_seconds=None,
            memo=None,
            nft_transfer=None,
            entity_id=None,
            type=9999,
            result=32767,
            parent_consensus_timestamp=1565779444711927000,
        )
    ).data

    assert (data["batch_key"], data["max_custom_fees"], data["max_fee"], data["valid_duration_seconds"]) == (
        None,
        [],
        None,
        None,
    )
    assert (data["memo_base64"], data["nft_transfers"], data["entity_id"]) == (None, [], None)
    assert (data["name"], data["result"]) == ("UNKNOWN", "UNKNOWN")
    assert data["parent_consensus_timestamp"] == "1565779444.711927000"


def test_detail_adds_assessed_custom_fees_only_when_some():
    assert "assessed_custom_fees" not in TransactionDetailSerializer(row(assessed_custom_fees=[])).data
    fee = {"amount": 11, "collector_account_id": 8901, "effective_payer_account_ids": [8, 9], "token_id": None}

    assert TransactionDetailSerializer(row(assessed_custom_fees=[fee])).data["assessed_custom_fees"] == [
        {
            "amount": 11,
            "collector_account_id": "0.0.8901",
            "effective_payer_account_ids": ["0.0.8", "0.0.9"],
            "token_id": None,
        }
    ]


@pytest.mark.parametrize(
    ("payer", "valid_start", "expected"),
    [
        (8, 1565779444711927004, "0.0.8-1565779444-711927004"),
        (10, 1234567890000000001, "0.0.10-1234567890-000000001"),
        ((1 << 38) + 5, 7, "0.1.5-0-000000007"),
        (0, 0, "0.0.0-0-000000000"),
    ],
)
def test_format_transaction_id(payer, valid_start, expected):
    assert format_transaction_id(payer, valid_start) == expected


def test_decode_max_custom_fees_edge_cases():
    # A negative amount is a 10-byte varint; an account with shard and realm.
    negative = bytes.fromhex("0a06080110021803") + bytes.fromhex("120b08ffffffffffffffffff01")
    assert decode_max_custom_fees([negative]) == [{"account_id": "1.2.3", "amount": -1, "denominating_token_id": None}]
    # No account; a truncated message is left out.
    assert decode_max_custom_fees([bytes.fromhex("120208"), bytes.fromhex("1203")]) == []
    assert decode_max_custom_fees([bytes.fromhex("12020801")]) == [
        {"account_id": None, "amount": 1, "denominating_token_id": None}
    ]
    assert decode_max_custom_fees([]) == []
