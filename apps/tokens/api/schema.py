"""The component schemas of the token routes, for our OpenAPI document (`apps.common.api.openapi`)."""

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

FRACTION = obj(numerator=integer("int64"), denominator=integer("int64"))

register_schemas(
    Token=obj(
        required=("admin_key", "decimals", "name", "symbol", "token_id", "type"),
        admin_key=ref("Key"),
        decimals=integer("int64"),
        metadata=string(format="byte"),
        name=string(),
        symbol=string(),
        token_id=ref("EntityId"),
        type=string(),
    ),
    Tokens=array(ref("Token")),
    TokensResponse=page("tokens", ref("Tokens")),
    FixedFee=obj(
        all_collectors_are_exempt=boolean(),
        amount=integer("int64"),
        collector_account_id=ref("EntityId"),
        denominating_token_id=ref("EntityId"),
    ),
    FractionalFee=obj(
        all_collectors_are_exempt=boolean(),
        amount=FRACTION,
        collector_account_id=ref("EntityId"),
        denominating_token_id=ref("EntityId"),
        maximum=nullable(integer("int64")),
        minimum=integer("int64"),
        net_of_transfers=boolean(),
    ),
    RoyaltyFee=obj(
        all_collectors_are_exempt=boolean(),
        amount=FRACTION,
        collector_account_id=ref("EntityId"),
        fallback_fee=nullable(obj(amount=integer("int64"), denominating_token_id=ref("EntityId"))),
    ),
    CustomFees=obj(
        created_timestamp=ref("Timestamp"),
        fixed_fees=array(ref("FixedFee")),
        fractional_fees=array(ref("FractionalFee")),
        royalty_fees=array(ref("RoyaltyFee")),
    ),
    TokenInfo=obj(
        admin_key=ref("Key"),
        auto_renew_account=ref("EntityId"),
        auto_renew_period=nullable(integer("int64")),
        created_timestamp=ref("Timestamp"),
        decimals=string(),
        deleted=nullable(boolean()),
        expiry_timestamp=nullable(integer("int64")),
        fee_schedule_key=ref("Key"),
        freeze_default=boolean(),
        freeze_key=ref("Key"),
        initial_supply=string(),
        kyc_key=ref("Key"),
        max_supply=string(),
        metadata=string(format="byte"),
        metadata_key=ref("Key"),
        modified_timestamp=ref("Timestamp"),
        name=string(),
        memo=string(),
        pause_key=ref("Key"),
        pause_status=string(enum=["NOT_APPLICABLE", "PAUSED", "UNPAUSED"]),
        supply_key=ref("Key"),
        supply_type=string(enum=["FINITE", "INFINITE"]),
        symbol=string(),
        token_id=ref("EntityId"),
        total_supply=string(),
        treasury_account_id=ref("EntityId"),
        type=string(enum=["FUNGIBLE_COMMON", "NON_FUNGIBLE_UNIQUE"]),
        wipe_key=ref("Key"),
        custom_fees=ref("CustomFees"),
    ),
    TokenDistribution=array(
        obj(
            required=("account", "balance", "decimals"),
            account=ref("EntityId"),
            balance=integer("int64"),
            decimals=nullable(integer("int64")),
        )
    ),
    TokenBalancesResponse=obj(
        timestamp=ref("TimestampNullable"), balances=ref("TokenDistribution"), links=ref("Links")
    ),
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
    Nfts=page("nfts", array(ref("Nft"))),
    NftTransactionTransfer=obj(
        required=(
            "consensus_timestamp", "is_approval", "nonce", "receiver_account_id", "sender_account_id",
            "transaction_id", "type",
        ),
        consensus_timestamp=ref("Timestamp"),
        is_approval=boolean(),
        nonce=integer(minimum=0),
        receiver_account_id=ref("EntityId"),
        sender_account_id=ref("EntityId"),
        transaction_id=string(),
        type=ref("TransactionTypeName"),
    ),
    NftTransactionHistory={
        **page("transactions", array(ref("NftTransactionTransfer"))),
        "required": ["transactions", "links"],
    },
)

TOKEN = "/api/v1/tokens/{tokenId}"
register_responses(
    {
        "GET /api/v1/tokens": "TokensResponse",
        f"GET {TOKEN}": "TokenInfo",
        f"GET {TOKEN}/balances": "TokenBalancesResponse",
        f"GET {TOKEN}/nfts": "Nfts",
        f"GET {TOKEN}/nfts/{{serialNumber}}": "Nft",
        f"GET {TOKEN}/nfts/{{serialNumber}}/transactions": {200: "NftTransactionHistory", 206: "NftTransactionHistory"},
    }
)

register_path_parameters(
    tokenId=PathParameter(
        ref("EntityId"),
        "The token: its id (`0.0.1007`, or `1007` in the configured shard and realm), or the EVM address "
        "that encodes that id (`0x00000000000000000000000000000000000003ef`).",
    ),
    serialNumber=PathParameter(integer("int64", minimum=1, maximum=2**63 - 1), "The NFT's serial number, from 1."),
)

register_query_parameters(
    operations={
        "GET /api/v1/tokens": {"name": string(minLength=3, maxLength=100), "type": array(string())},
        # A token's state at one moment: a single value, at or before it.
        "GET /api/v1/tokens/{tokenId}": {"timestamp": string(pattern=r"^((eq|lt|lte):)?\d{1,10}(\.\d{1,9})?$")},
    }
)
