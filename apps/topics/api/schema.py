"""The component schemas of the topic routes, for our OpenAPI document (`apps.common.openapi`)."""

from apps.common.openapi import boolean, integer, nullable, obj, ref, register_schemas, string

register_schemas(
    TransactionId=obj(
        account_id=ref("EntityId"),
        nonce=nullable(integer("int32")),
        scheduled=nullable(boolean()),
        transaction_valid_start=ref("Timestamp"),
    ),
    ChunkInfo=nullable(
        obj(initial_transaction_id=ref("TransactionId"), number=integer("int32"), total=integer("int32"))
    ),
    TopicMessage=obj(
        chunk_info=ref("ChunkInfo"),
        consensus_timestamp=ref("Timestamp"),
        message=string(),
        payer_account_id=ref("EntityId"),
        running_hash=string(format="byte"),
        running_hash_version=integer("int32"),
        sequence_number=integer("int64"),
        topic_id=ref("EntityId"),
    ),
)
