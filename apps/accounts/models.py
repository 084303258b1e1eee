__all__ = [
    "AccountBalance",
    "AccountBalanceFile",
    "AccountBalanceOld",
    "CryptoAllowance",
    "CryptoAllowanceHistory",
    "Entity",
    "EntityHistory",
    "EntityStake",
    "EntityStakeHistory",
    "EntityType",
    "LiveHash",
    "StakingRewardTransfer",
    "TokenAccount",
    "TokenAccountHistory",
    "TokenBalance",
    "TokenBalanceOld",
]

from django.contrib.postgres.fields import BigIntegerRangeField
from django.db import models

from apps.common.ledger.codecs import format_entity_id


class EntityType(models.TextChoices):
    UNKNOWN = "UNKNOWN"
    ACCOUNT = "ACCOUNT"
    CONTRACT = "CONTRACT"
    FILE = "FILE"
    TOPIC = "TOPIC"
    TOKEN = "TOKEN"
    SCHEDULE = "SCHEDULE"


class AccountBalanceColumns(models.Model):
    """The columns of account_balance and account_balance_old."""

    consensus_timestamp = models.BigIntegerField()
    balance = models.BigIntegerField()
    account_id = models.BigIntegerField()

    class Meta:
        abstract = True


class AccountBalance(AccountBalanceColumns):
    pk = models.CompositePrimaryKey("account_id", "consensus_timestamp")

    class Meta:
        managed = False
        db_table = "account_balance"


class AccountBalanceFile(models.Model):
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    count = models.BigIntegerField()
    load_start = models.BigIntegerField()
    load_end = models.BigIntegerField()
    file_hash = models.CharField(max_length=96, null=True)
    name = models.CharField(max_length=250)
    bytes = models.BinaryField(null=True)
    time_offset = models.IntegerField()
    synthetic = models.BooleanField()

    class Meta:
        managed = False
        db_table = "account_balance_file"


class AccountBalanceOld(AccountBalanceColumns):
    pk = models.CompositePrimaryKey("consensus_timestamp", "account_id")

    class Meta:
        managed = False
        db_table = "account_balance_old"


class CryptoAllowanceColumns(models.Model):
    """The columns of crypto_allowance and crypto_allowance_history."""

    amount_granted = models.BigIntegerField()
    owner = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    spender = models.BigIntegerField()
    timestamp_range = BigIntegerRangeField()
    amount = models.BigIntegerField()

    class Meta:
        abstract = True


class CryptoAllowance(CryptoAllowanceColumns):
    pk = models.CompositePrimaryKey("owner", "spender")

    class Meta:
        managed = False
        db_table = "crypto_allowance"


class CryptoAllowanceHistory(CryptoAllowanceColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("owner", "spender", "timestamp_range")

    class Meta:
        managed = False
        db_table = "crypto_allowance_history"


class EntityColumns(models.Model):
    """The columns of entity and entity_history, but id (entity's primary key)."""

    auto_renew_account_id = models.BigIntegerField(null=True)
    auto_renew_period = models.BigIntegerField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    deleted = models.BooleanField(null=True)
    expiration_timestamp = models.BigIntegerField(null=True)
    key = models.BinaryField(null=True)
    memo = models.TextField()
    num = models.BigIntegerField()
    public_key = models.TextField(null=True)
    proxy_account_id = models.BigIntegerField(null=True)
    realm = models.BigIntegerField()
    shard = models.BigIntegerField()
    receiver_sig_required = models.BooleanField(null=True)
    max_automatic_token_associations = models.IntegerField(null=True)
    timestamp_range = BigIntegerRangeField()
    type = models.CharField(max_length=8, choices=EntityType.choices)
    alias = models.BinaryField(null=True)
    ethereum_nonce = models.BigIntegerField(null=True)
    evm_address = models.BinaryField(null=True)
    decline_reward = models.BooleanField()
    staked_account_id = models.BigIntegerField(null=True)
    staked_node_id = models.BigIntegerField(null=True)
    stake_period_start = models.BigIntegerField(null=True)
    obtainer_id = models.BigIntegerField(null=True)
    permanent_removal = models.BooleanField(null=True)
    balance = models.BigIntegerField(null=True)
    balance_timestamp = models.BigIntegerField(null=True)
    delegation_address = models.BinaryField(null=True)

    class Meta:
        abstract = True


class Entity(EntityColumns):
    id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "entity"
        verbose_name = "account"

    def __str__(self):
        return f"{self.get_type_display()} {format_entity_id(self.id)}"


class EntityHistory(EntityColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("id", "timestamp_range")
    id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "entity_history"


class EntityStakeColumns(models.Model):
    """The columns of entity_stake and entity_stake_history, but id (entity_stake's primary key)."""

    end_stake_period = models.BigIntegerField()
    pending_reward = models.BigIntegerField()
    staked_node_id_start = models.BigIntegerField()
    staked_to_me = models.BigIntegerField()
    stake_total_start = models.BigIntegerField()
    timestamp_range = BigIntegerRangeField()

    class Meta:
        abstract = True


class EntityStake(EntityStakeColumns):
    id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "entity_stake"


class EntityStakeHistory(EntityStakeColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("id", "timestamp_range")
    id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "entity_stake_history"


class LiveHash(models.Model):
    livehash = models.BinaryField(null=True)
    consensus_timestamp = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "live_hash"


class StakingRewardTransfer(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "account_id")
    account_id = models.BigIntegerField()
    amount = models.BigIntegerField()
    consensus_timestamp = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "staking_reward_transfer"


class TokenAccountColumns(models.Model):
    """The columns of token_account and token_account_history."""

    account_id = models.BigIntegerField()
    associated = models.BooleanField()
    automatic_association = models.BooleanField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    freeze_status = models.SmallIntegerField(null=True)
    kyc_status = models.SmallIntegerField(null=True)
    timestamp_range = BigIntegerRangeField()
    token_id = models.BigIntegerField()
    balance = models.BigIntegerField()
    balance_timestamp = models.BigIntegerField(null=True)

    class Meta:
        abstract = True


class TokenAccount(TokenAccountColumns):
    pk = models.CompositePrimaryKey("account_id", "token_id")

    class Meta:
        managed = False
        db_table = "token_account"


class TokenAccountHistory(TokenAccountColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("account_id", "token_id", "timestamp_range")

    class Meta:
        managed = False
        db_table = "token_account_history"


class TokenBalanceColumns(models.Model):
    """The columns of token_balance and token_balance_old."""

    consensus_timestamp = models.BigIntegerField()
    account_id = models.BigIntegerField()
    balance = models.BigIntegerField()
    token_id = models.BigIntegerField()

    class Meta:
        abstract = True


class TokenBalance(TokenBalanceColumns):
    pk = models.CompositePrimaryKey("account_id", "token_id", "consensus_timestamp")

    class Meta:
        managed = False
        db_table = "token_balance"


class TokenBalanceOld(TokenBalanceColumns):
    pk = models.CompositePrimaryKey("consensus_timestamp", "account_id", "token_id")

    class Meta:
        managed = False
        db_table = "token_balance_old"
