"""The values of the ledger under test that the differential tester's queries name."""

import psycopg

from apps.common.ledger.codecs import decode_entity_id

# kind -> a statement returning up to 20 values of that kind, as text, spread over the ledger.
_SAMPLES = {
    "account": "select id from entity where type = 'ACCOUNT' and deleted is not true order by id",
    "allowance_owner": "select owner from crypto_allowance union select owner from token_allowance order by 1",
    "token": "select token_id from token where type = 'FUNGIBLE_COMMON' order by token_id",
    "nft_token": "select token_id from token where type = 'NON_FUNGIBLE_UNIQUE' order by token_id",
    "contract": "select id from entity where type = 'CONTRACT' order by id",
    "schedule": "select schedule_id from schedule order by schedule_id",
    "topic": "select id from entity where type = 'TOPIC' order by id",
}
_ENTITY_KINDS = frozenset(_SAMPLES)

_VALUES = {
    "timestamp": "select consensus_timestamp from transaction order by consensus_timestamp",
    "contract_timestamp": "select consensus_timestamp from contract_result order by consensus_timestamp",
    "message_timestamp": "select consensus_timestamp from topic_message order by consensus_timestamp",
    "block_number": "select index from record_file order by index",
    "block_hash": "select encode(hash::bytea, 'hex') from record_file order by index",
    "transaction_hash": "select encode(transaction_hash, 'hex') from transaction order by consensus_timestamp",
    "contract_hash": "select encode(transaction_hash, 'hex') from contract_result order by consensus_timestamp",
    "serial": "select serial_number from nft order by token_id, serial_number",
    "sequence": "select sequence_number from topic_message order by consensus_timestamp",
    "balance": "select balance from entity where balance is not null order by id",
    "public_key": "select public_key from entity where public_key is not null order by id",
    "evm_address": "select encode(evm_address, 'hex') from entity where evm_address is not null order by id",
    "slot": "select encode(slot, 'hex') from contract_state order by contract_id, slot",
    "log_topic": "select encode(topic0, 'hex') from contract_log where topic0 is not null order by consensus_timestamp",
}

UNHELD_EVM_ADDRESS = "0x71eaa748d5252be68c1185588beca495459fdba4"

_TRANSACTION_IDS = (
    "select payer_account_id, valid_start_ns, encode(transaction_hash, 'hex') from transaction"
    " order by consensus_timestamp"
)
_CONTRACT_TRANSACTIONS = (
    "select t.payer_account_id, t.valid_start_ns from contract_result r"
    " join transaction t using (consensus_timestamp) order by r.consensus_timestamp"
)


# (kinds) -> rows of values that go together in one path (an NFT's token and serial number).
_LINKED = {
    ("nft_token", "serial"): "select token_id, serial_number from nft order by token_id, serial_number",
    ("contract", "contract_timestamp"): "select contract_id, consensus_timestamp from contract_result order by 2",
    ("topic", "sequence"): "select topic_id, sequence_number from topic_message order by consensus_timestamp",
}


def linked_values(conninfo: str, per_kind: int = 20) -> dict[tuple[str, ...], list[tuple[str, ...]]]:
    """Rows of values a path names together, as a path writes them."""
    linked = {}
    with psycopg.connect(conninfo) as connection:
        for kinds, statement in _LINKED.items():
            rows = _spread(connection.execute(statement).fetchall(), per_kind)
            linked[kinds] = [tuple(_text(kind, value) for kind, value in zip(kinds, row)) for row in rows]
    return linked


def _text(kind: str, value) -> str:
    if kind in _ENTITY_KINDS:
        return _entity_text(value)
    if kind.endswith("timestamp"):
        return _seconds(value)
    return str(value)


def ledger_values(conninfo: str, per_kind: int = 20) -> dict[str, list[str]]:
    """Values by kind, spread evenly over each kind's rows, as a query or a path writes them."""
    values = {}
    with psycopg.connect(conninfo) as connection:
        for kind, statement in (_SAMPLES | _VALUES).items():
            rows = [row[0] for row in connection.execute(statement).fetchall()]
            picked = _spread(rows, per_kind)
            if kind in ("evm_address", "log_topic", "slot", "contract_hash"):
                values[kind] = ["0x" + value for value in picked]
            else:
                values[kind] = [_text(kind, value) for value in picked]
        transactions = _spread(connection.execute(_TRANSACTION_IDS).fetchall(), per_kind)
        values["transaction"] = [_transaction_id(payer, start) for payer, start, _ in transactions]
        values["transaction"] += [full_hash for _, _, full_hash in transactions[: per_kind // 4]]
        contract_transactions = _spread(connection.execute(_CONTRACT_TRANSACTIONS).fetchall(), per_kind)
        values["contract_transaction"] = [_transaction_id(payer, start) for payer, start in contract_transactions]
        values["contract_transaction"] += values["contract_hash"][: per_kind // 4]
    values["block"] = values["block_number"] + values["block_hash"][:4] + ["0x" + h for h in values["block_hash"][:2]]
    # With an address no entity holds, which the routes read as naming nothing.
    values["evm_address_or_account"] = [*values["evm_address"][:5], *values["account"][:5], UNHELD_EVM_ADDRESS]
    return values


def _spread(rows: list, count: int) -> list:
    if len(rows) <= count:
        return rows
    step = len(rows) / count
    return [rows[int(index * step)] for index in range(count)]


def _entity_text(encoded: int) -> str:
    entity = decode_entity_id(encoded)
    return f"{entity.shard}.{entity.realm}.{entity.num}"


def _seconds(nanos: int) -> str:
    return f"{nanos // 10**9}.{nanos % 10**9:09d}"


def _transaction_id(payer: int, valid_start: int) -> str:
    return f"{_entity_text(payer)}-{valid_start // 10**9}-{valid_start % 10**9:09d}"
