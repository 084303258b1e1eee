"""The component schemas of the token routes, for our OpenAPI document (`apps.common.openapi`)."""

from apps.common.openapi import boolean, integer, obj, ref, register_schemas, string

register_schemas(
    Nft=obj(
        account_id=ref("EntityId"),
        created_timestamp=ref("TimestampNullable"),
        delegating_spender=ref("EntityId"),
        deleted=boolean(),
        metadata=string(format="byte"),
        modified_timestamp=ref("TimestampNullable"),
        serial_number=integer("int64"),
        spender=ref("EntityId"),
        token_id=ref("EntityId"),
    ),
)
