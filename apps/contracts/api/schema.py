"""The component schemas of the contract routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    TIMESTAMP_RANGE_QUERY,
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

BINARY = string(format="binary")
NULLABLE_STRING = nullable(string())
NULLABLE_INT64 = nullable(integer("int64"))

# What a contract result's detail adds to, or states again over, the list's item.
_RESULT_DETAIL = dict(
    access_list=array(ref("AccessList")),
    address=NULLABLE_STRING,
    authorization_list=array(ref("AuthorizationList")),
    block_gas_used=NULLABLE_INT64,
    block_hash=NULLABLE_STRING,
    block_number=NULLABLE_INT64,
    chain_id=NULLABLE_STRING,
    gas_price=NULLABLE_STRING,
    hash=string(),
    max_fee_per_gas=NULLABLE_STRING,
    max_priority_fee_per_gas=NULLABLE_STRING,
    nonce=NULLABLE_INT64,
    r=NULLABLE_STRING,
    s=NULLABLE_STRING,
    transaction_index=NULLABLE_INT64,
    type=nullable(integer()),
    v=nullable(integer()),
)

register_schemas(
    Contract=obj(
        admin_key=ref("Key"),
        auto_renew_account=ref("EntityId"),
        auto_renew_period=NULLABLE_INT64,
        contract_id=ref("EntityId"),
        created_timestamp=ref("TimestampNullable"),
        deleted=boolean(),
        evm_address=ref("EvmAddress"),
        expiration_timestamp=ref("TimestampNullable"),
        file_id=ref("EntityId"),
        max_automatic_token_associations=nullable(integer("int32")),
        memo=string(),
        nonce=NULLABLE_INT64,
        obtainer_id=ref("EntityId"),
        permanent_removal=nullable(boolean()),
        proxy_account_id=ref("EntityId"),
        timestamp=ref("TimestampRange"),
    ),
    Contracts=array(ref("Contract")),
    ContractsResponse=page("contracts", ref("Contracts")),
    ContractResponse=all_of(
        ref("Contract"), obj(bytecode=nullable(BINARY), runtime_bytecode=nullable(BINARY))
    ),
    AccessList=obj(address=BINARY, storage_keys=array(BINARY)),
    AuthorizationList=obj(
        address=BINARY, chain_id=string(), nonce=integer("int64"), r=BINARY, s=BINARY, y_parity=string()
    ),
    Bloom=nullable(BINARY),
    ContractResult=obj(
        **_RESULT_DETAIL,
        amount=NULLABLE_INT64,
        bloom=ref("Bloom"),
        call_result=NULLABLE_STRING,
        contract_id=ref("EntityId"),
        created_contract_ids=nullable(array(ref("EntityId"))),
        error_message=NULLABLE_STRING,
        failed_initcode=NULLABLE_STRING,
        function_parameters=NULLABLE_STRING,
        gas_consumed=NULLABLE_INT64,
        gas_limit=integer("int64"),
        gas_used=NULLABLE_INT64,
        result=string(),
        status=string(),
        timestamp=ref("Timestamp"),
        to=ref("EvmAddressNullable"),
        **{"from": ref("EvmAddressNullable")},
    ),
    ContractResults=array(ref("ContractResult")),
    ContractResultsResponse=page("results", ref("ContractResults")),
    ContractLogTopics=array(string()),
    ContractResultLog=obj(
        address=string(pattern=r"^0x[0-9A-Fa-f]{40}$"),
        bloom=ref("Bloom"),
        contract_id=ref("EntityId"),
        data=NULLABLE_STRING,
        index=integer(),
        topics=ref("ContractLogTopics"),
    ),
    ContractResultLogs=array(ref("ContractResultLog")),
    ContractResultStateChange=obj(
        address=ref("EvmAddress"),
        contract_id=ref("EntityId"),
        slot=BINARY,
        value_read=BINARY,
        value_written=nullable(BINARY),
    ),
    ContractResultStateChanges=array(ref("ContractResultStateChange")),
    ContractResultDetails=all_of(
        ref("ContractResult"),
        obj(
            **_RESULT_DETAIL,
            failed_initcode=NULLABLE_STRING,  # null without one, as the upstream answers
            logs=ref("ContractResultLogs"),
            state_changes=ref("ContractResultStateChanges"),
        ),
    ),
    ContractLog=all_of(
        ref("ContractResultLog"),
        obj(
            block_hash=string(),
            block_number=integer("int64"),
            root_contract_id=ref("EntityId"),
            timestamp=ref("Timestamp"),
            transaction_hash=string(),
            transaction_index=nullable(integer("int32")),
        ),
    ),
    ContractLogs=array(ref("ContractLog")),
    ContractLogsResponse=page("logs", ref("ContractLogs")),
    ContractState=obj(
        required=("address", "contract_id", "timestamp", "slot", "value"),
        address=ref("EvmAddress"),
        contract_id=ref("EntityId"),
        timestamp=ref("Timestamp"),
        slot=BINARY,
        value=BINARY,
    ),
    ContractStateResponse=page("state", array(ref("ContractState"))),
    ContractAction=obj(
        call_depth=integer("int32"),
        call_operation_type=string(
            enum=["CALL", "CALLCODE", "CREATE", "CREATE2", "DELEGATECALL", "STATICCALL", "UNKNOWN"]
        ),
        call_type=string(enum=["NO_ACTION", "CALL", "CREATE", "PRECOMPILE", "SYSTEM"]),
        caller=ref("EntityId"),
        caller_type=string(enum=["ACCOUNT", "CONTRACT"]),
        gas=integer("int64"),
        gas_used=integer("int64"),
        index=integer("int32"),
        input=NULLABLE_STRING,
        recipient=ref("EntityId"),
        recipient_type=nullable(string(enum=["ACCOUNT", "CONTRACT", None])),
        result_data=NULLABLE_STRING,
        result_data_type=string(enum=["OUTPUT", "REVERT_REASON", "ERROR"]),
        timestamp=ref("Timestamp"),
        to=ref("EvmAddressNullable"),
        value=integer("int64"),
        **{"from": string()},
    ),
    ContractActions=array(ref("ContractAction")),
    ContractActionsResponse=page("actions", ref("ContractActions")),
    Opcode=obj(
        required=("depth", "gas", "gas_cost", "memory", "op", "pc", "stack", "storage"),
        depth=integer("int32"),
        gas=integer("int64"),
        gas_cost=integer("int64"),
        memory=nullable(array(BINARY)),
        op=string(),
        pc=integer("int32"),
        reason=nullable(BINARY),
        stack=nullable(array(BINARY)),
        storage={"type": ["object", "null"], "additionalProperties": BINARY},
    ),
    OpcodesResponse=obj(
        required=("address", "contract_id", "failed", "gas", "opcodes", "return_value"),
        address=BINARY,
        contract_id=ref("EntityId"),
        failed=boolean(),
        gas=integer("int64"),
        opcodes=array(ref("Opcode")),
        return_value=BINARY,
    ),
)

CONTRACT = "/api/v1/contracts/{contractIdOrAddress}"
RESULT = "/api/v1/contracts/results/{transactionIdOrHash}"
register_responses(
    {
        "GET /api/v1/contracts": "ContractsResponse",
        f"GET {CONTRACT}": "ContractResponse",
        f"GET {CONTRACT}/state": "ContractStateResponse",
        f"GET {CONTRACT}/results": "ContractResultsResponse",
        f"GET {CONTRACT}/results/{{timestamp}}": {200: "ContractResultDetails", 206: "ContractResultDetails"},
        f"GET {CONTRACT}/results/logs": "ContractLogsResponse",
        "GET /api/v1/contracts/results": "ContractResultsResponse",
        "GET /api/v1/contracts/results/logs": "ContractLogsResponse",
        f"GET {RESULT}": {200: "ContractResultDetails", 206: "ContractResultDetails"},
        f"GET {RESULT}/actions": "ContractActionsResponse",
        f"GET {RESULT}/opcodes": "OpcodesResponse",
        "GET /api/v1/contracts/{transactionIdOrHash}/results/opcodes": "OpcodesResponse",
    }
)

register_path_parameters(
    contractIdOrAddress=PathParameter(
        string(pattern=r"^(\d{1,10}\.){0,2}(\d{1,10}|(0x)?[A-Fa-f0-9]{40})$"),
        "The contract: its id (`0.0.1010`, or `1010` in the configured shard and realm) or its EVM address "
        "(40 hex digits, optionally after `0x` or `shard.realm.`).",
    ),
    transactionIdOrHash=PathParameter(
        string(pattern=r"^(0x)?[A-Fa-f0-9]{64}|(\d{1,10})\.(\d{1,10})\.(\d{1,10})-(\d{1,19})-(\d{1,9})$"),
        "The transaction: its id (`0.0.1001-1700000000-000000001`: the payer, then the valid start's seconds "
        "and nanoseconds) or its Ethereum transaction hash (64 hex digits, optionally after `0x`).",
    ),
)

HASH_QUERY = string(pattern=r"^(eq:)?(0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")
RESULTS_QUERY = {
    "block.hash": HASH_QUERY,
    # The upstream's pattern reads `[a-fA-f0-9]`, letting through the characters between `F` and `a`.
    "block.number": string(pattern=r"^(eq:)?(\d{1,19}|0x[a-fA-F0-9]+)$"),
    # An account as `0.0.9001`, `9001` or an EVM address (the conformance cases).
    "from": string(pattern=r"^((\d{1,10}\.){0,2}\d{1,10}|(0x)?[A-Fa-f0-9]{40})$"),
    "transaction.index": integer("int32", minimum=0),
}
LOGS_QUERY = {
    "timestamp": TIMESTAMP_RANGE_QUERY,
    "index": string(pattern=r"^((eq|gt|gte|lt|lte):)?\d{1,10}$"),
    **dict.fromkeys(("topic0", "topic1", "topic2", "topic3"), ref("LogTopicQueryParam")),
}

register_schemas(LogTopicQueryParam=array(string(pattern=r"^(0x)?[0-9A-Fa-f]{1,64}$")))

register_query_parameters(
    {
        # An id after an operator, or an EVM address alone; anchored at both ends, as the route reads it.
        "contract.id": string(
            pattern=r"^(((gte?|lte?|eq|ne)\:)?(\d{1,10}\.\d{1,10}\.)?\d{1,10}|(\d{1,10}\.){0,2}[A-Fa-f0-9]{40})$"
        ),
        "slot": string(pattern=r"^((eq|gte?|lte?)\:)?(0x)?[0-9A-Fa-f]{1,64}$"),
        "transaction.hash": HASH_QUERY,
    },
    operations={
        "GET /api/v1/contracts/results": RESULTS_QUERY,
        "GET /api/v1/contracts/{contractIdOrAddress}/results": RESULTS_QUERY,
        "GET /api/v1/contracts/results/logs": LOGS_QUERY,
        "GET /api/v1/contracts/{contractIdOrAddress}/results/logs": LOGS_QUERY,
        "GET /api/v1/contracts/results/{transactionIdOrHash}": {"nonce": integer("int32", default=0, minimum=0)},
        "GET /api/v1/contracts/results/{transactionIdOrHash}/actions": {
            "index": string(pattern=r"^((gte?|lte?|eq|ne)\:)?\d{1,10}$")
        },
        "GET /api/v1/contracts/{contractIdOrAddress}/state": {"timestamp": TIMESTAMP_RANGE_QUERY},
    },
)
