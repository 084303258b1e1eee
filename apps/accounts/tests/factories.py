from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.models import (
    AccountBalance,
    CryptoAllowance,
    Entity,
    EntityHistory,
    EntityStake,
    EntityStakeHistory,
    StakingRewardTransfer,
    TokenAccount,
    TokenBalance,
)
from apps.common.ledger.codecs import decode_entity_id


def _entity_fields(entity_id: int, type: str) -> dict:
    decoded = decode_entity_id(entity_id)
    return {
        "id": entity_id,
        "num": decoded.num,
        "realm": decoded.realm,
        "shard": decoded.shard,
        "memo": "",
        "timestamp_range": Range(0, None),
        "type": type,
        "decline_reward": False,
        "deleted": False,
    }


def create_entity(entity_id: int, *, type: str = "ACCOUNT", **overrides) -> Entity:
    return Entity.objects.create(**{**_entity_fields(entity_id, type), **overrides})


def create_account_balances(consensus_timestamp: int, balances: dict[int, int]) -> None:
    """One balance snapshot: account id -> balance."""
    AccountBalance.objects.bulk_create(
        AccountBalance(consensus_timestamp=consensus_timestamp, account_id=account, balance=balance)
        for account, balance in balances.items()
    )


def create_token_balances(consensus_timestamp: int, account: int, balances: dict[int, int]) -> None:
    """Token balances of one account in one snapshot: token id -> balance."""
    TokenBalance.objects.bulk_create(
        TokenBalance(consensus_timestamp=consensus_timestamp, account_id=account, token_id=token, balance=balance)
        for token, balance in balances.items()
    )


def create_token_account(account: int, token: int, balance: int, *, associated: bool = True) -> None:
    TokenAccount.objects.create(
        account_id=account,
        token_id=token,
        balance=balance,
        associated=associated,
        timestamp_range=Range(0, None),
    )


def create_entity_history(entity_id: int, lower: int, upper: int, **overrides) -> None:
    """A superseded version of an account, valid in [lower, upper)."""
    fields = {**_entity_fields(entity_id, "ACCOUNT"), "timestamp_range": Range(lower, upper)}
    EntityHistory.objects.create(**{**fields, **overrides})


def create_entity_stake(entity_id: int, *, pending_reward: int, end_stake_period: int, lower: int = 0, upper=None):
    model = EntityStake if upper is None else EntityStakeHistory
    model.objects.create(
        id=entity_id,
        end_stake_period=end_stake_period,
        pending_reward=pending_reward,
        staked_node_id_start=1,
        staked_to_me=0,
        stake_total_start=0,
        timestamp_range=Range(lower, upper),
    )


def create_staking_reward(account: int, timestamp: int, amount: int) -> None:
    StakingRewardTransfer.objects.create(
        account_id=account, amount=amount, consensus_timestamp=timestamp, payer_account_id=800
    )


def create_crypto_allowance(owner: int, spender: int, amount: int, *, granted: int | None = None) -> None:
    CryptoAllowance.objects.create(
        owner=owner,
        spender=spender,
        amount=amount,
        amount_granted=granted if granted is not None else amount,
        payer_account_id=owner,
        timestamp_range=Range(spender, None),
    )
