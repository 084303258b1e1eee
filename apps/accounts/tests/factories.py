from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.models import AccountBalance, Entity
from apps.common.codecs import decode_entity_id
from apps.tokens.models import TokenAccount, TokenBalance


def create_entity(entity_id: int, *, type: str = "ACCOUNT", **overrides) -> Entity:
    decoded = decode_entity_id(entity_id)
    fields = {
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
    return Entity.objects.create(**{**fields, **overrides})


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
