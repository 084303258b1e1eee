"""The component schemas of the transaction routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    PathParameter,
    all_of,
    array,
    boolean,
    integer,
    nullable,
    obj,
    page,
    ref,
    register_path_parameters,
    register_query_parameters,
    register_responses,
    register_schemas,
    string,
)
from apps.common.ledger.hapi import TRANSACTION_TYPES

register_schemas(
    # The types `transactiontype` takes: every name this service knows.
    TransactionTypes=string(enum=sorted(TRANSACTION_TYPES.values())),
    # The type of a transaction in an answer: one of those, or UNKNOWN for a type id this service
    # does not know (`hapi.transaction_type_name`), which `transactiontype` refuses.
    TransactionTypeName=string(enum=sorted({*TRANSACTION_TYPES.values(), "UNKNOWN"})),
    StakingRewardTransfer=obj(required=("account", "amount"), account=ref("EntityId"), amount=integer("int64")),
    StakingRewardTransfers=array(ref("StakingRewardTransfer")),
    CustomFeeLimit=obj(account_id=ref("EntityId"), amount=integer("int64"), denominating_token_id=ref("EntityId")),
    AssessedCustomFee=obj(
        amount=integer("int64"),
        collector_account_id=ref("EntityId"),
        effective_payer_account_ids=array(ref("EntityId")),
        token_id=ref("EntityId"),
    ),
    Transaction=obj(
        batch_key=ref("Key"),
        bytes=nullable(string(format="byte")),
        charged_tx_fee=integer("int64"),
        consensus_timestamp=ref("Timestamp"),
        entity_id=ref("EntityId"),
        high_volume=boolean(),
        high_volume_pricing_multiplier=nullable(integer("int64", minimum=0)),
        max_custom_fees=array(ref("CustomFeeLimit")),
        max_fee=string(),
        memo_base64=nullable(string(format="byte")),
        name=ref("TransactionTypeName"),
        nft_transfers=array(
            obj(
                required=("is_approval", "receiver_account_id", "sender_account_id", "token_id", "serial_number"),
                is_approval=boolean(),
                receiver_account_id=ref("EntityId"),
                sender_account_id=ref("EntityId"),
                serial_number=integer("int64"),
                token_id=ref("EntityId"),
            )
        ),
        node=ref("EntityId"),
        nonce=integer(minimum=0),
        parent_consensus_timestamp=ref("TimestampNullable"),
        result=string(),
        scheduled=boolean(),
        staking_reward_transfers=ref("StakingRewardTransfers"),
        token_transfers=array(
            obj(
                required=("token_id", "account", "amount"),
                token_id=ref("EntityId"),
                account=ref("EntityId"),
                amount=integer("int64"),
                is_approval=boolean(),
            )
        ),
        transaction_hash=string(format="byte"),
        transaction_id=string(),
        transfers=array(
            obj(required=("account", "amount"), account=ref("EntityId"), amount=integer("int64"), is_approval=boolean())
        ),
        valid_duration_seconds=string(),
        valid_start_timestamp=ref("Timestamp"),
    ),
    Transactions=array(ref("Transaction")),
    TransactionsResponse=page("transactions", ref("Transactions")),
    TransactionDetail=all_of(ref("Transaction"), obj(assessed_custom_fees=array(ref("AssessedCustomFee")))),
    TransactionDetails=array(ref("TransactionDetail")),
    TransactionByIdResponse=obj(transactions=ref("TransactionDetails")),
)

register_responses(
    {
        "GET /api/v1/transactions": "TransactionsResponse",
        "GET /api/v1/transactions/{transactionId}": "TransactionByIdResponse",
    }
)

register_path_parameters(
    transactionId=PathParameter(
        string(),
        "The transaction: its id (`0.0.1001-1700000000-000000001`: the payer, then the valid start's seconds and "
        "nanoseconds), or its hash (96 hex digits, optionally after `0x`, or 64 base64url characters).",
    )
)

register_query_parameters(
    operations={"GET /api/v1/transactions": {"result": string(enum=["success", "fail"]), "type": string(enum=["credit", "debit"])}}
)
