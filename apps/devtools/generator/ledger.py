"""A synthetic, consistent ledger, written by PostgreSQL itself, deterministic for a seed.

The layout is arithmetic, so a benchmark can name existing ids without asking
the database: system accounts (0.0.2 treasury, 0.0.3-0.0.9 nodes, 0.0.98 fee
collector, 0.0.800 staking reward account), then `accounts` accounts from
0.0.1001, then fungible tokens, NFT tokens, topics, contracts, and one schedule
per schedule-create transaction. Transaction `i` reaches consensus at
`start + i * SPACING_NS`, has kind `KINDS[i % 100]`, and every `BLOCK_SIZE`
transactions make one record file.

Every row is an `INSERT ... SELECT` over `generate_series`: each value is a
function of the row's number and the seed (`hashint8extended` for draws,
`sha256`/`sha384` for bytes), never of what was generated before, so a range
of transactions can be written by any connection in any order and the same
seed gives the same rows. What depends on history follows in closed form: the
sender of an NFT is the receiver of that serial's previous transfer, a
contract slot's value read is the one its previous call wrote, a block's
previous hash is the hash of the block before. Balances are aggregated from
the written transfers afterwards: three complete balance snapshots (before the
first transaction, half way, after the last) hold every account's balance and
token balances at that instant; `entity.balance` and `token_account.balance`
hold the final ones. Transfers balance (the payer pays amount and fee; the
node and 0.0.98 share the fee).
"""

from dataclasses import dataclass

SPACING_NS = 20_000_000
BLOCK_SIZE = 100
# Transactions per INSERT: small enough for a lively progress bar and an even share among connections.
CHUNK = 250_000
START_NS = 1_788_220_800 * 10**9  # 2026-09-01T00:00:00Z
TREASURY, FEE_COLLECTOR, STAKING_REWARD_ACCOUNT = 2, 98, 800
NODE_ACCOUNTS = tuple(range(3, 10))
FIRST_ACCOUNT = 1001
TOTAL_SUPPLY = 5_000_000_000 * 10**8
NFT_SERIALS = 100
STATE_SLOTS = 16
# Accounts 0.0.N with N % 100 = 20 own hooks 1..HOOKS_PER_OWNER, each with HOOK_SLOTS storage
# slots written HOOK_WRITES times over the ledger (see `LedgerSql._hooks`).
HOOK_OWNER_MODULUS, HOOK_OWNER_REMAINDER = 100, 20
HOOKS_PER_OWNER, HOOK_SLOTS, HOOK_WRITES = 3, 32, 2

CONTRACT_CALL, CRYPTO_TRANSFER, SUBMIT_MESSAGE, SCHEDULE_CREATE = 7, 14, 27, 42
SUCCESS, INSUFFICIENT_ACCOUNT_BALANCE = 22, 28

# One hundred transaction slots: transaction i has kind KINDS[i % 100].
_KIND_WEIGHTS = {
    "crypto": 55,
    "reward": 3,
    "failed": 3,
    "token": 12,
    "nft": 5,
    "message": 12,
    "contract": 8,
    "schedule": 2,
}
KINDS = tuple(
    kind for step in range(max(_KIND_WEIGHTS.values())) for kind, weight in _KIND_WEIGHTS.items() if step < weight
)
assert len(KINDS) == 100

TRANSFER_TOPIC = "'\\xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'::bytea"
ZERO_BLOOM = "'\\x" + "00" * 256 + "'::bytea"


_KINDS_BEFORE_SLOT = {
    kind: [sum(1 for slot in KINDS[:offset] if slot == kind) for offset in range(len(KINDS) + 1)]
    for kind in _KIND_WEIGHTS
}


def count_before(kind: str, index: int) -> int:
    """How many transactions of `kind` come before transaction `index`."""
    cycles, offset = divmod(index, len(KINDS))
    return cycles * _KIND_WEIGHTS[kind] + _KINDS_BEFORE_SLOT[kind][offset]


@dataclass(frozen=True)
class Layout:
    """The ids and instants of a ledger of a given size: what URLs may name."""

    transactions: int
    accounts: int
    seed: int = 1

    @property
    def fungible_tokens(self) -> int:
        return max(4, self.accounts // 1000)

    @property
    def nft_tokens(self) -> int:
        return max(2, self.accounts // 5000)

    @property
    def topics(self) -> int:
        return max(4, self.accounts // 2000)

    @property
    def contracts(self) -> int:
        return max(4, self.accounts // 2000)

    @property
    def registered_nodes(self) -> int:
        """Registered nodes 0..n-1: node n has one endpoint of type n % 4 + 1 (block node, general
        service, mirror node, RPC relay); every tenth (n % 10 = 9) is deleted."""
        return max(20, self.accounts // 1000)

    @property
    def first_fungible_token(self) -> int:
        return FIRST_ACCOUNT + self.accounts

    @property
    def first_nft_token(self) -> int:
        return self.first_fungible_token + self.fungible_tokens

    @property
    def first_topic(self) -> int:
        return self.first_nft_token + self.nft_tokens

    @property
    def first_contract(self) -> int:
        return self.first_topic + self.topics

    @property
    def first_schedule(self) -> int:
        return self.first_contract + self.contracts

    @property
    def schedules(self) -> int:
        return count_before("schedule", self.transactions)

    @property
    def starting_balance(self) -> int:
        """Of the first account (each next one has 1000 more): at most a quarter of the supply goes
        to the accounts, so the treasury stays the richest."""
        return min(10**13, TOTAL_SUPPLY // (4 * self.accounts))

    @property
    def blocks(self) -> int:
        return -(-self.transactions // BLOCK_SIZE)

    @property
    def created_ns(self) -> int:
        """When every entity was created: a minute before the first transaction."""
        return START_NS - 60 * 10**9

    def timestamp(self, index: int) -> int:
        return START_NS + index * SPACING_NS

    def snapshot_points(self) -> tuple[int, ...]:
        """Transaction indexes that balance snapshots are taken before (the last: after all)."""
        return tuple(sorted({0, self.transactions // 2, self.transactions}))

    def snapshot_timestamp(self, point: int) -> int:
        return self.timestamp(point) - SPACING_NS // 2

    def account(self, position: int) -> int:
        return FIRST_ACCOUNT + position % self.accounts

    def fungible_holders(self, token: int) -> int:
        """Accounts at positions token, token + F, token + 2F, ... hold fungible token `token` (0-based);
        an NFT's holders are spread alike over the NFT tokens."""
        return max(1, (self.accounts - token + self.fungible_tokens - 1) // self.fungible_tokens)


# The tables the generator writes.
TABLES = (
    "transaction", "transaction_hash", "crypto_transfer", "token_transfer", "staking_reward_transfer",
    "record_file", "topic_message", "contract_result", "contract_log", "contract_state_change",
    "contract_transaction", "contract_transaction_hash", "schedule", "transaction_signature", "entity",
    "entity_stake", "account_balance", "token_balance", "token", "custom_fee", "token_account", "nft", "topic",
    "contract", "contract_state", "crypto_allowance", "token_allowance", "registered_node",
    "hook", "hook_storage", "hook_storage_change",
)

# Draw streams: each drawn value of a row has its own, so no two values share a draw.
(PAYER, FEE, RECEIVER, AMOUNT, REWARD, TOKEN, TOKEN_SENDER, TOKEN_RECEIVER, TOKEN_AMOUNT, NFT_RECEIVER, GAS,
 TRANSACTION_HASH, MESSAGE, RUNNING_HASH, PARAMETERS, CALL_RESULT, LOG_DATA, STATE_VALUE, BLOCK_HASH, FILE_HASH,
 KEY, EVM_ADDRESS) = range(22)
STREAMS = 64
# The values written to hook storage: a stream apart from the transactions' above.
HOOK_VALUE = 48

ZERO_WORD_PREFIX = "'\\x" + "00" * 24 + "'::bytea"
ZERO_WORD = "'\\x" + "00" * 32 + "'::bytea"
ZERO_SIGNATURE = "'\\x" + "00" * 64 + "'::bytea"


def _int_array(values) -> str:
    return "'{" + ",".join(str(value) for value in values) + "}'::int[]"


_SLOT_KIND = "'{" + ",".join(KINDS) + "}'::text[]"
_SLOT_WEIGHT = _int_array(_KIND_WEIGHTS[kind] for kind in KINDS)
_SLOT_RANK = _int_array(_KINDS_BEFORE_SLOT[kind][slot] for slot, kind in enumerate(KINDS))
_KIND_SLOTS = {kind: _int_array(slot for slot, other in enumerate(KINDS) if other == kind) for kind in _KIND_WEIGHTS}


@dataclass(frozen=True)
class Job:
    """Statements one connection runs in order (they may share temporary tables); `transactions` it writes."""

    statements: tuple[str, ...]
    transactions: int = 0


class LedgerSql:
    """The ledger as SQL: `chunks()` first (any order, any connection), then `final_jobs()`, which aggregate them.

    Methods taking SQL expressions (`i` a transaction number, `n` the number of a transaction among those of
    its kind) return SQL expressions.
    """

    def __init__(self, layout: Layout, *, chunk: int = CHUNK):
        assert chunk % BLOCK_SIZE == 0, "a chunk holds whole blocks"
        self.layout, self.chunk = layout, chunk

    # Values as functions of a row number.

    def draw(self, number: str, stream: int, bound: int) -> str:
        """A number in [0, bound) drawn for `number` from `stream`."""
        return f"((hashint8extended(({number}) * {STREAMS} + {stream}, {self.layout.seed}) & {2**63 - 1}) % {bound})"

    def random_bytes(self, number: str, stream: int, length: int) -> str:
        function = "sha256" if length <= 32 else "sha384"
        value = f"{function}(int8send(({number}) * {STREAMS} + {stream}) || int8send({self.layout.seed}::bigint))"
        return value if length in (32, 48) else f"substr({value}, 1, {length})"

    def timestamp(self, i: str) -> str:
        return f"({START_NS} + ({i}) * {SPACING_NS}::bigint)"

    def valid_start(self, i: str) -> str:
        return f"({self.timestamp(i)} - 3000000000 - ({i}) % 1000 * 1000)"

    def payer(self, i: str) -> str:
        return f"({FIRST_ACCOUNT} + {self.draw(i, PAYER, self.layout.accounts)})"

    def transaction_hash(self, i: str) -> str:
        return self.random_bytes(i, TRANSACTION_HASH, 48)

    @staticmethod
    def index_of(kind: str, n: str) -> str:
        """The number of the n-th (from 0) transaction of `kind`."""
        weight = _KIND_WEIGHTS[kind]
        return f"(({n}) / {weight} * 100 + ({_KIND_SLOTS[kind]})[({n}) % {weight} + 1])"

    def holder(self, token: str, k: str, tokens: int) -> str:
        """Layout.fungible_holder / nft_holder: the k-th holder of token number `token` of `tokens`."""
        accounts = self.layout.accounts
        holders = f"greatest(1, ({accounts} - ({token}) + {tokens - 1}) / {tokens})"
        return f"({FIRST_ACCOUNT} + (({token}) + {tokens} * (({k}) % {holders})) % {accounts})"

    def public_key(self, account: str) -> str:
        """An account's public key: ECDSA (33 bytes) for those with an EVM address, else ED25519."""
        ed25519 = self.random_bytes(account, KEY, 32)
        return (
            f"(case when {self.has_evm_address(account)} then (case when ({account}) % 2 = 0 then '\\x02'::bytea"
            f" else '\\x03'::bytea end) || {ed25519} else {ed25519} end)"
        )

    @staticmethod
    def has_evm_address(account: str) -> str:
        return f"(({account}) >= {FIRST_ACCOUNT} and (({account}) - {FIRST_ACCOUNT}) % 10 = 3)"

    def nft_transfer(self, n: str) -> str:
        """Columns of the n-th NFT transfer: the serial's sender is the receiver of its previous transfer."""
        layout = self.layout
        tokens, cycle = layout.nft_tokens, layout.nft_tokens * NFT_SERIALS
        receiver = self.holder(f"({n}) % {tokens}", self.draw(self.index_of("nft", n), NFT_RECEIVER, layout.accounts),
                               tokens)
        previous_receiver = self.holder(
            f"({n}) % {tokens}", self.draw(self.index_of("nft", f"({n}) - {cycle}"), NFT_RECEIVER, layout.accounts),
            tokens,
        )
        first_owner = self.holder(f"({n}) % {tokens}", f"(({n}) / {tokens} % {NFT_SERIALS} + 1) * 7919", tokens)
        return (
            f"{layout.first_nft_token} + ({n}) % {tokens} as token_id, ({n}) / {tokens} % {NFT_SERIALS} + 1 as serial,"
            f" case when ({n}) < {cycle} then {first_owner} else {previous_receiver} end as sender,"
            f" {receiver} as receiver, {self.timestamp(self.index_of('nft', n))} as consensus_timestamp"
        )

    def kind_series(self, kind: str, start: int, end: int) -> str:
        """FROM items: `n` over the transactions of `kind` among transactions [start, end), `i` its number."""
        first, last = count_before(kind, start), count_before(kind, end)
        return f"generate_series(({first})::bigint, {last - 1}) n, lateral (select {self.index_of(kind, 'n')} as i) x"

    # The transactions, in chunks.

    def chunks(self) -> list[Job]:
        layout = self.layout
        jobs = []
        for start in range(0, layout.transactions, self.chunk):
            end = min(start + self.chunk, layout.transactions)
            jobs.append(Job((self._transactions(start, end),), end - start))
            jobs.append(Job((self._messages(start, end), self._schedules(start, end), self._blocks(start, end))))
            jobs.append(Job((self._contract_calls(start, end),)))
        return jobs

    def _transactions(self, start: int, end: int) -> str:
        layout = self.layout
        accounts = layout.accounts
        token = self.draw("i", TOKEN, layout.fungible_tokens)
        return f"""
with t as materialized (
    select i, {self.timestamp('i')} as ts, kind, n, {self.payer('i')} as payer,
        50000 + {self.draw('i', FEE, 150_000)} as fee, {self.valid_start('i')} as valid_start,
        3 + i % 7 as node, {self.transaction_hash('i')} as hash,
        case when kind in ('crypto', 'reward') then {FIRST_ACCOUNT} + {self.draw('i', RECEIVER, accounts)} end
            as receiver,
        case when kind in ('crypto', 'reward') then 1 + {self.draw('i', AMOUNT, 10**8)} else 0 end as amount,
        case when kind = 'reward' then 1 + {self.draw('i', REWARD, 10**6)} else 0 end as reward
    from generate_series(({start})::bigint, {end - 1}) i,
        lateral (select ({_SLOT_KIND})[i % 100 + 1] as kind,
            i / 100 * ({_SLOT_WEIGHT})[i % 100 + 1] + ({_SLOT_RANK})[i % 100 + 1] as n) k
), hashes as (
    insert into transaction_hash (consensus_timestamp, hash, payer_account_id, hash_suffix)
    select ts, substr(hash, 1, 32), payer, substr(hash, 33) from t
), hbar as (
    insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select v.account, ts, v.amount, payer, false from t, lateral (values
        (payer, reward - fee - t.amount), (node, fee / 20), ({FEE_COLLECTOR}, fee - fee / 20),
        (receiver, t.amount), (case when kind = 'reward' then {STAKING_REWARD_ACCOUNT} end, -reward)
    ) v(account, amount) where v.account is not null
), rewards as (
    insert into staking_reward_transfer (account_id, amount, consensus_timestamp, payer_account_id)
    select payer, reward, ts, payer from t where kind = 'reward'
), tokens as (
    insert into token_transfer (token_id, account_id, consensus_timestamp, amount, payer_account_id, is_approval)
    select {layout.first_fungible_token} + token, v.account, ts, v.amount, payer, false
    from t, lateral (select {token} as token, 1 + {self.draw('i', TOKEN_AMOUNT, 1000)} as amount) d,
        lateral (values
            ({self.holder('token', self.draw('i', TOKEN_SENDER, accounts), layout.fungible_tokens)}, -d.amount),
            ({self.holder('token', self.draw('i', TOKEN_RECEIVER, accounts), layout.fungible_tokens)}, d.amount)
        ) v(account, amount)
    where kind = 'token'
)
insert into transaction (
    consensus_timestamp, type, result, payer_account_id, valid_start_ns, valid_duration_seconds, node_account_id,
    entity_id, initial_balance, max_fee, charged_tx_fee, transaction_hash, scheduled, nonce, index, nft_transfer
)
select ts,
    case kind when 'message' then {SUBMIT_MESSAGE} when 'contract' then {CONTRACT_CALL}
        when 'schedule' then {SCHEDULE_CREATE} else {CRYPTO_TRANSFER} end,
    case kind when 'failed' then {INSUFFICIENT_ACCOUNT_BALANCE} else {SUCCESS} end,
    payer, valid_start, 120, node,
    case kind when 'message' then {layout.first_topic} + n % {layout.topics}
        when 'contract' then {layout.first_contract} + n % {layout.contracts}
        when 'schedule' then {layout.first_schedule} + n end,
    0, 200000000, fee, hash, false, 0, i % {BLOCK_SIZE},
    case when kind = 'nft' then jsonb_build_array(jsonb_build_object(
        'is_approval', false, 'receiver_account_id', m.receiver, 'sender_account_id', m.sender,
        'serial_number', m.serial, 'token_id', m.token_id)) end
from t left join lateral (select {self.nft_transfer('t.n')} where t.kind = 'nft') m on true
"""

    def _messages(self, start: int, end: int) -> str:
        topics = self.layout.topics
        return f"""
insert into topic_message (
    consensus_timestamp, message, running_hash, sequence_number, running_hash_version, payer_account_id,
    valid_start_timestamp, topic_id
)
select {self.timestamp('i')}, {self.random_bytes('i', MESSAGE, 24)}, {self.random_bytes('i', RUNNING_HASH, 48)},
    n / {topics} + 1, 3, {self.payer('i')}, {self.valid_start('i')}, {self.layout.first_topic} + n % {topics}
from {self.kind_series('message', start, end)}
"""

    def _contract_calls(self, start: int, end: int) -> str:
        layout = self.layout
        contracts, cycle = layout.contracts, layout.contracts * STATE_SLOTS
        previous_value = self.random_bytes(self.index_of("contract", f"n - {cycle}"), STATE_VALUE, 32)
        return f"""
with c as materialized (
    select n, i, {self.timestamp('i')} as ts, {self.payer('i')} as payer,
        {layout.first_contract} + n % {contracts} as contract_id, n / {contracts} % {STATE_SLOTS} as slot,
        21000 + {self.draw('i', GAS, 100_000)} as gas, substr({self.transaction_hash('i')}, 1, 32) as hash,
        {self.random_bytes('i', STATE_VALUE, 32)} as value,
        case when n >= {cycle} then {previous_value} else {ZERO_WORD} end as previous
    from {self.kind_series('contract', start, end)}
), results as (
    insert into contract_result (
        consensus_timestamp, contract_id, payer_account_id, sender_id, function_parameters, gas_limit, gas_used,
        gas_consumed, amount, bloom, call_result, transaction_hash, transaction_index, transaction_result,
        transaction_nonce
    )
    select ts, contract_id, payer, payer, {self.random_bytes('i', PARAMETERS, 36)}, 300000, gas, gas, 0,
        {ZERO_BLOOM}, {self.random_bytes('i', CALL_RESULT, 32)}, hash, i % {BLOCK_SIZE}, {SUCCESS}, 0
    from c
), logs as (
    insert into contract_log (
        consensus_timestamp, index, contract_id, root_contract_id, payer_account_id, bloom, data, topic0, topic1,
        topic2, transaction_hash, transaction_index, synthetic
    )
    select ts, 0, contract_id, contract_id, payer, {ZERO_BLOOM}, {self.random_bytes('i', LOG_DATA, 32)},
        {TRANSFER_TOPIC}, {ZERO_WORD_PREFIX} || int8send(payer), {ZERO_WORD_PREFIX} || int8send(payer), hash,
        i % {BLOCK_SIZE}, false
    from c
), changes as (
    insert into contract_state_change (
        consensus_timestamp, contract_id, payer_account_id, slot, value_read, value_written, migration
    )
    select ts, contract_id, payer, {ZERO_WORD_PREFIX} || int8send(slot), previous, value, false from c
), hashes as (
    insert into contract_transaction_hash (hash, consensus_timestamp, payer_account_id, entity_id, transaction_result)
    select hash, ts, payer, contract_id, {SUCCESS} from c
)
insert into contract_transaction (consensus_timestamp, entity_id, contract_ids, payer_account_id)
select ts, v.entity_id, array[contract_id], payer from c, lateral (values (contract_id), (payer)) v(entity_id)
"""

    def _schedules(self, start: int, end: int) -> str:
        return f"""
with s as materialized (
    select {self.timestamp('i')} as ts, {self.payer('i')} as payer, {self.layout.first_schedule} + n as id
    from {self.kind_series('schedule', start, end)}
), schedules as (
    insert into schedule (
        schedule_id, consensus_timestamp, creator_account_id, payer_account_id, transaction_body, expiration_time,
        wait_for_expiry
    )
    select id, ts, payer, payer, int8send(id) || int8send(id) || int8send(id) || int8send(id),
        ts + 1800000000000, false
    from s
), signatures as (
    insert into transaction_signature (consensus_timestamp, entity_id, public_key_prefix, signature, type)
    select ts, id, substr({self.public_key('payer')}, 1, 4), {ZERO_SIGNATURE}, 3 from s
)
insert into entity (
    id, num, realm, shard, type, created_timestamp, timestamp_range, deleted, memo, staked_node_id,
    stake_period_start, decline_reward, ethereum_nonce
)
select id, id, 0, 0, 'SCHEDULE', ts, int8range(ts, null), false, 'scheduled', -1, -1, false, 0 from s
"""

    def _blocks(self, start: int, end: int) -> str:
        layout = self.layout
        last = layout.transactions - 1
        block_hash = f"encode({self.random_bytes('b', BLOCK_HASH, 48)}, 'hex')"
        previous_hash = f"encode({self.random_bytes('b - 1', BLOCK_HASH, 48)}, 'hex')"
        gas = f"21000 + {self.draw(f'b * {BLOCK_SIZE} + slot', GAS, 100_000)}"
        return f"""
insert into record_file (
    name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end, count, digest_algorithm,
    hapi_version_major, hapi_version_minor, hapi_version_patch, version, file_hash, index, gas_used, size
)
select to_char(to_timestamp(first_ts / 1000000000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24_MI_SS')
        || '.' || lpad((first_ts % 1000000000)::text, 9, '0') || 'Z.rcd.gz',
    last_ts / 1000000000 + 2, last_ts / 1000000000 + 3, {block_hash},
    case when b = 0 then repeat('0', 96) else {previous_hash} end,
    first_ts, last_ts, count, 0, 0, 47, 0, 6, encode({self.random_bytes('b', FILE_HASH, 48)}, 'hex'), b, gas,
    4096 + count * 300
from generate_series(({start // BLOCK_SIZE})::bigint, {(end - 1) // BLOCK_SIZE}) b,
    lateral (select {self.timestamp(f'b * {BLOCK_SIZE}')} as first_ts,
        {self.timestamp(f'least(b * {BLOCK_SIZE} + {BLOCK_SIZE - 1}, {last})')} as last_ts,
        least({BLOCK_SIZE}, {layout.transactions} - b * {BLOCK_SIZE}) as count) x,
    lateral (select coalesce(sum({gas}), 0) as gas from unnest({_KIND_SLOTS['contract']}) slot
        where b * {BLOCK_SIZE} + slot <= {last}) g
"""

    # What the ledger ends with, from what the chunks wrote.

    def final_jobs(self) -> list[Job]:
        return [
            Job(self._accounts()), Job(self._tokens()), Job(self._topics_and_contracts()),
            Job((self._registered_nodes(),)),
            Job(self._hooks()),
        ]

    def _snapshots(self) -> list[int]:
        return [self.layout.snapshot_timestamp(point) for point in self.layout.snapshot_points()]

    def _accounts(self) -> tuple[str, ...]:
        layout = self.layout
        created, accounts = layout.created_ns, layout.accounts
        others = {node: 10**12 for node in NODE_ACCOUNTS} | {STAKING_REWARD_ACCOUNT: 10**16, FEE_COLLECTOR: 0}
        held = accounts * layout.starting_balance + 1000 * accounts * (accounts - 1) // 2 + sum(others.values())
        others[TREASURY] = TOTAL_SUPPLY - held
        snapshots = self._snapshots()
        moved = ", ".join(
            f"sum(amount) filter (where consensus_timestamp < {timestamp}) as moved_{k}"
            for k, timestamp in enumerate(snapshots)
        )
        balances = ", ".join(f"balance + coalesce(moved_{k}, 0) as balance_{k}" for k in range(len(snapshots)))
        final = f"balance_{len(snapshots) - 1}"
        staked = f"(account >= {FIRST_ACCOUNT} and account % 5 = 0)"
        spender = f"{FIRST_ACCOUNT} + (account - {FIRST_ACCOUNT} + 1) % {accounts}"
        public_key = self.public_key("account")
        evm = self.has_evm_address("account")
        return (
            f"""
create temporary table hbar as
with initial (account, balance) as (
    select {FIRST_ACCOUNT} + p, {layout.starting_balance} + p * 1000 from generate_series((0)::bigint, {accounts - 1}) p
    union all values {", ".join(f"({account}, {balance})" for account, balance in sorted(others.items()))}
), moved as (select entity_id as account, {moved} from crypto_transfer group by entity_id)
select account, {balances} from initial left join moved using (account)
""",
            *(
                f"insert into account_balance (consensus_timestamp, balance, account_id)"
                f" select {timestamp}, balance_{k}, account from hbar"
                for k, timestamp in enumerate(snapshots)
            ),
            f"""
insert into entity (
    id, num, realm, shard, type, created_timestamp, timestamp_range, deleted, memo, key, public_key, alias,
    evm_address, balance, balance_timestamp, auto_renew_period, expiration_timestamp,
    max_automatic_token_associations, receiver_sig_required, staked_node_id, stake_period_start, decline_reward,
    ethereum_nonce
)
select account, account, 0, 0, 'ACCOUNT', {created}, int8range({created}, null), false, '',
    case when {evm} then '\\x3a21'::bytea else '\\x1220'::bytea end || public_key, encode(public_key, 'hex'),
    case when {evm} then '\\x3a21'::bytea || public_key end,
    case when {evm} then {self.random_bytes('account', EVM_ADDRESS, 20)} end,
    {final}, {layout.timestamp(layout.transactions - 1)}, 7776000, {created + 7776000 * 10**9}, 10, false,
    case when {staked} then account % 7 else -1 end, case when {staked} then 20000 else -1 end, false, 0
from hbar, lateral (select {public_key} as public_key) k
""",
            f"""
insert into entity_stake (
    id, end_stake_period, pending_reward, staked_node_id_start, staked_to_me, stake_total_start, timestamp_range
)
select account, 20000, account % 1000, -1, 0, 0, int8range({created}, null)
from generate_series(({FIRST_ACCOUNT})::bigint, {FIRST_ACCOUNT + accounts - 1}) account
""",
            f"""
insert into crypto_allowance (owner, spender, amount_granted, amount, payer_account_id, timestamp_range)
select account, {spender}, 1000000000, 1000000000, account, int8range({created}, null)
from generate_series(({FIRST_ACCOUNT})::bigint, {FIRST_ACCOUNT + accounts - 1}) account where account % 20 = 0
""",
            f"""
insert into token_allowance (owner, spender, token_id, amount_granted, amount, payer_account_id, timestamp_range)
select account, {spender}, {layout.first_fungible_token} + (account - {FIRST_ACCOUNT}) % {layout.fungible_tokens},
    1000, 1000, account, int8range({created}, null)
from generate_series(({FIRST_ACCOUNT})::bigint, {FIRST_ACCOUNT + accounts - 1}) account where account % 20 = 0
""",
            "drop table hbar",
        )

    def _tokens(self) -> tuple[str, ...]:
        layout = self.layout
        created = layout.created_ns
        fungible, nfts = layout.fungible_tokens, layout.nft_tokens
        snapshots = self._snapshots()
        columns = ", ".join(
            f"sum(amount) filter (where consensus_timestamp < {timestamp}) as balance_{k},"
            f" bool_or(consensus_timestamp < {timestamp}) as held_{k}"
            for k, timestamp in enumerate(snapshots)
        )
        final = f"balance_{len(snapshots) - 1}"
        most_holders = layout.fungible_holders(0)
        return (
            f"""
create temporary table nft_move as
select {self.nft_transfer('n')} from generate_series((0)::bigint, {count_before('nft', layout.transactions) - 1}) n
""",
            f"""
create temporary table held as
with initial (account, token_id, amount) as (
    select {self.holder('token', 'k', fungible)}, {layout.first_fungible_token} + token, 1000000
    from generate_series((0)::bigint, {fungible - 1}) token, generate_series((0)::bigint, {most_holders - 1}) k
    where k < greatest(1, ({layout.accounts} - token + {fungible - 1}) / {fungible})
    union all
    select {self.holder('token', 'serial * 7919', nfts)}, {layout.first_nft_token} + token, 1
    from generate_series((0)::bigint, {nfts - 1}) token, generate_series((1)::bigint, {NFT_SERIALS}) serial
), moves (account, token_id, consensus_timestamp, amount) as (
    select account, token_id, 0, amount from initial
    union all select account_id, token_id, consensus_timestamp, amount from token_transfer
    union all select sender, token_id, consensus_timestamp, -1 from nft_move
    union all select receiver, token_id, consensus_timestamp, 1 from nft_move
)
select account, token_id, {columns} from moves group by account, token_id
""",
            *(
                f"insert into token_balance (consensus_timestamp, account_id, balance, token_id)"
                f" select {timestamp}, account, balance_{k}, token_id from held where held_{k}"
                for k, timestamp in enumerate(snapshots)
            ),
            f"""
insert into token_account (
    account_id, token_id, associated, automatic_association, created_timestamp, freeze_status, kyc_status,
    timestamp_range, balance, balance_timestamp
)
select account, token_id, true, false, {created}, 0, 0, int8range({created}, null), {final},
    {layout.timestamp(layout.transactions - 1)}
from held
""",
            f"""
insert into token (
    token_id, created_timestamp, decimals, initial_supply, total_supply, max_supply, supply_type, name, symbol,
    treasury_account_id, type, timestamp_range, freeze_status, kyc_status, freeze_default, supply_key, pause_status
)
select token_id, {created}, case when fungible then 2 else 0 end, case when fungible then supply else 0 end,
    supply, 9223372036854775807, 'INFINITE', 'Token ' || token, 'TK' || token,
    {FIRST_ACCOUNT} + token * 13 % {layout.accounts},
    case when fungible then 'FUNGIBLE_COMMON' else 'NON_FUNGIBLE_UNIQUE' end::token_type,
    int8range({created}, null), 0, 0, false, {self._entity_key('token_id')}, 'NOT_APPLICABLE'
from (select token_id, sum({final}) as supply from held group by token_id) supplies,
    lateral (select token_id - {layout.first_fungible_token} as token,
        token_id < {layout.first_nft_token} as fungible) t
""",
            f"""
insert into nft (token_id, serial_number, account_id, created_timestamp, deleted, metadata, timestamp_range)
select {layout.first_nft_token} + token, number, coalesce(m.receiver, {self.holder('token', 'number * 7919', nfts)}),
    {created}, false, convert_to('ipfs://nft/' || token || '/' || number, 'UTF8'),
    int8range(coalesce(m.consensus_timestamp, {created}), null)
from generate_series((0)::bigint, {nfts - 1}) token cross join generate_series((1)::bigint, {NFT_SERIALS}) number
left join (
    select distinct on (token_id, serial) token_id, serial, receiver, consensus_timestamp from nft_move
    order by token_id, serial, consensus_timestamp desc
) m on m.token_id = {layout.first_nft_token} + token and m.serial = number
""",
            self._entities("TOKEN", layout.first_fungible_token, fungible + nfts),
            self._custom_fees(layout.first_fungible_token, fungible + nfts),
            "drop table held, nft_move",
        )

    def _topics_and_contracts(self) -> tuple[str, ...]:
        layout = self.layout
        created = layout.created_ns
        return (
            f"""
insert into topic (id, created_timestamp, admin_key, submit_key, timestamp_range)
select id, {created}, {self._entity_key('id')}, {self._entity_key('id')}, int8range({created}, null)
from generate_series(({layout.first_topic})::bigint, {layout.first_topic + layout.topics - 1}) id
""",
            self._entities("TOPIC", layout.first_topic, layout.topics),
            self._custom_fees(layout.first_topic, layout.topics),
            f"""
insert into contract (id, runtime_bytecode)
select id, '\\x6080604052'::bytea || int8send(id)
from generate_series(({layout.first_contract})::bigint, {layout.first_contract + layout.contracts - 1}) id
""",
            self._entities("CONTRACT", layout.first_contract, layout.contracts),
            """
insert into contract_state (contract_id, slot, value, created_timestamp, modified_timestamp)
select contract_id, slot, (array_agg(value_written order by consensus_timestamp desc))[1],
    min(consensus_timestamp), max(consensus_timestamp)
from contract_state_change group by contract_id, slot
""",
        )

    def _registered_nodes(self) -> str:
        created = self.layout.created_ns
        # The endpoint as the importer stores it (snake_case, no null keys), by `registered_node.type`.
        endpoints = {
            1: "jsonb_build_object('block_node', jsonb_build_object('endpoint_apis', jsonb_build_array("
            "'STATUS', 'PUBLISH', 'SUBSCRIBE_STREAM')), 'domain_name', 'block' || n || '.example.com', 'port', 40840,"
            " 'requires_tls', true)",
            2: "jsonb_build_object('general_service', jsonb_build_object('description', 'service ' || n),"
            " 'ip_address', '10.1.' || n / 256 % 256 || '.' || n % 256, 'port', 443, 'requires_tls', true)",
            3: "jsonb_build_object('mirror_node', '{}'::jsonb, 'domain_name', 'mirror' || n || '.example.com',"
            " 'port', 443, 'requires_tls', true)",
            4: "jsonb_build_object('rpc_relay', '{}'::jsonb, 'ip_address', '10.2.' || n / 256 % 256 || '.' || n % 256,"
            " 'port', 7546, 'requires_tls', false)",
        }
        endpoint = "case n % 4 + 1 " + " ".join(f"when {type_} then {sql}" for type_, sql in endpoints.items()) + " end"
        return f"""
insert into registered_node (
    admin_key, created_timestamp, deleted, description, registered_node_id, service_endpoints, timestamp_range, type
)
select {self._entity_key('n')}, {created}, n % 10 = 9, 'registered node ' || n, n, jsonb_build_array({endpoint}),
    int8range({created}, null), array[n % 4 + 1]::smallint[]
from generate_series((0)::bigint, {self.layout.registered_nodes - 1}) n
"""

    def _hooks(self) -> tuple[str, ...]:
        """The hooks of the hook owners (the last hook of every other owner deleted) and their storage.

        Slot s (key s, left-padded to 32 bytes) of a hook is written `writes` times, the w-th time at a
        transaction of the w-th part of the ledger; a write reads what the previous one wrote, and the last
        write of every eighth slot clears it (an empty value: deleted). `hook_storage` is each slot's last write.
        """
        layout = self.layout
        created = layout.created_ns
        writes = max(1, min(HOOK_WRITES, layout.transactions))
        span = max(1, layout.transactions // writes)
        owners = (
            f"generate_series(({FIRST_ACCOUNT})::bigint, {FIRST_ACCOUNT + layout.accounts - 1}) owner,"
            f" generate_series((1)::bigint, {HOOKS_PER_OWNER}) h"
        )
        is_owner = f"owner % {HOOK_OWNER_MODULUS} = {HOOK_OWNER_REMAINDER}"
        slot = f"((owner * {HOOKS_PER_OWNER} + h) * {HOOK_SLOTS} + s)"

        def value(write: str) -> str:
            return self.random_bytes(f"{slot} * {writes} + {write}", HOOK_VALUE, 32)

        cleared = f"(w = {writes - 1} and s % 8 = 7)"
        return (
            f"""
insert into hook (
    owner_id, hook_id, contract_id, created_timestamp, timestamp_range, extension_point, deleted, admin_key, type
)
select owner, h, {layout.first_contract} + (owner + h) % {layout.contracts}, {created}, int8range({created}, null),
    'ACCOUNT_ALLOWANCE_HOOK', h = {HOOKS_PER_OWNER} and owner % {2 * HOOK_OWNER_MODULUS} = {HOOK_OWNER_REMAINDER},
    {self._entity_key(f'owner * {HOOKS_PER_OWNER + 1} + h')}, 'EVM'
from {owners} where {is_owner}
""",
            f"""
insert into hook_storage_change (consensus_timestamp, hook_id, owner_id, key, value_read, value_written, deleted)
select {self.timestamp(f'w * {span} + {slot} * 7919 % {span}')}, h, owner, {ZERO_WORD_PREFIX} || int8send(s),
    case when w = 0 then {ZERO_WORD} else {value('(w - 1)')} end,
    case when {cleared} then ''::bytea else {value('w')} end, {cleared}
from {owners}, generate_series((0)::bigint, {HOOK_SLOTS - 1}) s, generate_series((0)::bigint, {writes - 1}) w
where {is_owner}
""",
            """
insert into hook_storage (owner_id, hook_id, key, value, created_timestamp, modified_timestamp, deleted)
select owner_id, hook_id, key, (array_agg(value_written order by consensus_timestamp desc))[1],
    min(consensus_timestamp), max(consensus_timestamp), (array_agg(deleted order by consensus_timestamp desc))[1]
from hook_storage_change group by owner_id, hook_id, key
""",
        )

    @staticmethod
    def _entity_key(entity_id: str) -> str:
        return f"('\\x1220'::bytea || {ZERO_WORD_PREFIX} || int8send({entity_id}))"

    def _entities(self, entity_type: str, first: int, count: int) -> str:
        created = self.layout.created_ns
        return f"""
insert into entity (
    id, num, realm, shard, type, created_timestamp, timestamp_range, deleted, memo, key, balance,
    auto_renew_period, staked_node_id, stake_period_start, decline_reward, ethereum_nonce
)
select id, id, 0, 0, '{entity_type}', {created}, int8range({created}, null), false, '{entity_type.lower()} ' || id,
    {self._entity_key('id')}, {'0' if entity_type == 'CONTRACT' else 'null'}, 7776000, -1, -1, false, 0
from generate_series(({first})::bigint, {first + count - 1}) id
"""

    def _custom_fees(self, first: int, count: int) -> str:
        return (
            f"insert into custom_fee (entity_id, timestamp_range)"
            f" select id, int8range({self.layout.created_ns}, null) from generate_series(({first})::bigint, {first + count - 1}) id"
        )
