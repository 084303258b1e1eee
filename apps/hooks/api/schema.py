"""The component schemas of the hook routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    PathParameter,
    array,
    boolean,
    integer,
    nullable,
    obj,
    ref,
    register_path_parameters,
    register_query_parameters,
    register_responses,
    register_schemas,
    string,
)
from apps.common.ledger.codecs import MAX_LONG

register_schemas(
    Hook=obj(
        required=(
            "admin_key", "contract_id", "created_timestamp", "deleted", "extension_point", "hook_id", "owner_id",
            "timestamp_range", "type",
        ),
        admin_key=ref("Key"),
        contract_id=ref("EntityId"),
        created_timestamp=ref("TimestampNullable"),
        deleted=boolean(),
        extension_point=string(enum=["ACCOUNT_ALLOWANCE_HOOK"]),
        hook_id=integer("int64"),
        owner_id=ref("EntityId"),
        timestamp_range=ref("TimestampRangeNullable"),
        type=string(enum=["EVM"]),
    ),
    HooksResponse=obj(required=("hooks", "links"), hooks=array(ref("Hook")), links=ref("Links")),
    HookStorage=obj(
        required=("key", "timestamp", "value"),
        key=string(format="binary"),
        value=nullable(string(format="binary")),
        timestamp=ref("Timestamp"),
    ),
    HooksStorageResponse=obj(
        required=("hook_id", "links", "owner_id", "storage"),
        hook_id=integer("int64"),
        links=ref("Links"),
        owner_id=ref("EntityId"),
        storage=array(ref("HookStorage")),
    ),
)

HOOKS = "/api/v1/accounts/{idOrAliasOrEvmAddress}/hooks"
register_responses(
    {
        f"GET {HOOKS}": "HooksResponse",
        f"GET {HOOKS}/{{hookId}}/storage": "HooksStorageResponse",
    }
)

register_path_parameters(
    hookId=PathParameter(integer("int64", minimum=0, maximum=MAX_LONG), "The hook's id, a number from 0.")
)

# The upstream's shapes: `hook.id` documented as a number (it takes an operator too), `key`
# as an operator and up to 64 hex digits.
register_query_parameters(
    operations={
        f"GET {HOOKS}": {"hook.id": integer("int64", minimum=1, maximum=MAX_LONG)},
        f"GET {HOOKS}/{{hookId}}/storage": {"key": string(pattern=r"^((eq|gte?|lte?)\:)?(0x)?[0-9A-Fa-f]{1,64}$")},
    }
)
