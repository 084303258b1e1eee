"""A synthetic, consistent ledger as COPY text rows, deterministic for a seed.

The layout is arithmetic, so a benchmark can name existing ids without asking
the database: system accounts (0.0.2 treasury, 0.0.3-0.0.9 nodes, 0.0.98 fee
collector, 0.0.800 staking reward account), then `accounts` accounts from
0.0.1001, then fungible tokens, NFT tokens, topics, contracts, and one schedule
per schedule-create transaction. Transaction `i` reaches consensus at
`start + i * SPACING_NS`; every `BLOCK_SIZE` transactions make one record file.

Transfers balance (payer pays amount and fee; the node and 0.0.98 share the
fee), balances are carried through, and three complete balance snapshots
(before the first transaction, half way, after the last) hold every account's
balance and token balances at that instant; `entity.balance` and
`token_account.balance` hold the final ones.

Rows are produced in chunks of `CHUNK` transactions; each chunk draws from its
own `random.Random` (seeded with the seed and chunk number), so the output
depends on the seed and sizes only.
"""

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property

SPACING_NS = 20_000_000
BLOCK_SIZE = 100
CHUNK = 20_000
START_NS = 1_788_220_800 * 10**9  # 2026-09-01T00:00:00Z
TREASURY, FEE_COLLECTOR, STAKING_REWARD_ACCOUNT = 2, 98, 800
NODE_ACCOUNTS = tuple(range(3, 10))
FIRST_ACCOUNT = 1001
TOTAL_SUPPLY = 5_000_000_000 * 10**8
NFT_SERIALS = 100
STATE_SLOTS = 16

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

NULL = "\\N"
TRANSFER_TOPIC = "\\\\xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
ZERO_BLOOM = "\\\\x" + "00" * 256


def hex_bytes(data: bytes) -> str:
    """A bytea in COPY text format."""
    return "\\\\x" + data.hex()


def open_range(lower: int) -> str:
    return f"[{lower},)"


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
        middle = (self.transactions // 2) // CHUNK * CHUNK
        return tuple(sorted({0, middle, self.transactions}))

    def snapshot_timestamp(self, point: int) -> int:
        return self.timestamp(point) - SPACING_NS // 2

    def account(self, position: int) -> int:
        return FIRST_ACCOUNT + position % self.accounts

    def fungible_holders(self, token: int) -> int:
        """Accounts at positions token, token + F, token + 2F, ... hold fungible token `token` (0-based)."""
        return max(1, (self.accounts - token + self.fungible_tokens - 1) // self.fungible_tokens)

    def nft_holders(self, token: int) -> int:
        return max(1, (self.accounts - token + self.nft_tokens - 1) // self.nft_tokens)

    def fungible_holder(self, token: int, k: int) -> int:
        return self.account(token + self.fungible_tokens * (k % self.fungible_holders(token)))

    def nft_holder(self, token: int, k: int) -> int:
        return self.account(token + self.nft_tokens * (k % self.nft_holders(token)))

    def has_evm_address(self, account: int) -> bool:
        return (account - FIRST_ACCOUNT) % 10 == 3


@dataclass
class Rows:
    """COPY text lines per table."""

    lines: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, table: str, *values) -> None:
        self.lines[table].append("\t".join(NULL if value is None else str(value) for value in values) + "\n")

    def count(self) -> int:
        return sum(len(lines) for lines in self.lines.values())


# Columns written per table, in the order `Rows.add` is given the values.
COLUMNS = {
    "transaction": (
        "consensus_timestamp", "type", "result", "payer_account_id", "valid_start_ns", "valid_duration_seconds",
        "node_account_id", "entity_id", "initial_balance", "max_fee", "charged_tx_fee", "memo",
        "transaction_hash", "scheduled", "nonce", "index", "nft_transfer",
    ),
    "transaction_hash": ("consensus_timestamp", "hash", "payer_account_id", "hash_suffix"),
    "crypto_transfer": ("entity_id", "consensus_timestamp", "amount", "payer_account_id", "is_approval"),
    "token_transfer": ("token_id", "account_id", "consensus_timestamp", "amount", "payer_account_id", "is_approval"),
    "staking_reward_transfer": ("account_id", "amount", "consensus_timestamp", "payer_account_id"),
    "record_file": (
        "name", "load_start", "load_end", "hash", "prev_hash", "consensus_start", "consensus_end", "count",
        "digest_algorithm", "hapi_version_major", "hapi_version_minor", "hapi_version_patch", "version",
        "file_hash", "index", "gas_used", "size",
    ),
    "topic_message": (
        "consensus_timestamp", "message", "running_hash", "sequence_number", "running_hash_version",
        "payer_account_id", "valid_start_timestamp", "topic_id",
    ),
    "contract_result": (
        "consensus_timestamp", "contract_id", "payer_account_id", "sender_id", "function_parameters", "gas_limit",
        "gas_used", "gas_consumed", "amount", "bloom", "call_result", "function_result", "transaction_hash",
        "transaction_index", "transaction_result", "transaction_nonce",
    ),
    "contract_log": (
        "consensus_timestamp", "index", "contract_id", "root_contract_id", "payer_account_id", "bloom", "data",
        "topic0", "topic1", "topic2", "transaction_hash", "transaction_index", "synthetic",
    ),
    "contract_state_change": (
        "consensus_timestamp", "contract_id", "payer_account_id", "slot", "value_read", "value_written", "migration",
    ),
    "contract_transaction": ("consensus_timestamp", "entity_id", "contract_ids", "payer_account_id"),
    "contract_transaction_hash": ("hash", "consensus_timestamp", "payer_account_id", "entity_id", "transaction_result"),
    "schedule": (
        "schedule_id", "consensus_timestamp", "creator_account_id", "payer_account_id", "transaction_body",
        "expiration_time", "wait_for_expiry",
    ),
    "transaction_signature": ("consensus_timestamp", "entity_id", "public_key_prefix", "signature", "type"),
    "entity": (
        "id", "num", "realm", "shard", "type", "created_timestamp", "timestamp_range", "deleted", "memo", "key",
        "public_key", "alias", "evm_address", "balance", "balance_timestamp", "auto_renew_period",
        "expiration_timestamp", "max_automatic_token_associations", "receiver_sig_required", "staked_node_id",
        "stake_period_start", "decline_reward", "ethereum_nonce",
    ),
    "entity_stake": (
        "id", "end_stake_period", "pending_reward", "staked_node_id_start", "staked_to_me", "stake_total_start",
        "timestamp_range",
    ),
    "account_balance": ("consensus_timestamp", "balance", "account_id"),
    "token_balance": ("consensus_timestamp", "account_id", "balance", "token_id"),
    "token": (
        "token_id", "created_timestamp", "decimals", "initial_supply", "total_supply", "max_supply", "supply_type",
        "name", "symbol", "treasury_account_id", "type", "timestamp_range", "freeze_status", "kyc_status",
        "freeze_default", "supply_key", "pause_status",
    ),
    "custom_fee": ("entity_id", "timestamp_range"),
    "token_account": (
        "account_id", "token_id", "associated", "automatic_association", "created_timestamp", "freeze_status",
        "kyc_status", "timestamp_range", "balance", "balance_timestamp",
    ),
    "nft": ("token_id", "serial_number", "account_id", "created_timestamp", "deleted", "metadata", "timestamp_range"),
    "topic": ("id", "created_timestamp", "admin_key", "submit_key", "timestamp_range"),
    "contract": ("id", "runtime_bytecode"),
    "contract_state": ("contract_id", "slot", "value", "created_timestamp", "modified_timestamp"),
    "crypto_allowance": ("owner", "spender", "amount_granted", "amount", "payer_account_id", "timestamp_range"),
    "token_allowance": (
        "owner", "spender", "token_id", "amount_granted", "amount", "payer_account_id", "timestamp_range",
    ),
}


class Ledger:
    """Produces the ledger's rows: `transaction_chunks()` first, then `final_state()`."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.hbar: dict[int, int] = defaultdict(int)
        self.tokens: dict[tuple[int, int], int] = defaultdict(int)
        self.nft_owners: dict[tuple[int, int], int] = {}
        self.nft_moved: dict[tuple[int, int], int] = {}
        self.state: dict[tuple[int, int], tuple[bytes, int, int]] = {}
        self.block_hash = "0" * 96
        self.block_gas = 0
        self.last_timestamp = layout.created_ns
        self._initial_balances()

    # Entities and their starting balances.

    def _initial_balances(self) -> None:
        layout = self.layout
        for position in range(layout.accounts):
            self.hbar[layout.account(position)] = layout.starting_balance + position * 1000
        for node in NODE_ACCOUNTS:
            self.hbar[node] = 10**12
        self.hbar[STAKING_REWARD_ACCOUNT] = 10**16
        self.hbar[TREASURY] = TOTAL_SUPPLY - sum(self.hbar.values())
        self.hbar[FEE_COLLECTOR] = 0
        for token in range(layout.fungible_tokens):
            for k in range(layout.fungible_holders(token)):
                self.tokens[(layout.fungible_holder(token, k), layout.first_fungible_token + token)] = 10**6
        for token in range(layout.nft_tokens):
            for serial in range(1, NFT_SERIALS + 1):
                owner = layout.nft_holder(token, serial * 7919)
                self.nft_owners[(token, serial)] = owner
                self.tokens[(owner, layout.first_nft_token + token)] += 1

    @cached_property
    def keys(self) -> dict[int, tuple[str, str, str | None, str | None]]:
        """(key, public_key, alias, evm_address) per account, in COPY text."""
        rng = random.Random(f"{self.layout.seed}:keys")
        keys = {}
        for account in sorted(self.hbar):
            if self.layout.has_evm_address(account):
                public = bytes([2 + account % 2]) + rng.randbytes(32)
                key = b"\x3a\x21" + public
                keys[account] = (hex_bytes(key), public.hex(), hex_bytes(key), hex_bytes(rng.randbytes(20)))
            else:
                public = rng.randbytes(32)
                keys[account] = (hex_bytes(b"\x12\x20" + public), public.hex(), None, None)
        return keys

    # Transactions.

    def transaction_chunks(self) -> Iterator[tuple[int, Rows]]:
        """(transactions done, rows) per chunk; balance snapshots come with the chunks they precede."""
        layout = self.layout
        points = layout.snapshot_points()
        for start in range(0, layout.transactions, CHUNK):
            rows = Rows()
            if start in points:
                self._snapshot(rows, layout.snapshot_timestamp(start))
            end = min(start + CHUNK, layout.transactions)
            self._transactions(rows, start, end, random.Random(f"{layout.seed}:{start}"))
            if end == layout.transactions:
                self._snapshot(rows, layout.snapshot_timestamp(end))
            yield end, rows

    def _transactions(self, rows: Rows, start: int, end: int, rng: random.Random) -> None:
        # The hot loop: rows of the three biggest tables are formatted inline, draws use rng.random().
        layout = self.layout
        hbar, add, draw = self.hbar, rows.add, rng.random
        crypto_transfers = rows.lines["crypto_transfer"].append
        transactions = rows.lines["transaction"].append
        transaction_hashes = rows.lines["transaction_hash"].append
        accounts = layout.accounts
        for index in range(start, end):
            timestamp = START_NS + index * SPACING_NS
            kind = KINDS[index % len(KINDS)]
            payer = FIRST_ACCOUNT + int(draw() * accounts)
            node = NODE_ACCOUNTS[index % len(NODE_ACCOUNTS)]
            valid_start = timestamp - 3 * 10**9 - (index % 1000) * 1000
            fee = 50_000 + int(draw() * 150_000)
            node_fee = fee // 20
            block_index = index % BLOCK_SIZE
            full_hash = rng.randbytes(48)
            hash_hex = full_hash.hex()
            transaction_type, result, entity_id, nft_transfer = CRYPTO_TRANSFER, SUCCESS, NULL, NULL

            transfers = [(payer, -fee), (node, node_fee), (FEE_COLLECTOR, fee - node_fee)]
            if kind in ("crypto", "reward"):
                receiver = FIRST_ACCOUNT + int(draw() * accounts)
                amount = 1 + int(draw() * 10**8)
                transfers[0] = (payer, -fee - amount)
                transfers.append((receiver, amount))
                if kind == "reward":
                    reward = 1 + int(draw() * 10**6)
                    transfers.append((STAKING_REWARD_ACCOUNT, -reward))
                    transfers[0] = (payer, -fee - amount + reward)
                    add("staking_reward_transfer", payer, reward, timestamp, payer)
            elif kind == "failed":
                result = INSUFFICIENT_ACCOUNT_BALANCE
            elif kind == "token":
                token = int(draw() * layout.fungible_tokens)
                token_id = layout.first_fungible_token + token
                sender = layout.fungible_holder(token, int(draw() * accounts))
                receiver = layout.fungible_holder(token, int(draw() * accounts))
                amount = 1 + int(draw() * 1000)
                self.tokens[(sender, token_id)] -= amount
                self.tokens[(receiver, token_id)] += amount
                add("token_transfer", token_id, sender, timestamp, -amount, payer, "f")
                add("token_transfer", token_id, receiver, timestamp, amount, payer, "f")
            elif kind == "nft":
                nft_transfer = self._nft_transfer(rows, index, timestamp, rng)
            elif kind == "message":
                transaction_type = SUBMIT_MESSAGE
                entity_id = self._message(rows, index, timestamp, payer, valid_start, rng)
            elif kind == "contract":
                transaction_type = CONTRACT_CALL
                entity_id = self._contract_call(rows, index, timestamp, payer, full_hash, rng)
            else:
                transaction_type = SCHEDULE_CREATE
                entity_id = self._schedule(rows, index, timestamp, payer)

            for account, amount in transfers:
                hbar[account] += amount
                crypto_transfers(f"{account}\t{timestamp}\t{amount}\t{payer}\tf\n")
            transactions(
                f"{timestamp}\t{transaction_type}\t{result}\t{payer}\t{valid_start}\t120\t{node}\t{entity_id}"
                f"\t0\t200000000\t{fee}\t{NULL}\t\\\\x{hash_hex}\tf\t0\t{block_index}\t{nft_transfer}\n"
            )
            transaction_hashes(f"{timestamp}\t\\\\x{hash_hex[:64]}\t{payer}\t\\\\x{hash_hex[64:]}\n")
            if block_index == BLOCK_SIZE - 1 or index == layout.transactions - 1:
                self._block(rows, index, rng)
        self.last_timestamp = layout.timestamp(end - 1)

    def _nft_transfer(self, rows: Rows, index: int, timestamp: int, rng: random.Random) -> str:
        layout = self.layout
        number = count_before("nft", index)
        token = number % layout.nft_tokens
        serial = (number // layout.nft_tokens) % NFT_SERIALS + 1
        token_id = layout.first_nft_token + token
        sender = self.nft_owners[(token, serial)]
        receiver = layout.nft_holder(token, int(rng.random() * layout.accounts))
        self.nft_owners[(token, serial)] = receiver
        self.nft_moved[(token, serial)] = timestamp
        self.tokens[(sender, token_id)] -= 1
        self.tokens[(receiver, token_id)] += 1
        return json.dumps(
            [{"is_approval": False, "receiver_account_id": receiver, "sender_account_id": sender,
              "serial_number": serial, "token_id": token_id}],
            separators=(",", ":"),
        )

    def _message(self, rows: Rows, index: int, timestamp: int, payer: int, valid_start: int, rng) -> int:
        layout = self.layout
        number = count_before("message", index)
        topic_id = layout.first_topic + number % layout.topics
        rows.add(
            "topic_message", timestamp, hex_bytes(rng.randbytes(24)), hex_bytes(rng.randbytes(48)),
            number // layout.topics + 1, 3, payer, valid_start, topic_id,
        )
        return topic_id

    def _contract_call(self, rows: Rows, index: int, timestamp: int, payer: int, full_hash: bytes, rng) -> int:
        layout = self.layout
        number = count_before("contract", index)
        contract = number % layout.contracts
        contract_id = layout.first_contract + contract
        slot = (number // layout.contracts) % STATE_SLOTS
        gas = 21_000 + rng.randrange(100_000)
        self.block_gas += gas
        short_hash = hex_bytes(full_hash[:32])
        transaction_index = index % BLOCK_SIZE
        rows.add(
            "contract_result", timestamp, contract_id, payer, payer, hex_bytes(rng.randbytes(36)), 300_000,
            gas, gas, 0, ZERO_BLOOM, hex_bytes(rng.randbytes(32)), None, short_hash, transaction_index, SUCCESS, 0,
        )
        payer_word = hex_bytes(payer.to_bytes(32, "big"))
        rows.add(
            "contract_log", timestamp, 0, contract_id, contract_id, payer, ZERO_BLOOM,
            hex_bytes(rng.randbytes(32)), TRANSFER_TOPIC, payer_word, payer_word, short_hash, transaction_index, "f",
        )
        previous, created, _ = self.state.get((contract, slot), (bytes(32), timestamp, 0))
        value = rng.randbytes(32)
        self.state[(contract, slot)] = (value, created, timestamp)
        rows.add(
            "contract_state_change", timestamp, contract_id, payer, hex_bytes(slot.to_bytes(32, "big")),
            hex_bytes(previous), hex_bytes(value), "f",
        )
        rows.add("contract_transaction_hash", short_hash, timestamp, payer, contract_id, SUCCESS)
        for entity_id in (contract_id, payer):
            rows.add("contract_transaction", timestamp, entity_id, f"{{{contract_id}}}", payer)
        return contract_id

    def _schedule(self, rows: Rows, index: int, timestamp: int, payer: int) -> int:
        schedule_id = self.layout.first_schedule + count_before("schedule", index)
        rows.add(
            "schedule", schedule_id, timestamp, payer, payer, hex_bytes(schedule_id.to_bytes(8, "big") * 4),
            timestamp + 1800 * 10**9, "f",
        )
        public_key = self.keys[payer][1]
        rows.add(
            "transaction_signature", timestamp, schedule_id, "\\\\x" + public_key[:8],
            hex_bytes(bytes(64)), 3,
        )
        rows.add(
            "entity", schedule_id, schedule_id, 0, 0, "SCHEDULE", timestamp, open_range(timestamp), "f",
            "scheduled", None, None, None, None, None, None, None, None, None, None, -1, -1, "f", 0,
        )
        return schedule_id

    def _block(self, rows: Rows, last: int, rng: random.Random) -> None:
        layout = self.layout
        number = last // BLOCK_SIZE
        first = number * BLOCK_SIZE
        start, end = layout.timestamp(first), layout.timestamp(last)
        name = datetime.fromtimestamp(start // 10**9, UTC).strftime("%Y-%m-%dT%H_%M_%S")
        block_hash = rng.randbytes(48).hex()
        rows.add(
            "record_file", f"{name}.{start % 10**9:09d}Z.rcd.gz", end // 10**9 + 2, end // 10**9 + 3, block_hash,
            self.block_hash, start, end, last - first + 1, 0, 0, 47, 0, 6, rng.randbytes(48).hex(), number,
            self.block_gas, 4096 + (last - first + 1) * 300,
        )
        self.block_hash, self.block_gas = block_hash, 0

    def _snapshot(self, rows: Rows, timestamp: int) -> None:
        for account, balance in sorted(self.hbar.items()):
            rows.add("account_balance", timestamp, balance, account)
        for (account, token_id), balance in sorted(self.tokens.items()):
            rows.add("token_balance", timestamp, account, balance, token_id)

    # What the ledger ends with.

    def final_state(self) -> Rows:
        rows = Rows()
        layout = self.layout
        created, last = layout.created_ns, self.last_timestamp
        for account, balance in sorted(self.hbar.items()):
            key, public_key, alias, evm_address = self.keys[account]
            staked = account >= FIRST_ACCOUNT and account % 5 == 0
            rows.add(
                "entity", account, account, 0, 0, "ACCOUNT", created, open_range(created), "f", "", key,
                public_key, alias, evm_address, balance, last, 7776000, created + 7776000 * 10**9, 10, "f",
                account % 7 if staked else -1, 20_000 if staked else -1, "f", 0,
            )
            if account >= FIRST_ACCOUNT:
                rows.add("entity_stake", account, 20_000, account % 1000, -1, 0, 0, open_range(created))
            if account >= FIRST_ACCOUNT and account % 20 == 0:
                spender = layout.account(account - FIRST_ACCOUNT + 1)
                rows.add("crypto_allowance", account, spender, 10**9, 10**9, account, open_range(created))
                token_id = layout.first_fungible_token + (account - FIRST_ACCOUNT) % layout.fungible_tokens
                rows.add("token_allowance", account, spender, token_id, 1000, 1000, account, open_range(created))
        self._token_rows(rows)
        self._other_entities(rows)
        return rows

    def _token_rows(self, rows: Rows) -> None:
        layout = self.layout
        created, last = layout.created_ns, self.last_timestamp
        supplies = defaultdict(int)
        for (account, token_id), balance in sorted(self.tokens.items()):
            supplies[token_id] += balance
            rows.add("token_account", account, token_id, "t", "f", created, 0, 0, open_range(created), balance, last)
        for token in range(layout.fungible_tokens + layout.nft_tokens):
            token_id = layout.first_fungible_token + token
            fungible = token < layout.fungible_tokens
            supply = supplies[token_id]
            rows.add(
                "token", token_id, created, 2 if fungible else 0, supply if fungible else 0, supply,
                9223372036854775807, "INFINITE", f"Token {token}", f"TK{token}", layout.account(token * 13),
                "FUNGIBLE_COMMON" if fungible else "NON_FUNGIBLE_UNIQUE", open_range(created), 0, 0, "f",
                hex_bytes(b"\x12\x20" + token_id.to_bytes(32, "big")), "NOT_APPLICABLE",
            )
            rows.add("custom_fee", token_id, open_range(created))
            self._entity(rows, token_id, "TOKEN")
        for (token, serial), owner in sorted(self.nft_owners.items()):
            moved = self.nft_moved.get((token, serial), created)
            rows.add(
                "nft", layout.first_nft_token + token, serial, owner, created, "f",
                hex_bytes(f"ipfs://nft/{token}/{serial}".encode()), open_range(moved),
            )

    def _other_entities(self, rows: Rows) -> None:
        layout = self.layout
        created = layout.created_ns
        for topic in range(layout.topics):
            topic_id = layout.first_topic + topic
            key = hex_bytes(b"\x12\x20" + topic_id.to_bytes(32, "big"))
            rows.add("topic", topic_id, created, key, key, open_range(created))
            self._entity(rows, topic_id, "TOPIC")
        for contract in range(layout.contracts):
            contract_id = layout.first_contract + contract
            rows.add("contract", contract_id, hex_bytes(bytes.fromhex("6080604052") + contract_id.to_bytes(8, "big")))
            self._entity(rows, contract_id, "CONTRACT")
        for (contract, slot), (value, first, modified) in sorted(self.state.items()):
            rows.add(
                "contract_state", layout.first_contract + contract, hex_bytes(slot.to_bytes(32, "big")),
                hex_bytes(value), first, modified,
            )

    def _entity(self, rows: Rows, entity_id: int, entity_type: str) -> None:
        created = self.layout.created_ns
        rows.add(
            "entity", entity_id, entity_id, 0, 0, entity_type, created, open_range(created), "f",
            f"{entity_type.lower()} {entity_id}", hex_bytes(b"\x12\x20" + entity_id.to_bytes(32, "big")),
            None, None, None, 0 if entity_type == "CONTRACT" else None, None, 7776000, None, None, None,
            -1, -1, "f", 0,
        )
