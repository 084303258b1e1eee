from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.models import EntityHistory
from apps.accounts.tests.factories import create_entity
from apps.tokens.models import (
    CustomFee,
    CustomFeeHistory,
    Nft,
    NftHistory,
    Token,
    TokenHistory,
    TokenType,
)

SECOND = 1_000_000_000
T = 1_700_000_000 * SECOND
TREASURY = 98


def token_fields(token_id: int, **overrides) -> dict:
    fields = {
        "token_id": token_id,
        "created_timestamp": T,
        "decimals": 2,
        "freeze_default": False,
        "initial_supply": 1000,
        "name": f"Token {token_id}",
        "symbol": f"SYM{token_id}",
        "total_supply": 1000,
        "treasury_account_id": TREASURY,
        "max_supply": 9223372036854775807,
        "supply_type": "INFINITE",
        "type": TokenType.FUNGIBLE_COMMON,
        "pause_status": "NOT_APPLICABLE",
        "timestamp_range": Range(T, None),
        "freeze_status": 0,
        "kyc_status": 0,
    }
    return {**fields, **overrides}


def create_token(token_id: int, *, key: bytes | None = None, public_key: str | None = None, fees=None, **overrides):
    """A token with its entity row and (empty unless given) custom fees, all current since T."""
    create_entity(token_id, type="TOKEN", key=key, public_key=public_key, memo=f"memo {token_id}",
                  timestamp_range=Range(T, None))
    CustomFee.objects.create(entity_id=token_id, timestamp_range=Range(T, None), **(fees or {}))
    return Token.objects.create(**token_fields(token_id, **overrides))


def create_token_history(token_id: int, since: int, until: int, **overrides) -> None:
    """An earlier version of a token, its entity and its custom fees."""
    TokenHistory.objects.create(**token_fields(token_id, timestamp_range=Range(since, until), **overrides))
    EntityHistory.objects.create(
        id=token_id, num=token_id, realm=0, shard=0, memo=f"old memo {token_id}", type="TOKEN",
        decline_reward=False, deleted=False, timestamp_range=Range(since, until),
    )
    CustomFeeHistory.objects.create(entity_id=token_id, timestamp_range=Range(since, until))


def nft_fields(token_id: int, serial: int, since: int, until: int | None = None, **overrides) -> dict:
    fields = {
        "token_id": token_id,
        "serial_number": serial,
        "account_id": 1001,
        "created_timestamp": T,
        "deleted": False,
        "metadata": f"m{serial}".encode(),
        "timestamp_range": Range(since, until),
    }
    return {**fields, **overrides}


def create_nft(token_id: int, serial: int, since: int = T, **overrides) -> Nft:
    return Nft.objects.create(**nft_fields(token_id, serial, since, **overrides))


def create_nft_history(token_id: int, serial: int, since: int, until: int, **overrides) -> None:
    NftHistory.objects.create(**nft_fields(token_id, serial, since, until, **overrides))
