-- mirror_schema.sql: our DDL for the Hiero/Hedera mirror node PostgreSQL schema, v1 layout.
-- Creates the domain types, enum types, tables, primary keys and indexes on an empty database.
-- Partitioned as upstream: account_balance and token_balance by consensus time (here one partition per
-- year, 1970 to 2040), transaction_hash by its first byte (32 lists); the function
-- get_transaction_info_by_hash(bytea) that upstream's REST service looks transactions up by hash with.

create extension if not exists btree_gist;
create extension if not exists pg_trgm;

create domain entity_id as bigint;
create domain entity_num as integer;
create domain entity_realm_num as smallint;
create domain entity_type_id as character(1);
create domain hbar_tinybars as bigint;
create domain nanos_timestamp as bigint;

create type airdrop_state as enum ('CANCELLED', 'CLAIMED', 'PENDING');
create type entity_type as enum ('UNKNOWN', 'ACCOUNT', 'CONTRACT', 'FILE', 'TOPIC', 'TOKEN', 'SCHEDULE');
create type errata_type as enum ('INSERT', 'DELETE');
create type hook_extension_point as enum ('ACCOUNT_ALLOWANCE_HOOK');
create type hook_type as enum ('EVM');
create type token_pause_status as enum ('NOT_APPLICABLE', 'PAUSED', 'UNPAUSED');
create type token_supply_type as enum ('INFINITE', 'FINITE');
create type token_type as enum ('FUNGIBLE_COMMON', 'NON_FUNGIBLE_UNIQUE');

create table account_balance (
    consensus_timestamp nanos_timestamp not null,
    balance hbar_tinybars not null,
    account_id entity_id not null,
    primary key (account_id, consensus_timestamp)
) partition by range (consensus_timestamp);

create table account_balance_file (
    consensus_timestamp bigint not null,
    count bigint not null,
    load_start bigint not null,
    load_end bigint not null,
    file_hash character varying(96),
    name character varying(250) not null,
    bytes bytea,
    time_offset integer default 0 not null,
    synthetic boolean default false not null,
    primary key (consensus_timestamp)
);
create index account_balance_file__name on account_balance_file using btree (name);

create table account_balance_old (
    consensus_timestamp nanos_timestamp not null,
    balance hbar_tinybars not null,
    account_id entity_id not null,
    primary key (consensus_timestamp, account_id)
);

create table address_book (
    start_consensus_timestamp nanos_timestamp not null,
    end_consensus_timestamp nanos_timestamp,
    file_id entity_id not null,
    node_count integer,
    file_data bytea not null,
    primary key (start_consensus_timestamp)
);

create table address_book_entry (
    consensus_timestamp nanos_timestamp not null,
    memo character varying(128),
    public_key character varying(1024),
    node_id bigint not null,
    node_account_id entity_id not null,
    node_cert_hash bytea,
    description character varying(100),
    stake bigint,
    primary key (consensus_timestamp, node_id)
);
create index address_book_entry__timestamp on address_book_entry using btree (consensus_timestamp);

create table address_book_service_endpoint (
    consensus_timestamp bigint not null,
    ip_address_v4 character varying(15) default ''::character varying not null,
    node_id bigint not null,
    port integer not null,
    domain_name character varying(253) default ''::character varying not null
);
create index address_book_service_endpoint__timestamp_node_id on address_book_service_endpoint using btree (consensus_timestamp, node_id);

create table assessed_custom_fee (
    amount bigint not null,
    collector_account_id bigint not null,
    consensus_timestamp bigint not null,
    token_id bigint,
    effective_payer_account_ids bigint[] not null,
    payer_account_id bigint not null
);
create index assessed_custom_fee__consensus_timestamp on assessed_custom_fee using btree (consensus_timestamp);

create table contract (
    id bigint not null,
    file_id bigint,
    initcode bytea,
    runtime_bytecode bytea,
    primary key (id)
);

create table contract_action (
    call_depth integer not null,
    call_type integer,
    caller bigint,
    caller_type entity_type default 'CONTRACT'::entity_type,
    consensus_timestamp bigint not null,
    gas bigint not null,
    gas_used bigint not null,
    index integer not null,
    input bytea,
    recipient_account bigint,
    recipient_address bytea,
    recipient_contract bigint,
    result_data bytea,
    result_data_type integer not null,
    value bigint not null,
    call_operation_type integer,
    payer_account_id bigint not null,
    primary key (consensus_timestamp, index)
);

create table contract_log (
    bloom bytea not null,
    consensus_timestamp bigint not null,
    contract_id bigint not null,
    data bytea not null,
    index integer not null,
    topic0 bytea,
    topic1 bytea,
    topic2 bytea,
    topic3 bytea,
    payer_account_id bigint not null,
    root_contract_id bigint,
    transaction_hash bytea,
    transaction_index integer,
    synthetic boolean,
    primary key (consensus_timestamp, index)
);
create index contract_log__contract_id_timestamp_index on contract_log using btree (contract_id, consensus_timestamp DESC, index);
create index contract_log__synthetic_timestamp on contract_log using btree (consensus_timestamp DESC, index DESC) where (synthetic IS TRUE);

create table contract_result (
    function_parameters bytea not null,
    gas_limit bigint not null,
    function_result bytea,
    gas_used bigint,
    consensus_timestamp nanos_timestamp not null,
    amount bigint,
    bloom bytea,
    call_result bytea,
    contract_id bigint not null,
    created_contract_ids bigint[],
    error_message text,
    payer_account_id bigint not null,
    sender_id bigint,
    failed_initcode bytea,
    transaction_hash bytea,
    transaction_index integer,
    transaction_result smallint not null,
    transaction_nonce integer default 0 not null,
    gas_consumed bigint,
    primary key (consensus_timestamp)
);
create index contract_result__id_sender_timestamp on contract_result using btree (contract_id, sender_id, consensus_timestamp);
create index contract_result__id_timestamp on contract_result using btree (contract_id, consensus_timestamp);
create index contract_result__sender_timestamp on contract_result using btree (sender_id, consensus_timestamp);

create table contract_state (
    contract_id bigint not null,
    created_timestamp bigint not null,
    modified_timestamp bigint not null,
    slot bytea not null,
    value bytea,
    primary key (contract_id, slot)
);

create table contract_state_change (
    consensus_timestamp bigint not null,
    contract_id bigint not null,
    payer_account_id bigint not null,
    slot bytea not null,
    value_read bytea not null,
    value_written bytea,
    migration boolean default false not null,
    primary key (consensus_timestamp, contract_id, slot)
);
create index contract_state_change__id_slot_timestamp on contract_state_change using btree (contract_id, slot, consensus_timestamp);

create table contract_transaction (
    consensus_timestamp bigint not null,
    entity_id bigint not null,
    contract_ids bigint[] not null,
    payer_account_id bigint not null,
    primary key (consensus_timestamp, entity_id)
);

create table contract_transaction_hash (
    consensus_timestamp bigint not null,
    hash bytea not null,
    payer_account_id bigint not null,
    entity_id bigint not null,
    transaction_result smallint not null
);
create index contract_transaction_hash__hash on contract_transaction_hash using hash (hash);

create table crypto_allowance (
    amount_granted bigint not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    amount bigint default 0 not null,
    primary key (owner, spender)
);

create table crypto_allowance_history (
    amount_granted bigint not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    amount bigint default 0 not null
);
create index crypto_allowance_history__timestamp_range on crypto_allowance_history using gist (timestamp_range);
create index crypto_allowance_history_owner_spender_lower_timestamp on crypto_allowance_history using btree (owner, spender, lower(timestamp_range));

create table crypto_transfer (
    entity_id entity_id not null,
    consensus_timestamp nanos_timestamp not null,
    amount hbar_tinybars not null,
    payer_account_id bigint not null,
    is_approval boolean,
    errata errata_type
);
create index crypto_transfer__consensus_timestamp on crypto_transfer using btree (consensus_timestamp);
create index crypto_transfer__entity_id_consensus_timestamp on crypto_transfer using btree (entity_id, consensus_timestamp) where ((entity_id)::bigint <> 98);

create table custom_fee (
    fixed_fees jsonb,
    fractional_fees jsonb,
    royalty_fees jsonb,
    timestamp_range int8range not null,
    entity_id bigint not null,
    primary key (entity_id)
);

create table custom_fee_history (
    fixed_fees jsonb,
    fractional_fees jsonb,
    royalty_fees jsonb,
    timestamp_range int8range not null,
    entity_id bigint not null
);
create index custom_fee_history__timestamp_range on custom_fee_history using gist (timestamp_range);
create index custom_fee_history__token_id_timestamp_range on custom_fee_history using btree (entity_id, lower(timestamp_range));

create table entity (
    auto_renew_account_id bigint,
    auto_renew_period bigint,
    created_timestamp bigint,
    deleted boolean,
    expiration_timestamp bigint,
    id bigint not null,
    key bytea,
    memo text default ''::text not null,
    num bigint not null,
    public_key character varying,
    proxy_account_id bigint,
    realm bigint not null,
    shard bigint not null,
    receiver_sig_required boolean,
    max_automatic_token_associations integer,
    timestamp_range int8range not null,
    type entity_type default 'UNKNOWN'::entity_type not null,
    alias bytea,
    ethereum_nonce bigint default 0,
    evm_address bytea,
    decline_reward boolean default false not null,
    staked_account_id bigint,
    staked_node_id bigint default '-1'::integer,
    stake_period_start bigint default '-1'::integer,
    obtainer_id bigint,
    permanent_removal boolean,
    balance bigint,
    balance_timestamp bigint,
    delegation_address bytea,
    primary key (id)
);
create index entity__alias on entity using btree (alias) where (alias IS NOT NULL);
create index entity__evm_address on entity using btree (evm_address) where (evm_address IS NOT NULL);
create index entity__public_key_type on entity using btree (public_key, type) where (public_key IS NOT NULL);
create index entity__type_id on entity using btree (type, id);

create table entity_history (
    auto_renew_account_id bigint,
    auto_renew_period bigint,
    created_timestamp bigint,
    deleted boolean,
    expiration_timestamp bigint,
    id bigint not null,
    key bytea,
    memo text default ''::text not null,
    num bigint not null,
    public_key character varying,
    proxy_account_id bigint,
    realm bigint not null,
    shard bigint not null,
    receiver_sig_required boolean,
    max_automatic_token_associations integer,
    timestamp_range int8range not null,
    type entity_type default 'UNKNOWN'::entity_type not null,
    alias bytea,
    ethereum_nonce bigint default 0,
    evm_address bytea,
    decline_reward boolean default false not null,
    staked_account_id bigint,
    staked_node_id bigint default '-1'::integer,
    stake_period_start bigint default '-1'::integer,
    obtainer_id bigint,
    permanent_removal boolean,
    balance bigint,
    balance_timestamp bigint,
    delegation_address bytea
);
create index entity_history__alias on entity_history using btree (alias) where (alias IS NOT NULL);
create index entity_history__evm_address on entity_history using btree (evm_address) where (evm_address IS NOT NULL);
create index entity_history__id_lower_timestamp on entity_history using btree (id, lower(timestamp_range));
create index entity_history__timestamp_range on entity_history using gist (timestamp_range);

create table entity_stake (
    end_stake_period bigint not null,
    id bigint not null,
    pending_reward bigint not null,
    staked_node_id_start bigint not null,
    staked_to_me bigint not null,
    stake_total_start bigint not null,
    timestamp_range int8range not null,
    primary key (id)
);

create table entity_stake_history (
    end_stake_period bigint not null,
    id bigint not null,
    pending_reward bigint not null,
    staked_node_id_start bigint not null,
    staked_to_me bigint not null,
    stake_total_start bigint not null,
    timestamp_range int8range not null
);
create index entity_stake_history__id_lower_timestamp on entity_stake_history using btree (id, lower(timestamp_range));
create index entity_stake_history__timestamp_range on entity_stake_history using gist (timestamp_range);

create table entity_transaction (
    consensus_timestamp bigint not null,
    entity_id bigint not null,
    payer_account_id bigint not null,
    result smallint not null,
    type smallint not null,
    primary key (entity_id, consensus_timestamp)
);

create table ethereum_transaction (
    call_data_id bigint,
    call_data bytea,
    chain_id bytea,
    consensus_timestamp bigint not null,
    data bytea not null,
    gas_limit bigint not null,
    gas_price bytea,
    hash bytea not null,
    max_fee_per_gas bytea,
    max_gas_allowance bigint not null,
    max_priority_fee_per_gas bytea,
    nonce bigint not null,
    payer_account_id bigint not null,
    recovery_id smallint,
    signature_r bytea not null,
    signature_s bytea not null,
    signature_v bytea,
    to_address bytea,
    type smallint not null,
    value bytea,
    authorization_list jsonb,
    access_list jsonb,
    primary key (consensus_timestamp)
);

create table file_data (
    file_data bytea,
    consensus_timestamp nanos_timestamp not null,
    entity_id entity_id not null,
    transaction_type smallint not null,
    primary key (consensus_timestamp)
);
create index file_data__id_timestamp on file_data using btree (entity_id, consensus_timestamp);

create table hook (
    contract_id bigint,
    created_timestamp bigint,
    hook_id bigint not null,
    owner_id bigint not null,
    timestamp_range int8range,
    extension_point hook_extension_point default 'ACCOUNT_ALLOWANCE_HOOK'::hook_extension_point not null,
    deleted boolean default false not null,
    admin_key bytea,
    type hook_type default 'EVM'::hook_type not null,
    primary key (owner_id, hook_id)
);

create table hook_history (
    contract_id bigint,
    created_timestamp bigint,
    hook_id bigint not null,
    owner_id bigint not null,
    timestamp_range int8range,
    extension_point hook_extension_point default 'ACCOUNT_ALLOWANCE_HOOK'::hook_extension_point not null,
    deleted boolean default false not null,
    admin_key bytea,
    type hook_type default 'EVM'::hook_type not null
);

create table hook_storage (
    created_timestamp bigint not null,
    hook_id bigint not null,
    modified_timestamp bigint not null,
    owner_id bigint not null,
    key bytea not null,
    value bytea not null,
    deleted boolean default false not null,
    primary key (owner_id, hook_id, key)
);

create table hook_storage_change (
    consensus_timestamp bigint not null,
    hook_id bigint not null,
    owner_id bigint not null,
    key bytea not null,
    value_read bytea not null,
    value_written bytea,
    deleted boolean default false not null,
    primary key (owner_id, hook_id, key, consensus_timestamp)
);

create table ledger (
    consensus_timestamp bigint not null,
    history_proof_verification_key bytea not null,
    ledger_id bytea not null,
    node_contributions jsonb not null,
    primary key (ledger_id)
);

create table live_hash (
    livehash bytea,
    consensus_timestamp nanos_timestamp not null,
    primary key (consensus_timestamp)
);

create table network_freeze (
    consensus_timestamp bigint not null,
    end_time bigint,
    file_hash bytea not null,
    file_id bigint,
    payer_account_id bigint not null,
    start_time bigint not null,
    type smallint not null,
    primary key (consensus_timestamp)
);

create table network_stake (
    consensus_timestamp bigint not null,
    epoch_day bigint not null,
    max_staking_reward_rate_per_hbar bigint not null,
    node_reward_fee_denominator bigint not null,
    node_reward_fee_numerator bigint not null,
    stake_total bigint not null,
    staking_period bigint not null,
    staking_period_duration bigint not null,
    staking_periods_stored bigint not null,
    staking_reward_fee_denominator bigint not null,
    staking_reward_fee_numerator bigint not null,
    staking_reward_rate bigint not null,
    staking_start_threshold bigint not null,
    max_stake_rewarded bigint default 0 not null,
    max_total_reward bigint default 0 not null,
    reserved_staking_rewards bigint default 0 not null,
    reward_balance_threshold bigint default 0 not null,
    unreserved_staking_reward_balance bigint default 0 not null,
    primary key (consensus_timestamp)
);

create table nft (
    account_id bigint,
    created_timestamp bigint,
    deleted boolean default false,
    metadata bytea,
    serial_number bigint not null,
    token_id bigint not null,
    delegating_spender bigint,
    spender bigint,
    timestamp_range int8range not null,
    primary key (token_id, serial_number)
);
create index nft__account_token_serialnumber on nft using btree (account_id, token_id, serial_number);
create index nft__allowance on nft using btree (account_id, spender, token_id, serial_number) where ((account_id IS NOT NULL) AND (spender IS NOT NULL));

create table nft_allowance (
    approved_for_all boolean not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    token_id bigint not null,
    primary key (owner, spender, token_id)
);
create index nft_allowance__spender_owner_token on nft_allowance using btree (spender, owner, token_id);

create table nft_allowance_history (
    approved_for_all boolean not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    token_id bigint not null
);
create index nft_allowance_history__owner_spender_token_lower_timestamp on nft_allowance_history using btree (owner, spender, token_id, lower(timestamp_range));
create index nft_allowance_history__timestamp_range on nft_allowance_history using gist (timestamp_range);

create table nft_history (
    account_id bigint,
    created_timestamp bigint,
    deleted boolean default false,
    metadata bytea,
    serial_number bigint not null,
    token_id bigint not null,
    delegating_spender bigint,
    spender bigint,
    timestamp_range int8range not null
);
create index nft_history__account_timestamp_range on nft_history using gist (account_id, timestamp_range);
create index nft_history__token_serial_lower_timestamp on nft_history using btree (token_id, serial_number, lower(timestamp_range));

create table node (
    admin_key bytea,
    created_timestamp bigint,
    deleted boolean default false not null,
    node_id bigint not null,
    timestamp_range int8range not null,
    decline_reward boolean default false not null,
    grpc_proxy_endpoint jsonb,
    account_id bigint,
    associated_registered_nodes bigint[],
    primary key (node_id)
);

create table node_history (
    admin_key bytea,
    created_timestamp bigint,
    deleted boolean default false not null,
    node_id bigint not null,
    timestamp_range int8range not null,
    decline_reward boolean default false not null,
    grpc_proxy_endpoint jsonb,
    account_id bigint,
    associated_registered_nodes bigint[]
);
create index node_history__node_id_lower_timestamp on node_history using btree (node_id, lower(timestamp_range));

create table node_stake (
    consensus_timestamp bigint not null,
    epoch_day bigint not null,
    node_id bigint not null,
    reward_rate bigint not null,
    stake bigint not null,
    stake_rewarded bigint not null,
    staking_period bigint not null,
    max_stake bigint not null,
    min_stake bigint not null,
    stake_not_rewarded bigint not null,
    primary key (consensus_timestamp, node_id)
);
create index node_stake__epoch_day on node_stake using btree (epoch_day);

create table non_fee_transfer (
    entity_id entity_id,
    consensus_timestamp nanos_timestamp not null,
    amount hbar_tinybars not null,
    payer_account_id bigint not null,
    is_approval boolean
);
create index non_fee_transfer__consensus_timestamp on non_fee_transfer using btree (consensus_timestamp);

create table prng (
    consensus_timestamp bigint not null,
    range integer not null,
    prng_bytes bytea,
    prng_number integer,
    payer_account_id bigint not null,
    primary key (consensus_timestamp)
);

create table reconciliation_job (
    consensus_timestamp bigint not null,
    count bigint not null,
    error text default ''::text not null,
    timestamp_end timestamp with time zone,
    timestamp_start timestamp with time zone not null,
    status smallint not null,
    primary key (timestamp_start)
);

create table record_file (
    name character varying(250) not null,
    load_start bigint not null,
    load_end bigint not null,
    hash character varying(96) not null,
    prev_hash character varying(96) not null,
    consensus_start bigint not null,
    consensus_end bigint not null,
    count bigint not null,
    digest_algorithm integer not null,
    hapi_version_major integer,
    hapi_version_minor integer,
    hapi_version_patch integer,
    version integer not null,
    file_hash character varying(96) not null,
    bytes bytea,
    index bigint not null,
    gas_used bigint default '-1'::integer,
    logs_bloom bytea,
    size integer,
    sidecar_count integer default 0 not null,
    software_version_major integer,
    software_version_minor integer,
    software_version_patch integer,
    round_start bigint,
    round_end bigint,
    previous_wrapped_record_block_hash bytea,
    wrapped_record_block_hash bytea,
    receipts_root bytea,
    primary key (consensus_end)
);
create index record_file__hash on record_file using btree (hash COLLATE "C");
create index record_file__index on record_file using btree (index);

create table registered_node (
    admin_key bytea,
    created_timestamp bigint,
    deleted boolean default false not null,
    description character varying(100),
    registered_node_id bigint not null,
    service_endpoints jsonb,
    timestamp_range int8range not null,
    type smallint[] default '{}'::smallint[] not null,
    primary key (registered_node_id)
);
create index registered_node__type on registered_node using gin (type) where (deleted IS FALSE);

create table registered_node_history (
    admin_key bytea,
    created_timestamp bigint,
    deleted boolean default false not null,
    description character varying(100),
    registered_node_id bigint not null,
    service_endpoints jsonb,
    timestamp_range int8range not null,
    type smallint[] default '{}'::smallint[] not null
);
create index registered_node_history__node_id_lower_timestamp on registered_node_history using btree (registered_node_id, lower(timestamp_range));

create table schedule (
    consensus_timestamp bigint not null,
    creator_account_id bigint not null,
    executed_timestamp bigint,
    payer_account_id bigint not null,
    schedule_id bigint not null,
    transaction_body bytea not null,
    expiration_time bigint,
    wait_for_expiry boolean default false not null,
    primary key (schedule_id)
);
create index schedule__creator_account_id on schedule using btree (creator_account_id DESC);

create table sidecar_file (
    bytes bytea,
    count integer,
    consensus_end bigint not null,
    hash_algorithm integer not null,
    hash bytea not null,
    id integer not null,
    name character varying(250) not null,
    size integer,
    types integer[] not null,
    primary key (consensus_end, id)
);

create table staking_reward_transfer (
    account_id bigint not null,
    amount bigint not null,
    consensus_timestamp bigint not null,
    payer_account_id bigint not null,
    primary key (consensus_timestamp, account_id)
);
create index staking_reward_transfer__account_timestamp on staking_reward_transfer using btree (account_id, consensus_timestamp);

create table token (
    token_id entity_id not null,
    created_timestamp bigint not null,
    decimals bigint not null,
    freeze_default boolean default false not null,
    freeze_key bytea,
    initial_supply bigint not null,
    kyc_key bytea,
    name character varying(100) not null,
    supply_key bytea,
    symbol character varying(100) not null,
    total_supply bigint default 0 not null,
    treasury_account_id entity_id not null,
    wipe_key bytea,
    max_supply bigint default '9223372036854775807'::bigint not null,
    supply_type token_supply_type default 'INFINITE'::token_supply_type not null,
    type token_type default 'FUNGIBLE_COMMON'::token_type not null,
    fee_schedule_key bytea,
    pause_key bytea,
    pause_status token_pause_status default 'NOT_APPLICABLE'::token_pause_status not null,
    timestamp_range int8range not null,
    freeze_status smallint not null,
    kyc_status smallint not null,
    metadata bytea,
    metadata_key bytea,
    primary key (token_id)
);
create index token__name on token using gin (name gin_trgm_ops);

create table token_account (
    account_id bigint not null,
    associated boolean default false not null,
    automatic_association boolean,
    created_timestamp bigint,
    freeze_status smallint,
    kyc_status smallint,
    timestamp_range int8range not null,
    token_id bigint not null,
    balance bigint default 0 not null,
    balance_timestamp bigint,
    primary key (account_id, token_id)
);
create index token_account__token_id_account_id on token_account using btree (token_id, account_id);

create table token_account_history (
    account_id bigint not null,
    associated boolean default false not null,
    automatic_association boolean,
    created_timestamp bigint,
    freeze_status smallint,
    kyc_status smallint,
    timestamp_range int8range not null,
    token_id bigint not null,
    balance bigint default 0 not null,
    balance_timestamp bigint
);
create index token_account_history__account_token_lower_timestamp on token_account_history using btree (account_id, token_id, lower(timestamp_range));
create index token_account_history__timestamp_range on token_account_history using gist (timestamp_range);

create table token_airdrop (
    amount bigint,
    receiver_account_id bigint not null,
    sender_account_id bigint not null,
    serial_number bigint not null,
    state airdrop_state default 'PENDING'::airdrop_state not null,
    timestamp_range int8range not null,
    token_id bigint not null
);
create index token_airdrop__receiver_id on token_airdrop using btree (receiver_account_id, sender_account_id, token_id, serial_number);
create unique index token_airdrop__sender_id on token_airdrop using btree (sender_account_id, receiver_account_id, token_id, serial_number);

create table token_airdrop_history (
    amount bigint,
    receiver_account_id bigint not null,
    sender_account_id bigint not null,
    serial_number bigint not null,
    state airdrop_state default 'PENDING'::airdrop_state not null,
    timestamp_range int8range not null,
    token_id bigint not null
);
create index token_airdrop_history__timestamp_range on token_airdrop_history using gist (timestamp_range);

create table token_allowance (
    amount_granted bigint not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    token_id bigint not null,
    amount bigint default 0 not null,
    primary key (owner, spender, token_id)
);

create table token_allowance_history (
    amount_granted bigint not null,
    owner bigint not null,
    payer_account_id bigint not null,
    spender bigint not null,
    timestamp_range int8range not null,
    token_id bigint not null,
    amount bigint default 0 not null
);
create index token_allowance_history__owner_spender_token_lower_timestamp on token_allowance_history using btree (owner, spender, token_id, lower(timestamp_range));
create index token_allowance_history__timestamp_range on token_allowance_history using gist (timestamp_range);

create table token_balance (
    consensus_timestamp bigint not null,
    account_id entity_id not null,
    balance bigint not null,
    token_id entity_id not null,
    primary key (account_id, token_id, consensus_timestamp)
) partition by range (consensus_timestamp);
create index token_balance__token_account_timestamp on token_balance using btree (token_id, account_id, consensus_timestamp);

create table token_balance_old (
    consensus_timestamp bigint not null,
    account_id entity_id not null,
    balance bigint not null,
    token_id entity_id not null,
    primary key (consensus_timestamp, account_id, token_id)
);

create table token_history (
    token_id entity_id not null,
    created_timestamp bigint not null,
    decimals bigint not null,
    freeze_default boolean default false not null,
    freeze_key bytea,
    initial_supply bigint not null,
    kyc_key bytea,
    name character varying(100) not null,
    supply_key bytea,
    symbol character varying(100) not null,
    total_supply bigint default 0 not null,
    treasury_account_id entity_id not null,
    wipe_key bytea,
    max_supply bigint default '9223372036854775807'::bigint not null,
    supply_type token_supply_type default 'INFINITE'::token_supply_type not null,
    type token_type default 'FUNGIBLE_COMMON'::token_type not null,
    fee_schedule_key bytea,
    pause_key bytea,
    pause_status token_pause_status default 'NOT_APPLICABLE'::token_pause_status not null,
    timestamp_range int8range not null,
    freeze_status smallint not null,
    kyc_status smallint not null,
    metadata bytea,
    metadata_key bytea
);
create index token_history__timestamp_range on token_history using gist (timestamp_range);
create index token_history__token_id_timestamp_range on token_history using btree (token_id, lower(timestamp_range));

create table token_transfer (
    token_id entity_id not null,
    account_id entity_id not null,
    consensus_timestamp bigint not null,
    amount hbar_tinybars not null,
    payer_account_id bigint not null,
    is_approval boolean
);
create index token_transfer__account_timestamp on token_transfer using btree (account_id, consensus_timestamp DESC);
create index token_transfer__token_account_timestamp on token_transfer using btree (consensus_timestamp DESC, token_id DESC, account_id DESC);

create table topic (
    admin_key bytea,
    created_timestamp bigint,
    id bigint not null,
    fee_exempt_key_list bytea,
    fee_schedule_key bytea,
    submit_key bytea,
    timestamp_range int8range not null,
    primary key (id)
);

create table topic_history (
    admin_key bytea,
    created_timestamp bigint,
    id bigint not null,
    fee_exempt_key_list bytea,
    fee_schedule_key bytea,
    submit_key bytea,
    timestamp_range int8range not null
);
create index topic_history__id_lower_timestamp_range on topic_history using btree (id, lower(timestamp_range));
create index topic_history__timestamp_range on topic_history using gist (timestamp_range);

create table topic_message (
    consensus_timestamp nanos_timestamp not null,
    message bytea not null,
    running_hash bytea not null,
    sequence_number bigint not null,
    running_hash_version smallint,
    chunk_num integer,
    chunk_total integer,
    payer_account_id entity_id,
    valid_start_timestamp nanos_timestamp,
    topic_id bigint not null,
    initial_transaction_id bytea
);
create unique index topic_message__topic_id_seqnum on topic_message using btree (topic_id, sequence_number);
create index topic_message__topic_id_timestamp on topic_message using btree (topic_id, consensus_timestamp);

create table topic_message_lookup (
    partition text not null,
    sequence_number_range int8range not null,
    timestamp_range int8range not null,
    topic_id bigint not null,
    primary key (topic_id, partition)
);

create table transaction (
    consensus_timestamp bigint not null,
    type smallint not null,
    result smallint not null,
    payer_account_id entity_id not null,
    valid_start_ns bigint not null,
    valid_duration_seconds bigint,
    node_account_id entity_id,
    entity_id entity_id,
    initial_balance bigint default 0,
    max_fee hbar_tinybars,
    charged_tx_fee bigint,
    memo bytea,
    transaction_hash bytea,
    transaction_bytes bytea,
    scheduled boolean default false not null,
    nonce integer default 0 not null,
    parent_consensus_timestamp bigint,
    errata errata_type,
    index integer,
    nft_transfer jsonb,
    itemized_transfer jsonb,
    transaction_record_bytes bytea,
    max_custom_fees bytea[],
    batch_key bytea,
    inner_transactions bigint[],
    high_volume boolean default false not null,
    congestion_pricing_multiplier bigint,
    high_volume_pricing_multiplier bigint,
    primary key (consensus_timestamp)
);
create index transaction__payer_account_id_consensus_ns on transaction using btree (payer_account_id, consensus_timestamp);
create index transaction__transaction_id on transaction using btree (valid_start_ns, payer_account_id);
create index transaction__type_consensus_timestamp on transaction using btree (type, consensus_timestamp);

create table transaction_hash (
    consensus_timestamp bigint not null,
    hash bytea not null,
    payer_account_id bigint,
    hash_suffix bytea
) partition by list (mod(get_byte(hash, 0), 32));
create index transaction_hash__hash on transaction_hash using hash (SUBSTRING(hash FROM 1 FOR 32));

create table transaction_signature (
    consensus_timestamp bigint not null,
    public_key_prefix bytea not null,
    entity_id bigint,
    signature bytea not null,
    type smallint
);
create index transaction_signature__entity_id on transaction_signature using btree (entity_id DESC, consensus_timestamp DESC);

do $$
declare
    year integer;
    part integer;
    table_name text;
begin
    for year in 1970..2040 loop
        foreach table_name in array array['account_balance', 'token_balance'] loop
            execute format(
                'create table %1$I partition of %2$I for values from (%3$s) to (%4$s)',
                table_name || '_p' || year, table_name,
                extract(epoch from make_date(year, 1, 1))::bigint * 1000000000,
                extract(epoch from make_date(year + 1, 1, 1))::bigint * 1000000000);
        end loop;
    end loop;
    for part in 0..31 loop
        execute format(
            'create table transaction_hash_%1$s partition of transaction_hash for values in (%2$s)',
            to_char(part, 'fm00'), part);
    end loop;
end
$$;

-- The transactions whose hash starts with the given one's first 32 bytes (the full hash is returned:
-- the caller compares it); only the partition of the hash's first byte is read.
create function get_transaction_info_by_hash(bytea)
returns table (consensus_timestamp bigint, hash bytea, payer_account_id bigint)
language sql stable
as $$
    select t.consensus_timestamp, t.hash || coalesce(t.hash_suffix, ''::bytea), t.payer_account_id
    from transaction_hash t
    where mod(get_byte(t.hash, 0), 32) = mod(get_byte($1, 0), 32)
      and substring(t.hash from 1 for 32) = substring($1 from 1 for 32)
$$;
