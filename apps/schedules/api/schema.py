"""The component schemas of the schedule routes, for our OpenAPI document (`apps.common.openapi`)."""

from apps.common.openapi import array, boolean, obj, ref, register_schemas, string

register_schemas(
    ScheduleSignature=obj(
        consensus_timestamp=ref("Timestamp"),
        public_key_prefix=string(format="byte"),
        signature=string(format="byte"),
        type=string(),
    ),
    Schedule=obj(
        admin_key=ref("Key"),
        consensus_timestamp=ref("Timestamp"),
        creator_account_id=ref("EntityId"),
        deleted=boolean(),
        executed_timestamp=ref("TimestampNullable"),
        expiration_time=ref("TimestampNullable"),
        memo=string(),
        payer_account_id=ref("EntityId"),
        schedule_id=ref("EntityId"),
        signatures=array(ref("ScheduleSignature")),
        transaction_body=string(format="byte"),
        wait_for_expiry=boolean(),
    ),
)
