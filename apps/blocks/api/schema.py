"""The component schemas of the block routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    PathParameter,
    array,
    integer,
    nullable,
    obj,
    page,
    ref,
    register_path_parameters,
    register_responses,
    register_schemas,
    string,
)

register_schemas(
    Block=obj(
        count=integer(minimum=0),
        gas_used=nullable(integer("int64", minimum=0)),
        hapi_version=nullable(string()),
        hash=string(),
        logs_bloom=nullable(string(pattern=r"^0x([0-9a-fA-F]{512})?$")),  # "0x" when empty
        name=string(),
        number=integer(minimum=0),
        previous_hash=string(),
        size=nullable(integer()),
        timestamp=ref("TimestampRange"),
    ),
    Blocks=array(ref("Block")),
    BlocksResponse=page("blocks", ref("Blocks")),
)

register_responses({"GET /api/v1/blocks": "BlocksResponse", "GET /api/v1/blocks/{hashOrNumber}": "Block"})

register_path_parameters(
    hashOrNumber=PathParameter(
        string(pattern=r"^(\d{1,10}|(0x)?([A-Fa-f0-9]{64}|[A-Fa-f0-9]{96}))$"),
        "The block: its number, or its hash in hex (96 digits, or the first 64 of them), optionally after `0x`.",
    )
)
