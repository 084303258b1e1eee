__all__ = [
    "AirdropState",
    "CustomFee",
    "CustomFeeHistory",
    "Nft",
    "NftAllowance",
    "NftAllowanceHistory",
    "NftHistory",
    "Token",
    "TokenAirdrop",
    "TokenAirdropHistory",
    "TokenAllowance",
    "TokenAllowanceHistory",
    "TokenHistory",
    "TokenPauseStatus",
    "TokenSupplyType",
    "TokenType",
]

from django.contrib.postgres.fields import BigIntegerRangeField
from django.db import models

from apps.common.ledger.codecs import format_entity_id


class AirdropState(models.TextChoices):
    CANCELLED = "CANCELLED"
    CLAIMED = "CLAIMED"
    PENDING = "PENDING"


class TokenPauseStatus(models.TextChoices):
    NOT_APPLICABLE = "NOT_APPLICABLE"
    PAUSED = "PAUSED"
    UNPAUSED = "UNPAUSED"


class TokenSupplyType(models.TextChoices):
    INFINITE = "INFINITE"
    FINITE = "FINITE"


class TokenType(models.TextChoices):
    FUNGIBLE_COMMON = "FUNGIBLE_COMMON"
    NON_FUNGIBLE_UNIQUE = "NON_FUNGIBLE_UNIQUE"


class CustomFeeColumns(models.Model):
    """The columns of custom_fee and custom_fee_history, but entity_id
    (custom_fee's primary key).
    """

    fixed_fees = models.JSONField(null=True)
    fractional_fees = models.JSONField(null=True)
    royalty_fees = models.JSONField(null=True)
    timestamp_range = BigIntegerRangeField()

    class Meta:
        abstract = True


class CustomFee(CustomFeeColumns):
    entity_id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "custom_fee"


class CustomFeeHistory(CustomFeeColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("entity_id", "timestamp_range")
    entity_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "custom_fee_history"


class NftColumns(models.Model):
    """The columns of nft and nft_history."""

    account_id = models.BigIntegerField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    deleted = models.BooleanField(null=True)
    metadata = models.BinaryField(null=True)
    serial_number = models.BigIntegerField()
    token_id = models.BigIntegerField()
    delegating_spender = models.BigIntegerField(null=True)
    spender = models.BigIntegerField(null=True)
    timestamp_range = BigIntegerRangeField()

    class Meta:
        abstract = True


class Nft(NftColumns):
    pk = models.CompositePrimaryKey("token_id", "serial_number")

    class Meta:
        managed = False
        db_table = "nft"


class NftAllowanceColumns(models.Model):
    """The columns of nft_allowance and nft_allowance_history."""

    approved_for_all = models.BooleanField()
    owner = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    spender = models.BigIntegerField()
    timestamp_range = BigIntegerRangeField()
    token_id = models.BigIntegerField()

    class Meta:
        abstract = True


class NftAllowance(NftAllowanceColumns):
    pk = models.CompositePrimaryKey("owner", "spender", "token_id")

    class Meta:
        managed = False
        db_table = "nft_allowance"


class NftAllowanceHistory(NftAllowanceColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("owner", "spender", "token_id", "timestamp_range")

    class Meta:
        managed = False
        db_table = "nft_allowance_history"


class NftHistory(NftColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("token_id", "serial_number", "timestamp_range")

    class Meta:
        managed = False
        db_table = "nft_history"


class TokenColumns(models.Model):
    """The columns of token and token_history, but token_id (token's primary key)."""

    created_timestamp = models.BigIntegerField()
    decimals = models.BigIntegerField()
    freeze_default = models.BooleanField()
    freeze_key = models.BinaryField(null=True)
    initial_supply = models.BigIntegerField()
    kyc_key = models.BinaryField(null=True)
    name = models.CharField(max_length=100)
    supply_key = models.BinaryField(null=True)
    symbol = models.CharField(max_length=100)
    total_supply = models.BigIntegerField()
    treasury_account_id = models.BigIntegerField()
    wipe_key = models.BinaryField(null=True)
    max_supply = models.BigIntegerField()
    supply_type = models.CharField(max_length=8, choices=TokenSupplyType.choices)
    type = models.CharField(max_length=19, choices=TokenType.choices)
    fee_schedule_key = models.BinaryField(null=True)
    pause_key = models.BinaryField(null=True)
    pause_status = models.CharField(max_length=14, choices=TokenPauseStatus.choices)
    timestamp_range = BigIntegerRangeField()
    freeze_status = models.SmallIntegerField()
    kyc_status = models.SmallIntegerField()
    metadata = models.BinaryField(null=True)
    metadata_key = models.BinaryField(null=True)

    class Meta:
        abstract = True


class Token(TokenColumns):
    token_id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "token"

    def __str__(self):
        return f"Token {format_entity_id(self.token_id)}"


class TokenAirdropColumns(models.Model):
    """The columns of token_airdrop and token_airdrop_history."""

    amount = models.BigIntegerField(null=True)
    receiver_account_id = models.BigIntegerField()
    sender_account_id = models.BigIntegerField()
    serial_number = models.BigIntegerField()
    state = models.CharField(max_length=9, choices=AirdropState.choices)
    timestamp_range = BigIntegerRangeField()
    token_id = models.BigIntegerField()

    class Meta:
        abstract = True


class TokenAirdrop(TokenAirdropColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey(
        "sender_account_id",
        "receiver_account_id",
        "token_id",
        "serial_number",
    )

    class Meta:
        managed = False
        db_table = "token_airdrop"


class TokenAirdropHistory(TokenAirdropColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey(
        "sender_account_id",
        "receiver_account_id",
        "token_id",
        "serial_number",
        "timestamp_range",
    )

    class Meta:
        managed = False
        db_table = "token_airdrop_history"


class TokenAllowanceColumns(models.Model):
    """The columns of token_allowance and token_allowance_history."""

    amount_granted = models.BigIntegerField()
    owner = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    spender = models.BigIntegerField()
    timestamp_range = BigIntegerRangeField()
    token_id = models.BigIntegerField()
    amount = models.BigIntegerField()

    class Meta:
        abstract = True


class TokenAllowance(TokenAllowanceColumns):
    pk = models.CompositePrimaryKey("owner", "spender", "token_id")

    class Meta:
        managed = False
        db_table = "token_allowance"


class TokenAllowanceHistory(TokenAllowanceColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("owner", "spender", "token_id", "timestamp_range")

    class Meta:
        managed = False
        db_table = "token_allowance_history"


class TokenHistory(TokenColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("token_id", "timestamp_range")
    token_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "token_history"
