"""The component schemas of the topic routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    PathParameter,
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

register_schemas(
    TransactionId=obj(
        account_id=ref("EntityId"),
        nonce=nullable(integer("int32", minimum=0)),
        scheduled=nullable(boolean()),
        transaction_valid_start=ref("Timestamp"),
    ),
    ChunkInfo=nullable(
        obj(initial_transaction_id=ref("TransactionId"), number=integer("int32"), total=integer("int32"))
    ),
    TopicMessage=obj(
        required=(
            "consensus_timestamp", "message", "payer_account_id", "running_hash", "running_hash_version",
            "sequence_number", "topic_id",
        ),
        chunk_info=ref("ChunkInfo"),
        consensus_timestamp=ref("Timestamp"),
        message=string(),
        payer_account_id=ref("EntityId"),
        running_hash=string(format="byte"),
        running_hash_version=integer("int32"),
        sequence_number=integer("int64"),
        topic_id=ref("EntityId"),
    ),
    TopicMessages=array(ref("TopicMessage")),
    TopicMessagesResponse=page("messages", ref("TopicMessages")),
    FixedCustomFee=obj(
        amount=integer("int64"), collector_account_id=ref("EntityId"), denominating_token_id=ref("EntityId")
    ),
    ConsensusCustomFees=obj(created_timestamp=ref("Timestamp"), fixed_fees=array(ref("FixedCustomFee"))),
    Topic=obj(
        required=(
            "admin_key", "auto_renew_account", "auto_renew_period", "created_timestamp", "custom_fees", "deleted",
            "fee_exempt_key_list", "fee_schedule_key", "memo", "submit_key", "timestamp", "topic_id",
        ),
        admin_key=ref("Key"),
        auto_renew_account=ref("EntityId"),
        auto_renew_period=nullable(integer("int64")),
        created_timestamp=ref("TimestampNullable"),
        custom_fees=ref("ConsensusCustomFees"),
        deleted=nullable(boolean()),
        fee_exempt_key_list=array(ref("Key")),
        fee_schedule_key=ref("Key"),
        memo=string(),
        submit_key=ref("Key"),
        timestamp=ref("TimestampRange"),
        topic_id=ref("EntityId"),
    ),
)

TOPIC = "/api/v1/topics/{topicId}"
register_responses(
    {
        f"GET {TOPIC}": "Topic",
        f"GET {TOPIC}/messages": "TopicMessagesResponse",
        f"GET {TOPIC}/messages/{{sequenceNumber}}": "TopicMessage",
        "GET /api/v1/topics/messages/{timestamp}": "TopicMessage",
    }
)

register_path_parameters(
    topicId=PathParameter(ref("EntityId"), "The topic's id (`0.0.1009`, or `1009` in the configured shard and realm)."),
    sequenceNumber=PathParameter(integer("int64", minimum=0), "The message's sequence number in its topic, from 1."),
)

register_query_parameters(
    {
        "encoding": string(),
        # A sequence number (from 1) after an operator, as the route reads it (ROUTES.md); the
        # upstream's document says a bare integer.
        "sequencenumber": string(
            pattern=r"^((eq|gt|gte|lt|lte|ne):)?\d{1,19}$", description="A sequence number, from 1, after an optional operator"
        ),
    }
)
