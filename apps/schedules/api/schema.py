"""The component schemas of the schedule routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    PathParameter,
    array,
    boolean,
    obj,
    page,
    ref,
    register_path_parameters,
    register_responses,
    register_schemas,
    string,
)

register_schemas(
    ScheduleSignature=obj(
        consensus_timestamp=ref("Timestamp"),
        public_key_prefix=string(format="byte"),
        signature=string(format="byte"),
        type=string(enum=["CONTRACT", "ED25519", "RSA_3072", "ECDSA_384", "ECDSA_SECP256K1", "UNKNOWN"]),
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
    Schedules=array(ref("Schedule")),
    SchedulesResponse=page("schedules", ref("Schedules")),
)

register_responses({"GET /api/v1/schedules": "SchedulesResponse", "GET /api/v1/schedules/{scheduleId}": "Schedule"})

register_path_parameters(
    scheduleId=PathParameter(
        ref("EntityId"), "The schedule's id (`0.0.1011`, or `1011` in the configured shard and realm)."
    )
)
