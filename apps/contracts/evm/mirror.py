"""Reads of EVM state from the mirror tables, as of a block or the latest.

`MirrorReader` answers one account or storage slot at a time and caches each
answer for the request. With `timestamp` set (a block's `consensus_end`) every
read sees the ledger as of then: entities from `entity`/`entity_history`,
storage from `contract_state_change`, balances from the last balance snapshot
plus later transfers.

The mirror tables count hbar in tinybars; the EVM sees weibars (tinybars x 10^10), the
unit Ethereum tooling and the JSON-RPC relay expect, so `BALANCE`, `SELFBALANCE` and
`CALLVALUE` are weibars. Readers here answer tinybars; `state.py` converts.
"""

from dataclasses import dataclass

from django.conf import settings

from apps.common.database.connections import statement_cursor
from apps.common.ledger.codecs import MAX_NUM, encode_entity_id

ZERO_ADDRESS = bytes(20)
DELEGATION_PREFIX = b"\xef\x01\x00"
# What EXTCODESIZE/EXTCODECOPY see at a token's address; calls to it never run it.
TOKEN_CODE_MARKER = b"\xfe"
TREASURY_NUM = 2
# The upstream gives payers at least this balance so calls do not fail for lack of funds.
MINIMUM_PAYER_BALANCE = 10**17
WEIBARS_PER_TINYBAR = 10**10
BALANCE_SNAPSHOT_WINDOW_NS = 31 * 24 * 3600 * 10**9


@dataclass(frozen=True, slots=True)
class Account:
    entity_id: int
    type: str
    balance: int
    nonce: int
    code: bytes
    evm_address: bytes | None

    @property
    def is_token(self) -> bool:
        return self.type == "TOKEN"


@dataclass(frozen=True, slots=True)
class Block:
    number: int
    hash: bytes
    consensus_start: int
    consensus_end: int


_ENTITY_COLUMNS = (
    "e.id, e.type::text, e.balance, e.ethereum_nonce, e.evm_address, e.delegation_address, c.runtime_bytecode"
)
_ENTITY_LATEST = f"""
    select {_ENTITY_COLUMNS}
    from entity e left join contract c on c.id = e.id
    where {{condition}} and e.deleted is not true
    limit 1
"""
# The version in force at %(ts)s: the current row if it began by then, else the history row covering it.
_ENTITY_AT = f"""
    select {_ENTITY_COLUMNS}
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
_SNAPSHOT = """
    with snapshot as (
        select max(consensus_timestamp) as ts from account_balance
        where account_id = %(treasury)s and consensus_timestamp between %(ts)s - %(window)s and %(ts)s
    )
"""
_BALANCE_AT = _SNAPSHOT + """
    select coalesce((
        select balance from account_balance, snapshot
        where account_id = %(id)s and consensus_timestamp = snapshot.ts
    ), 0) + coalesce((
        select sum(amount) from crypto_transfer, snapshot
        where entity_id = %(id)s and consensus_timestamp > coalesce(snapshot.ts, -1)
          and consensus_timestamp <= %(ts)s and (errata is null or errata <> 'DELETE')
    ), 0)
"""
_TOKEN_BALANCE_AT = _SNAPSHOT + """
    select coalesce((
        select balance from token_balance, snapshot
        where account_id = %(id)s and token_id = %(token)s and consensus_timestamp = snapshot.ts
    ), 0) + coalesce((
        select sum(amount) from token_transfer, snapshot
        where account_id = %(id)s and token_id = %(token)s
          and consensus_timestamp > coalesce(snapshot.ts, -1) and consensus_timestamp <= %(ts)s
    ), 0)
"""
_TOKEN_BALANCE_LATEST = """
    select balance from token_account where account_id = %(id)s and token_id = %(token)s and associated
"""
_TOKEN_COLUMNS = """
    t.token_id, t.name, t.symbol, t.decimals, t.total_supply, t.max_supply, t.supply_type::text,
    t.freeze_default, t.treasury_account_id, e.memo, e.deleted, t.kyc_key is not null,
    t.pause_status::text, e.expiration_timestamp, e.auto_renew_account_id, e.auto_renew_period
"""
_TOKEN_FIELDS = (
    "token_id name symbol decimals total_supply max_supply supply_type freeze_default treasury memo deleted "
    "has_kyc_key pause_status expiration auto_renew_account auto_renew_period"
).split()
_TOKEN_LATEST = f"select {_TOKEN_COLUMNS} from token t join entity e on e.id = t.token_id where t.token_id = %(token)s"
# The token's version in force at %(ts)s; its entity's memo and expiry are the latest.
_TOKEN_AT = f"""
    select {_TOKEN_COLUMNS}
    from (
        select * from token where token_id = %(token)s and lower(timestamp_range) <= %(ts)s
        union all
        select * from token_history where token_id = %(token)s and timestamp_range @> %(ts)s::bigint
    ) t join entity e on e.id = t.token_id
    order by lower(t.timestamp_range) desc
    limit 1
"""
_TOKEN_ALLOWANCE = """
    select amount from token_allowance where owner = %s and spender = %s and token_id = %s
"""
_STORAGE_LATEST = "select value from contract_state where contract_id = %s and slot = %s"
_STORAGE_AT = """
    select coalesce(value_written, value_read) from contract_state_change
    where contract_id = %s and slot = %s and consensus_timestamp <= %s
    order by consensus_timestamp desc
    limit 1
"""
_BLOCK_COLUMNS = "index, hash, consensus_start, consensus_end"


def _block(row) -> Block | None:
    if row is None:
        return None
    number, hash_hex, start, end = row
    return Block(number=number, hash=bytes.fromhex(hash_hex), consensus_start=start, consensus_end=end)


def fetch_one(sql: str, params) -> tuple | None:
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def latest_block() -> Block | None:
    return _block(fetch_one(f"select {_BLOCK_COLUMNS} from record_file order by consensus_end desc limit 1", ()))


def earliest_block() -> Block | None:
    return _block(fetch_one(f"select {_BLOCK_COLUMNS} from record_file order by index asc limit 1", ()))


def block_by_number(number: int) -> Block | None:
    return _block(fetch_one(f"select {_BLOCK_COLUMNS} from record_file where index = %s", (number,)))


def block_by_hash(hash_hex: str) -> Block | None:
    return _block(
        fetch_one(f"select {_BLOCK_COLUMNS} from record_file where hash like %s limit 1", (hash_hex.lower() + "%",))
    )


def block_at(timestamp: int) -> Block | None:
    """The block whose range holds `timestamp`."""
    return _block(
        fetch_one(
            f"select {_BLOCK_COLUMNS} from record_file where consensus_end >= %s order by consensus_end limit 1",
            (timestamp,),
        )
    )


def entity_id_of_long_zero(address: bytes) -> int | None:
    """The entity id a long-zero address (12 zero bytes of shard and realm in this network) names."""
    if address[:12] != bytes(12):
        return None
    num = int.from_bytes(address[12:], "big")
    if num > MAX_NUM:
        return None
    return encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], num)


def long_zero_address(entity_id: int) -> bytes:
    return bytes(12) + (entity_id & MAX_NUM).to_bytes(8, "big")


class MirrorReader:
    """Lazily read, cached state of the ledger at `timestamp` (None: the latest)."""

    def __init__(self, *, timestamp: int | None):
        self.timestamp = timestamp
        self._accounts: dict[bytes, Account | None] = {}
        self._storage: dict[tuple[int, int], int] = {}

    def account(self, address: bytes) -> Account | None:
        if address not in self._accounts:
            self._accounts[address] = self._read_account(address)
        return self._accounts[address]

    def storage(self, entity_id: int, slot: int) -> int:
        key = (entity_id, slot)
        if key not in self._storage:
            self._storage[key] = self._read_storage(entity_id, slot)
        return self._storage[key]

    def _read_account(self, address: bytes) -> Account | None:
        entity_id = entity_id_of_long_zero(address)
        if entity_id is not None:
            condition, params = "e.id = %(key)s", {"key": entity_id}
        else:
            condition, params = "e.evm_address = %(key)s", {"key": address}
        if self.timestamp is None:
            row = fetch_one(_ENTITY_LATEST.format(condition=condition), params)
        else:
            row = fetch_one(_ENTITY_AT.format(condition=condition), {**params, "ts": self.timestamp})
        if row is None:
            return None
        entity_id, entity_type, balance, nonce, evm_address, delegation, runtime = row
        if self.timestamp is not None and entity_type in ("ACCOUNT", "CONTRACT"):
            balance = self._balance_at(entity_id)
        return Account(
            entity_id=entity_id,
            type=entity_type,
            balance=balance or 0,
            nonce=nonce or 0,
            code=_code(entity_type, runtime, delegation),
            evm_address=bytes(evm_address) if evm_address else None,
        )

    def _snapshot_params(self, **params) -> dict:
        treasury = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], TREASURY_NUM)
        return {"treasury": treasury, "ts": self.timestamp, "window": BALANCE_SNAPSHOT_WINDOW_NS, **params}

    def _balance_at(self, entity_id: int) -> int:
        return int(fetch_one(_BALANCE_AT, self._snapshot_params(id=entity_id))[0])

    def token(self, token_id: int) -> dict | None:
        """The token's fields (`_TOKEN_FIELDS`) as of the state's time."""
        if self.timestamp is None:
            row = fetch_one(_TOKEN_LATEST, {"token": token_id})
        else:
            row = fetch_one(_TOKEN_AT, {"token": token_id, "ts": self.timestamp})
        return dict(zip(_TOKEN_FIELDS, row)) if row else None

    def token_balance(self, account_id: int, token_id: int) -> int:
        if self.timestamp is None:
            row = fetch_one(_TOKEN_BALANCE_LATEST, {"id": account_id, "token": token_id})
        else:
            row = fetch_one(_TOKEN_BALANCE_AT, self._snapshot_params(id=account_id, token=token_id))
        return int(row[0]) if row else 0

    def token_allowance(self, owner_id: int, spender_id: int, token_id: int) -> int:
        """The allowance left (the latest: allowances are not read as of a time)."""
        row = fetch_one(_TOKEN_ALLOWANCE, (owner_id, spender_id, token_id))
        return row[0] if row else 0

    def _read_storage(self, entity_id: int, slot: int) -> int:
        if self.timestamp is None:
            row = fetch_one(_STORAGE_LATEST, (entity_id, slot.to_bytes(32, "big")))
        else:
            trimmed = slot.to_bytes(32, "big").lstrip(b"\x00")
            row = fetch_one(_STORAGE_AT, (entity_id, trimmed, self.timestamp))
        return int.from_bytes(row[0], "big") if row and row[0] else 0

    def block_hash(self, number: int) -> bytes:
        block = block_by_number(number)
        return block.hash[:32] if block else b""


def _code(entity_type: str, runtime: bytes | None, delegation: bytes | None) -> bytes:
    if entity_type == "TOKEN":
        return TOKEN_CODE_MARKER
    if runtime:
        return bytes(runtime)
    if entity_type == "ACCOUNT" and delegation and bytes(delegation) != ZERO_ADDRESS:
        return DELEGATION_PREFIX + bytes(delegation)
    return b""
