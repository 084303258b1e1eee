"""The component schemas of the network routes, for our OpenAPI document (`apps.common.api.openapi`)."""

from apps.common.api.openapi import (
    TIMESTAMP_RANGE_QUERY,
    array,
    boolean,
    integer,
    nullable,
    number,
    obj,
    page,
    ref,
    register_query_parameters,
    register_responses,
    register_schemas,
    string,
)
from apps.network.filtersets import (
    FEE_ESTIMATE_MODES,
    MAX_HIGH_VOLUME_THROTTLE,
    SUPPLY_TYPES,
)

NULLABLE_INT64 = nullable(integer("int64"))
UNSIGNED_INT64 = integer("int64", minimum=0)

register_schemas(
    ExchangeRate=obj(
        cent_equivalent=integer("int32"), expiration_time=integer("int64"), hbar_equivalent=integer("int32")
    ),
    NetworkExchangeRateSetResponse=obj(
        current_rate=ref("ExchangeRate"), next_rate=ref("ExchangeRate"), timestamp=ref("Timestamp")
    ),
    NetworkFee=obj(gas=integer("int64"), transaction_type=string()),
    NetworkFees=array(ref("NetworkFee")),
    NetworkFeesResponse=obj(fees=ref("NetworkFees"), timestamp=ref("Timestamp")),
    ServiceEndpoint=obj(
        required=("domain_name", "ip_address_v4", "port"),
        domain_name=string(),
        ip_address_v4=string(),
        port=integer("int32"),
    ),
    ServiceEndpoints=array(ref("ServiceEndpoint")),
    NetworkNode=obj(
        required=(
            "admin_key", "associated_registered_nodes", "decline_reward", "description", "file_id",
            "grpc_proxy_endpoint", "max_stake", "memo", "min_stake", "node_account_id", "node_id", "node_cert_hash",
            "public_key", "reward_rate_start", "service_endpoints", "stake", "stake_not_rewarded", "stake_rewarded",
            "staking_period", "timestamp",
        ),
        admin_key=ref("Key"),
        associated_registered_nodes=array(UNSIGNED_INT64),
        decline_reward=nullable(boolean()),
        description=nullable(string()),
        file_id=ref("EntityId"),
        grpc_proxy_endpoint=nullable(ref("ServiceEndpoint")),  # null for a node without a proxy, as upstream
        max_stake=NULLABLE_INT64,
        memo=nullable(string()),
        min_stake=NULLABLE_INT64,
        node_account_id=ref("EntityId"),
        node_id=integer("int64"),
        node_cert_hash=nullable(string()),
        public_key=nullable(string()),
        reward_rate_start=NULLABLE_INT64,
        service_endpoints=ref("ServiceEndpoints"),
        stake=NULLABLE_INT64,
        stake_not_rewarded=NULLABLE_INT64,
        stake_rewarded=NULLABLE_INT64,
        staking_period=ref("TimestampRangeNullable"),
        timestamp=ref("TimestampRange"),
    ),
    NetworkNodes=array(ref("NetworkNode")),
    NetworkNodesResponse={**page("nodes", ref("NetworkNodes")), "required": ["nodes", "links"]},
    NetworkStakeResponse=obj(
        required=(
            "max_stake_rewarded", "max_staking_reward_rate_per_hbar", "max_total_reward", "node_reward_fee_fraction",
            "reserved_staking_rewards", "reward_balance_threshold", "stake_total", "staking_period",
            "staking_period_duration", "staking_periods_stored", "staking_reward_fee_fraction",
            "staking_reward_rate", "staking_start_threshold", "unreserved_staking_reward_balance",
        ),
        max_stake_rewarded=integer("int64"),
        max_staking_reward_rate_per_hbar=integer("int64"),
        max_total_reward=integer("int64"),
        node_reward_fee_fraction=number("float"),
        reserved_staking_rewards=integer("int64"),
        reward_balance_threshold=integer("int64"),
        stake_total=integer("int64"),
        staking_period=ref("TimestampRange"),
        staking_period_duration=integer("int64"),
        staking_periods_stored=integer("int64"),
        staking_reward_fee_fraction=number("float"),
        staking_reward_rate=integer("int64"),
        staking_start_threshold=integer("int64"),
        unreserved_staking_reward_balance=integer("int64"),
    ),
    NetworkSupplyResponse=obj(released_supply=string(), timestamp=ref("Timestamp"), total_supply=string()),
    FeeExtra=obj(
        required=("charged", "count", "fee_per_unit", "included", "name", "subtotal"),
        charged=UNSIGNED_INT64,
        count=UNSIGNED_INT64,
        fee_per_unit=UNSIGNED_INT64,
        included=UNSIGNED_INT64,
        name=string(),
        subtotal=UNSIGNED_INT64,
    ),
    FeeEstimate=obj(required=("base", "extras"), base=UNSIGNED_INT64, extras=array(ref("FeeExtra"))),
    FeeEstimateNetwork=obj(
        required=("multiplier", "subtotal"), multiplier=integer("int32", minimum=0), subtotal=UNSIGNED_INT64
    ),
    FeeEstimateResponse=obj(
        required=("high_volume_multiplier", "network", "node", "service", "total"),
        high_volume_multiplier=integer("int64", minimum=1),
        network=ref("FeeEstimateNetwork"),
        node=ref("FeeEstimate"),
        service=ref("FeeEstimate"),
        total=UNSIGNED_INT64,
    ),
)

register_responses(
    {
        "GET /api/v1/network/exchangerate": "NetworkExchangeRateSetResponse",
        "GET /api/v1/network/fees": "NetworkFeesResponse",
        "POST /api/v1/network/fees": "FeeEstimateResponse",
        "GET /api/v1/network/nodes": "NetworkNodesResponse",
        "GET /api/v1/network/registered-nodes": "RegisteredNodesResponse",
        "GET /api/v1/network/stake": "NetworkStakeResponse",
        "GET /api/v1/network/supply": "NetworkSupplyResponse",
    }
)

register_schemas(
    FeeEstimateMode=string(
        enum=list(FEE_ESTIMATE_MODES),
        default=FEE_ESTIMATE_MODES[0],
        description="Estimate solely based on the transaction's inherent properties or use network state.",
    )
)

register_query_parameters(
    {
        "high_volume_throttle": integer(minimum=0, maximum=MAX_HIGH_VOLUME_THROTTLE, default=0),
        "mode": ref("FeeEstimateMode"),
        "q": string(enum=list(SUPPLY_TYPES)),
        "node.id": string(pattern=r"^((eq|gt|gte|lt|lte):)?\d{1,19}$"),
        "registerednode.id": string(pattern=r"^((eq|gt|gte|lt|lte):)?\d{1,19}$"),
    },
    # `limit` of the nodes route follows its FilterSet: 10 by default, at most 25, as the upstream's
    # route answers (ROUTES.md), where its document says 25 and 100.
    operations={
        "GET /api/v1/network/registered-nodes": {"type": ref("RegisteredNodeType")},
        **{
            f"GET /api/v1/network/{route}": {"timestamp": TIMESTAMP_RANGE_QUERY}
            for route in ("exchangerate", "fees", "supply")
        },
    },
)


# /network/registered-nodes. The upstream also answers an endpoint of no known type (as a general
# service endpoint) and takes `type=UNKNOWN`; its document names the four types, as ours does.
register_schemas(
    RegisteredNodeType=string(enum=["BLOCK_NODE", "GENERAL_SERVICE", "MIRROR_NODE", "RPC_RELAY"]),
    RegisteredBlockNodeApi=string(
        enum=["OTHER", "STATUS", "PUBLISH", "SUBSCRIBE_STREAM", "STATE_PROOF", "UNRECOGNIZED"]
    ),
    RegisteredBlockNodeEndpoint=obj(endpoint_apis=array(ref("RegisteredBlockNodeApi"))),
    RegisteredGeneralServiceEndpoint=obj(description=string()),
    RegisteredMirrorNodeEndpoint={"type": "object"},
    RegisteredRpcRelayEndpoint={"type": "object"},
    RegisteredServiceEndpoint={
        **obj(
            required=("block_node", "general_service", "mirror_node", "port", "rpc_relay", "requires_tls", "type"),
            # null but for the endpoint's own type
            block_node=nullable(ref("RegisteredBlockNodeEndpoint")),
            domain_name=nullable(string()),
            general_service=nullable(ref("RegisteredGeneralServiceEndpoint")),
            ip_address=nullable(string()),
            mirror_node=nullable(ref("RegisteredMirrorNodeEndpoint")),
            port=integer("int32", minimum=0, maximum=65535),
            requires_tls=boolean(),
            rpc_relay=nullable(ref("RegisteredRpcRelayEndpoint")),
            type=ref("RegisteredNodeType"),
        ),
        # A domain name, an IP address or both.
        "allOf": [{"anyOf": [{"required": ["domain_name"]}, {"required": ["ip_address"]}]}],
    },
    RegisteredServiceEndpoints=array(ref("RegisteredServiceEndpoint")),
    RegisteredNode=obj(
        required=(
            "admin_key", "created_timestamp", "description", "registered_node_id", "service_endpoints", "timestamp"
        ),
        admin_key=ref("Key"),
        created_timestamp=ref("TimestampNullable"),
        description=nullable(string()),
        registered_node_id=integer("int64"),
        service_endpoints=ref("RegisteredServiceEndpoints"),
        timestamp=ref("TimestampRange"),
    ),
    RegisteredNodes=array(ref("RegisteredNode")),
    RegisteredNodesResponse=obj(
        required=("links", "registered_nodes"), registered_nodes=ref("RegisteredNodes"), links=ref("Links")
    ),
)
