"""The contract transaction a route names: by its timestamp and an entity it involved, by
its Ethereum hash (or the 32-byte prefix of its transaction hash), or by its transaction id."""

from dataclasses import dataclass

from django.conf import settings

from apps.contracts import sql


@dataclass(frozen=True)
class ContractTransaction:
    consensus_timestamp: int
    payer_account_id: int
    contract_ids: list[int]


@dataclass(frozen=True)
class ContractTransactionKey:
    """How a transaction id or hash names a contract transaction: its timestamp, its payer, and the
    entity whose contract_transaction row lists the contracts it touched."""

    consensus_timestamp: int
    payer_account_id: int
    entity_id: int


def contract_transaction_at(*, timestamp: int, entity_id: int) -> ContractTransaction | None:
    """The contract transaction at `timestamp` that involved `entity_id`, with every contract it touched."""
    found = sql.rows(sql.CONTRACT_TRANSACTION_AT, [timestamp, entity_id])
    return ContractTransaction(**found[0]) if found else None


def contract_transaction_named(named: bytes | tuple[int, int], *, nonce: int) -> ContractTransactionKey | None:
    """The contract transaction of an Ethereum hash, or of a transaction id's (payer, valid start)
    and `nonce`."""
    if isinstance(named, bytes):
        return contract_transaction_by_hash(transaction_hash=named)
    payer, valid_start = named
    return contract_transaction_by_id(payer=payer, valid_start=valid_start, nonce=nonce)


def contract_transaction_by_hash(*, transaction_hash: bytes) -> ContractTransactionKey | None:
    """The contract transaction of an Ethereum hash or of the 32-byte prefix of a transaction hash;
    a successful transaction wins over failed ones, then the latest."""
    found = sql.rows(sql.CONTRACT_TRANSACTION_BY_HASH, [transaction_hash])
    return ContractTransactionKey(**found[0]) if found else None


def contract_transaction_by_id(*, payer: int, valid_start: int, nonce: int) -> ContractTransactionKey | None:
    """The transaction of a transaction id (and nonce); a successful one wins, then the latest."""
    consensus_range = settings.MIRROR["MAX_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE"].nanoseconds
    found = sql.rows(
        sql.TRANSACTION_BY_ID,
        [payer, valid_start, valid_start + consensus_range, valid_start, nonce],
    )
    return ContractTransactionKey(found[0]["consensus_timestamp"], payer, payer) if found else None
