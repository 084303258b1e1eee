"""The statements `mirror.MirrorReader` reads EVM state with; every value is a bound parameter
(`{condition}` in the entity statements is one of the reader's own fixed conditions)."""

ENTITY_COLUMNS = (
    "e.id, e.type::text, e.balance, e.ethereum_nonce, e.evm_address, e.delegation_address, c.runtime_bytecode"
)
ENTITY_LATEST = f"""
    select {ENTITY_COLUMNS}
    from entity e left join contract c on c.id = e.id
    where {{condition}} and e.deleted is not true
    limit 1
"""
# The version in force at %(ts)s: the current row if it began by then, else the history row covering it.
ENTITY_AT = f"""
    select {ENTITY_COLUMNS}
    from (
        select id, type, balance, ethereum_nonce, evm_address, delegation_address, deleted, timestamp_range
        from entity e where {{condition}} and lower(e.timestamp_range) <= %(ts)s
        union all
        select id, type, balance, ethereum_nonce, evm_address, delegation_address, deleted, timestamp_range
        from entity_history e where {{condition}} and e.timestamp_range @> %(ts)s::bigint
    ) e left join contract c on c.id = e.id
    where e.deleted is not true
    order by lower(e.timestamp_range) desc
    limit 1
"""
# The balance snapshot in force at %(ts)s: the treasury's latest within the window.
SNAPSHOT = """
    with snapshot as (
        select max(consensus_timestamp) as ts from account_balance
        where account_id = %(treasury)s and consensus_timestamp between %(ts)s - %(window)s and %(ts)s
    )
"""
BALANCE_AT = SNAPSHOT + """
    select coalesce((
        select balance from account_balance, snapshot
        where account_id = %(id)s and consensus_timestamp = snapshot.ts
    ), 0) + coalesce((
        select sum(amount) from crypto_transfer, snapshot
        where entity_id = %(id)s and consensus_timestamp > coalesce(snapshot.ts, -1)
          and consensus_timestamp <= %(ts)s and (errata is null or errata <> 'DELETE')
    ), 0)
"""
TOKEN_BALANCE_AT = SNAPSHOT + """
    select coalesce((
        select balance from token_balance, snapshot
        where account_id = %(id)s and token_id = %(token)s and consensus_timestamp = snapshot.ts
    ), 0) + coalesce((
        select sum(amount) from token_transfer, snapshot
        where account_id = %(id)s and token_id = %(token)s
          and consensus_timestamp > coalesce(snapshot.ts, -1) and consensus_timestamp <= %(ts)s
    ), 0)
"""
TOKEN_BALANCE_LATEST = """
    select balance from token_account where account_id = %(id)s and token_id = %(token)s and associated
"""
TOKEN_COLUMNS = """
    t.token_id, t.name, t.symbol, t.decimals, t.total_supply, t.max_supply, t.supply_type::text,
    t.freeze_default, t.treasury_account_id, e.memo, e.deleted, t.kyc_key is not null,
    t.pause_status::text, e.expiration_timestamp, e.auto_renew_account_id, e.auto_renew_period
"""
TOKEN_FIELDS = (
    "token_id name symbol decimals total_supply max_supply supply_type freeze_default treasury memo deleted "
    "has_kyc_key pause_status expiration auto_renew_account auto_renew_period"
).split()
TOKEN_LATEST = f"select {TOKEN_COLUMNS} from token t join entity e on e.id = t.token_id where t.token_id = %(token)s"
# The token's version in force at %(ts)s; its entity's memo and expiry are the latest.
TOKEN_AT = f"""
    select {TOKEN_COLUMNS}
    from (
        select * from token where token_id = %(token)s and lower(timestamp_range) <= %(ts)s
        union all
        select * from token_history where token_id = %(token)s and timestamp_range @> %(ts)s::bigint
    ) t join entity e on e.id = t.token_id
    order by lower(t.timestamp_range) desc
    limit 1
"""
TOKEN_ALLOWANCE = """
    select amount from token_allowance where owner = %s and spender = %s and token_id = %s
"""
STORAGE_LATEST = "select value from contract_state where contract_id = %s and slot = %s"
STORAGE_AT = """
    select coalesce(value_written, value_read) from contract_state_change
    where contract_id = %s and slot = %s and consensus_timestamp <= %s
    order by consensus_timestamp desc
    limit 1
"""
BLOCK_COLUMNS = "index, hash, consensus_start, consensus_end"

BLOCK_LATEST = f"select {BLOCK_COLUMNS} from record_file order by consensus_end desc limit 1"
BLOCK_EARLIEST = f"select {BLOCK_COLUMNS} from record_file order by index asc limit 1"
BLOCK_BY_NUMBER = f"select {BLOCK_COLUMNS} from record_file where index = %s"
BLOCK_BY_HASH_PREFIX = f"select {BLOCK_COLUMNS} from record_file where hash like %s limit 1"
# The block whose range holds the timestamp.
BLOCK_AT = f"select {BLOCK_COLUMNS} from record_file where consensus_end >= %s order by consensus_end limit 1"
