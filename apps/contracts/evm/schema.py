"""OpenAPI components of `POST /contracts/call` and the opcode traces (names as the upstream's)."""

from apps.common.api.openapi import (
    array,
    boolean,
    integer,
    nullable,
    obj,
    ref,
    register_schemas,
    string,
)

HEX = string(format="binary", pattern=r"^0x[0-9a-fA-F]*$")
ADDRESS = string(format="binary", pattern=r"^(0x)?[A-Fa-f0-9]{40}$")

register_schemas(
    # The reference requires `to`; the service also takes an empty or null `to` as a contract create.
    ContractCallRequest=obj(
        required=["to"],
        block=nullable(string(pattern=r"^((0x)?[0-9a-fA-F]+|(earliest|pending|latest|safe|finalized))$")),
        data=nullable(string(format="binary", maxLength=262146, pattern=r"^(0x)?[0-9a-fA-F]+$")),
        estimate=nullable(boolean()),
        **{"from": nullable(ADDRESS)},
        gas=nullable(integer("int64", minimum=0)),
        gasPrice=nullable(integer("int64", minimum=0)),
        to=ADDRESS,
        value=nullable(integer("int64", minimum=0)),
    ),
    ContractCallResponse=obj(result=HEX),
    Opcode=obj(
        depth=integer("int32"),
        gas=integer("int64"),
        gas_cost=integer("int64"),
        memory=nullable(array(string(format="binary"))),
        op=string(),
        pc=integer("int32"),
        reason=nullable(string(format="binary")),
        stack=nullable(array(string(format="binary"))),
        storage=nullable({"type": "object", "additionalProperties": string(format="binary")}),
    ),
    OpcodesResponse=obj(
        address=string(format="binary"),
        contract_id=ref("EntityId"),
        failed=boolean(),
        gas=integer("int64"),
        opcodes=array(ref("Opcode")),
        return_value=string(format="binary"),
    ),
)
