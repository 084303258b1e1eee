"""Rows for the account sub-route tests (`/accounts/{id}/nfts`, allowances, airdrops, ...)."""

from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.models import TokenAccount
from apps.tokens.models import Nft, NftAllowance, Token, TokenAirdrop, TokenAllowance


def create_nft(token: int, serial: int, *, account: int = 1001, spender: int | None = None, **overrides) -> Nft:
    fields = {
        "account_id": account,
        "created_timestamp": token * 100 + serial,
        "deleted": False,
        "metadata": bytes([serial]),
        "serial_number": serial,
        "token_id": token,
        "spender": spender,
        "timestamp_range": Range(token * 100 + serial, None),
    }
    return Nft.objects.create(**{**fields, **overrides})


def create_token_allowance(owner: int, spender: int, token: int, amount: int = 10) -> None:
    TokenAllowance.objects.create(
        owner=owner,
        spender=spender,
        token_id=token,
        amount=amount,
        amount_granted=amount + 1,
        payer_account_id=owner,
        timestamp_range=Range(spender + token, None),
    )


def create_nft_allowance(owner: int, spender: int, token: int, *, approved_for_all: bool = True) -> None:
    NftAllowance.objects.create(
        owner=owner,
        spender=spender,
        token_id=token,
        approved_for_all=approved_for_all,
        payer_account_id=owner,
        timestamp_range=Range(owner + spender + token, spender + token + owner + 5),
    )


def create_airdrop(sender: int, receiver: int, token: int, serial: int = 0, *, state: str = "PENDING") -> None:
    TokenAirdrop.objects.create(
        sender_account_id=sender,
        receiver_account_id=receiver,
        token_id=token,
        serial_number=serial,
        amount=None if serial else 10,
        state=state,
        timestamp_range=Range(sender + receiver + token + serial, None),
    )


def create_token(token: int, *, decimals: int = 2, freeze_status: int = 0, kyc_status: int = 0) -> None:
    Token.objects.create(
        token_id=token,
        decimals=decimals,
        freeze_status=freeze_status,
        kyc_status=kyc_status,
        timestamp_range=Range(0, None),
        created_timestamp=1,
        freeze_default=False,
        treasury_account_id=98,
        initial_supply=0,
        total_supply=0,
        max_supply=0,
        name="token",
        symbol="T",
        supply_type="INFINITE",
        type="FUNGIBLE_COMMON",
        pause_status="NOT_APPLICABLE",
    )


def create_token_relationship(account: int, token: int, **overrides) -> None:
    fields = {
        "account_id": account,
        "token_id": token,
        "associated": True,
        "automatic_association": False,
        "balance": token,
        "created_timestamp": token,
        "freeze_status": None,
        "kyc_status": None,
        "timestamp_range": Range(0, None),
    }
    TokenAccount.objects.create(**{**fields, **overrides})
