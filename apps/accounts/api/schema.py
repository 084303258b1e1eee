"""The component schemas of the account and balance routes, for our OpenAPI document (`apps.common.api.openapi`)."""

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

BASE32_ALIAS = r"(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}|[A-Z2-7]{4,5}|[A-Z2-7]{7,8})"


register_schemas(
    Alias=nullable(string(pattern=f"^{BASE32_ALIAS}$")),
    TokenBalance=obj(required=("token_id", "balance"), token_id=ref("EntityId"), balance=integer("int64")),
    AccountBalance=obj(
        required=("account", "balance", "tokens"),
        account=ref("EntityId"),
        balance=integer("int64"),
        tokens=array(ref("TokenBalance")),
    ),
    BalancesResponse=obj(
        timestamp=ref("TimestampNullable"), balances=array(ref("AccountBalance")), links=ref("Links")
    ),
    Balance=nullable(
        obj(
            required=("timestamp", "balance", "tokens"),
            timestamp=ref("TimestampNullable"),
            balance=nullable(integer("int64")),
            tokens=array(obj(token_id=ref("EntityId"), balance=integer("int64"))),
        )
    ),
    AccountInfo=obj(
        required=(
            "account", "alias", "auto_renew_period", "balance", "created_timestamp", "decline_reward",
            "delegation_address", "deleted", "ethereum_nonce", "evm_address", "expiry_timestamp", "key",
            "max_automatic_token_associations", "memo", "receiver_sig_required", "staked_account_id",
            "staked_node_id", "stake_period_start",
        ),
        account=ref("EntityId"),
        alias=ref("Alias"),
        auto_renew_period=nullable(integer("int64")),
        balance=ref("Balance"),
        created_timestamp=ref("TimestampNullable"),
        decline_reward=boolean(),
        # The upstream's answer is "0x" when an account delegates to no address: so is ours.
        delegation_address=nullable(string(format="binary", pattern=r"^0x([A-Fa-f0-9]{40})?$")),
        deleted=nullable(boolean()),
        ethereum_nonce=nullable(integer("int64")),
        evm_address=ref("EvmAddressNullable"),
        expiry_timestamp=ref("TimestampNullable"),
        key=ref("Key"),
        max_automatic_token_associations=nullable(integer("int32")),
        memo=nullable(string()),
        pending_reward=integer("int64"),
        receiver_sig_required=nullable(boolean()),
        staked_account_id=ref("EntityId"),
        staked_node_id=nullable(integer("int64")),
        # A staking day's start in seconds, which the upstream does not bound to 10 digits.
        stake_period_start=nullable(string(pattern=r"^\d+(\.\d{1,9})?$")),
    ),
    Accounts=array(ref("AccountInfo")),
    AccountsResponse=obj(required=("accounts", "links"), accounts=ref("Accounts"), links=ref("Links")),
    AccountBalanceTransactions=all_of(
        ref("AccountInfo"),
        obj(required=("transactions", "links"), transactions=ref("Transactions"), links=ref("Links")),
    ),
    StakingReward=obj(
        required=("account_id", "amount", "timestamp"),
        account_id=ref("EntityId"),
        amount=integer("int64"),
        timestamp=ref("Timestamp"),
    ),
    StakingRewardsResponse=page("rewards", array(ref("StakingReward"))),
    Allowance=obj(
        amount=integer("int64"),
        amount_granted=integer("int64"),
        owner=ref("EntityId"),
        spender=ref("EntityId"),
        timestamp=ref("TimestampRange"),
    ),
    CryptoAllowance=all_of(ref("Allowance"), obj(amount=integer("int64"), amount_granted=integer("int64"))),
    CryptoAllowances=array(ref("CryptoAllowance")),
    CryptoAllowancesResponse=page("allowances", ref("CryptoAllowances")),
    TokenAllowance=all_of(ref("Allowance"), obj(token_id=ref("EntityId"))),
    TokenAllowances=array(ref("TokenAllowance")),
    TokenAllowancesResponse=page("allowances", ref("TokenAllowances")),
    NftAllowance=obj(
        required=("approved_for_all", "owner", "spender", "timestamp", "token_id"),
        approved_for_all=boolean(),
        owner=ref("EntityId"),
        spender=ref("EntityId"),
        timestamp=ref("TimestampRange"),
        token_id=ref("EntityId"),
    ),
    NftAllowances=array(ref("NftAllowance")),
    NftAllowancesResponse=page("allowances", ref("NftAllowances")),
    TokenRelationship=obj(
        required=(
            "automatic_association", "balance", "created_timestamp", "decimals", "freeze_status", "kyc_status",
            "token_id",
        ),
        automatic_association=nullable(boolean()),
        balance=integer("int64"),
        created_timestamp=ref("TimestampNullable"),
        decimals=nullable(integer("int64")),
        freeze_status=nullable(string(enum=["NOT_APPLICABLE", "FROZEN", "UNFROZEN", None])),
        kyc_status=nullable(string(enum=["NOT_APPLICABLE", "GRANTED", "REVOKED", None])),  # null: as upstream
        token_id=ref("EntityId"),
    ),
    TokenRelationshipResponse=page("tokens", array(ref("TokenRelationship"))),
    TokenAirdrop=obj(
        required=("amount", "receiver_id", "sender_id", "timestamp", "token_id"),
        amount=integer("int64"),
        receiver_id=ref("EntityId"),
        sender_id=ref("EntityId"),
        serial_number=nullable(integer("int64")),
        timestamp=ref("TimestampRange"),
        token_id=ref("EntityId"),
    ),
    TokenAirdrops=array(ref("TokenAirdrop")),
    TokenAirdropsResponse=page("airdrops", ref("TokenAirdrops")),
)

ACCOUNT = "/api/v1/accounts/{idOrAliasOrEvmAddress}"
register_responses(
    {
        "GET /api/v1/balances": "BalancesResponse",
        "GET /api/v1/accounts": "AccountsResponse",
        f"GET {ACCOUNT}": "AccountBalanceTransactions",
        f"GET {ACCOUNT}/nfts": "Nfts",
        f"GET {ACCOUNT}/rewards": "StakingRewardsResponse",
        f"GET {ACCOUNT}/tokens": "TokenRelationshipResponse",
        f"GET {ACCOUNT}/airdrops/outstanding": "TokenAirdropsResponse",
        f"GET {ACCOUNT}/airdrops/pending": "TokenAirdropsResponse",
        f"GET {ACCOUNT}/allowances/crypto": "CryptoAllowancesResponse",
        f"GET {ACCOUNT}/allowances/tokens": "TokenAllowancesResponse",
        f"GET {ACCOUNT}/allowances/nfts": "NftAllowancesResponse",
    }
)

register_path_parameters(
    idOrAliasOrEvmAddress=PathParameter(
        string(pattern=rf"^(\d{{1,10}}\.){{0,2}}(\d{{1,10}}|(0x)?[A-Fa-f0-9]{{40}}|{BASE32_ALIAS})$"),
        "The account: its id (`0.0.1001`, or `1001` in the configured shard and realm), its alias (base32, "
        "optionally after `shard.realm.`) or its EVM address (40 hex digits, optionally after `0x` or "
        "`shard.realm.`).",
    ),
)

# `/balances` takes an account as `/accounts/{idOrAliasOrEvmAddress}` does, and an operator before
# it (`gt:0.0.19`), which the upstream's pattern leaves out.
register_query_parameters(
    operations={
        "GET /api/v1/accounts/{idOrAliasOrEvmAddress}/rewards": {"timestamp": TIMESTAMP_RANGE_QUERY},
        "GET /api/v1/balances": {
            "account.id": string(
                pattern=rf"^((gte?|lte?|eq|ne)\:)?(\d{{1,10}}\.){{0,2}}(\d{{1,10}}|(0x)?[A-Fa-f0-9]{{40}}|{BASE32_ALIAS})$"
            )
        }
    }
)
