import hashlib

from apps.accounts.models import StakingRewardTransfer
from apps.transactions.models import (
    AssessedCustomFee,
    CryptoTransfer,
    EntityTransaction,
    TokenTransfer,
    Transaction,
    TransactionHash,
)

NODE = 3
FEE_COLLECTOR = 98
SECOND = 1_000_000_000


def transaction_hash(consensus_timestamp: int) -> bytes:
    return hashlib.sha384(str(consensus_timestamp).encode()).digest()


def transaction(consensus_timestamp: int, payer: int = 8, **overrides) -> Transaction:
    """An unsaved successful CRYPTOTRANSFER paid by `payer`, valid from 1 ns before consensus."""
    fields = {
        "consensus_timestamp": consensus_timestamp,
        "type": 14,
        "result": 22,
        "payer_account_id": payer,
        "valid_start_ns": consensus_timestamp - 1,
        "valid_duration_seconds": 120,
        "node_account_id": NODE,
        "entity_id": None,
        "initial_balance": 0,
        "max_fee": 100,
        "charged_tx_fee": 7,
        "memo": None,
        "transaction_hash": transaction_hash(consensus_timestamp),
        "transaction_bytes": None,
        "scheduled": False,
        "nonce": 0,
        "parent_consensus_timestamp": None,
        "index": 1,
        "nft_transfer": None,
        "max_custom_fees": None,
        "high_volume": False,
    }
    return Transaction(**{**fields, **overrides})


def create_transaction(consensus_timestamp: int, payer: int = 8, *, fee: int = 3, hashed: bool = True, **overrides):
    """Saves a transaction with its fee transfers (payer -fee, node +1, 0.0.98 +rest) and hash row."""
    row = transaction(consensus_timestamp, payer, **overrides)
    row.save(force_insert=True)
    if fee:
        create_crypto_transfers(row, (payer, -fee), (NODE, 1), (FEE_COLLECTOR, fee - 1))
    if hashed:
        digest = bytes(row.transaction_hash)
        TransactionHash.objects.create(
            consensus_timestamp=consensus_timestamp, hash=digest[:32], hash_suffix=digest[32:], payer_account_id=payer
        )
    return row


def create_crypto_transfers(row: Transaction, *transfers: tuple[int, int], **extra) -> None:
    # One insert each: bulk_create's typed arrays do not cast to the errata enum.
    for account, amount in transfers:
        CryptoTransfer.objects.create(
            entity_id=account,
            consensus_timestamp=row.consensus_timestamp,
            amount=amount,
            payer_account_id=row.payer_account_id,
            is_approval=False,
            **extra,
        )


def create_token_transfers(row: Transaction, token: int, *transfers: tuple[int, int], is_approval=None) -> None:
    TokenTransfer.objects.bulk_create(
        TokenTransfer(
            token_id=token,
            account_id=account,
            consensus_timestamp=row.consensus_timestamp,
            amount=amount,
            payer_account_id=row.payer_account_id,
            is_approval=is_approval,
        )
        for account, amount in transfers
    )


def create_entity_transaction(row: Transaction, entity_id: int) -> None:
    EntityTransaction.objects.create(
        consensus_timestamp=row.consensus_timestamp,
        entity_id=entity_id,
        payer_account_id=row.payer_account_id,
        result=row.result,
        type=row.type,
    )


def create_staking_reward(row: Transaction, account: int, amount: int) -> None:
    StakingRewardTransfer.objects.create(
        consensus_timestamp=row.consensus_timestamp,
        account_id=account,
        amount=amount,
        payer_account_id=row.payer_account_id,
    )


def create_assessed_fee(row: Transaction, collector: int, amount: int, token: int | None = None, payers=()) -> None:
    AssessedCustomFee.objects.create(
        consensus_timestamp=row.consensus_timestamp,
        collector_account_id=collector,
        amount=amount,
        token_id=token,
        effective_payer_account_ids=list(payers),
        payer_account_id=row.payer_account_id,
    )
