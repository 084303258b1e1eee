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
from apps.contracts.evm import sql

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


def _block(row) -> Block | None:
    if row is None:
        return None
    number, hash_hex, start, end = row
    return Block(number=number, hash=bytes.fromhex(hash_hex), consensus_start=start, consensus_end=end)


def fetch_one(statement: str, params) -> tuple | None:
    with statement_cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchone()


def latest_block() -> Block | None:
    return _block(fetch_one(sql.BLOCK_LATEST, ()))


def earliest_block() -> Block | None:
    return _block(fetch_one(sql.BLOCK_EARLIEST, ()))


def block_by_number(number: int) -> Block | None:
    return _block(fetch_one(sql.BLOCK_BY_NUMBER, (number,)))


def block_by_hash(hash_hex: str) -> Block | None:
    return _block(fetch_one(sql.BLOCK_BY_HASH_PREFIX, (hash_hex.lower() + "%",)))


def block_at(timestamp: int) -> Block | None:
    """The block whose range holds `timestamp`."""
    return _block(fetch_one(sql.BLOCK_AT, (timestamp,)))


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
            row = fetch_one(sql.ENTITY_LATEST.format(condition=condition), params)
        else:
            row = fetch_one(sql.ENTITY_AT.format(condition=condition), {**params, "ts": self.timestamp})
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
        return int(fetch_one(sql.BALANCE_AT, self._snapshot_params(id=entity_id))[0])

    def token(self, token_id: int) -> dict | None:
        """The token's fields (`sql.TOKEN_FIELDS`) as of the state's time."""
        if self.timestamp is None:
            row = fetch_one(sql.TOKEN_LATEST, {"token": token_id})
        else:
            row = fetch_one(sql.TOKEN_AT, {"token": token_id, "ts": self.timestamp})
        return dict(zip(sql.TOKEN_FIELDS, row)) if row else None

    def token_balance(self, account_id: int, token_id: int) -> int:
        if self.timestamp is None:
            row = fetch_one(sql.TOKEN_BALANCE_LATEST, {"id": account_id, "token": token_id})
        else:
            row = fetch_one(sql.TOKEN_BALANCE_AT, self._snapshot_params(id=account_id, token=token_id))
        return int(row[0]) if row else 0

    def token_allowance(self, owner_id: int, spender_id: int, token_id: int) -> int:
        """The allowance left (the latest: allowances are not read as of a time)."""
        row = fetch_one(sql.TOKEN_ALLOWANCE, (owner_id, spender_id, token_id))
        return row[0] if row else 0

    def _read_storage(self, entity_id: int, slot: int) -> int:
        if self.timestamp is None:
            row = fetch_one(sql.STORAGE_LATEST, (entity_id, slot.to_bytes(32, "big")))
        else:
            trimmed = slot.to_bytes(32, "big").lstrip(b"\x00")
            row = fetch_one(sql.STORAGE_AT, (entity_id, trimmed, self.timestamp))
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
