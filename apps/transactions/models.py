__all__ = [
    "AssessedCustomFee",
    "CryptoTransfer",
    "EntityTransaction",
    "ErrataType",
    "NonFeeTransfer",
    "Prng",
    "TokenTransfer",
    "Transaction",
    "TransactionHash",
    "TransactionSignature",
]

from django.contrib.postgres.fields import ArrayField
from django.db import models

from apps.common.ledger.codecs import format_entity_id, format_timestamp


class ErrataType(models.TextChoices):
    INSERT = "INSERT"
    DELETE = "DELETE"


class AssessedCustomFee(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "collector_account_id", "amount")
    amount = models.BigIntegerField()
    collector_account_id = models.BigIntegerField()
    consensus_timestamp = models.BigIntegerField()
    token_id = models.BigIntegerField(null=True)
    effective_payer_account_ids = ArrayField(models.BigIntegerField())
    payer_account_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "assessed_custom_fee"


class CryptoTransfer(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "entity_id", "amount")
    entity_id = models.BigIntegerField()
    consensus_timestamp = models.BigIntegerField()
    amount = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    is_approval = models.BooleanField(null=True)
    errata = models.CharField(max_length=6, choices=ErrataType.choices, null=True)

    class Meta:
        managed = False
        db_table = "crypto_transfer"


class EntityTransaction(models.Model):
    pk = models.CompositePrimaryKey("entity_id", "consensus_timestamp")
    consensus_timestamp = models.BigIntegerField()
    entity_id = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    result = models.SmallIntegerField()
    type = models.SmallIntegerField()

    class Meta:
        managed = False
        db_table = "entity_transaction"


class NonFeeTransfer(models.Model):
    # No primary key in the mirror schema; entity_id is nullable, so these only approximate a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "amount")
    entity_id = models.BigIntegerField(null=True)
    consensus_timestamp = models.BigIntegerField()
    amount = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    is_approval = models.BooleanField(null=True)

    class Meta:
        managed = False
        db_table = "non_fee_transfer"


class Prng(models.Model):
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    range = models.IntegerField()
    prng_bytes = models.BinaryField(null=True)
    prng_number = models.IntegerField(null=True)
    payer_account_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "prng"


class TokenTransfer(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "token_id", "account_id")
    token_id = models.BigIntegerField()
    account_id = models.BigIntegerField()
    consensus_timestamp = models.BigIntegerField()
    amount = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    is_approval = models.BooleanField(null=True)

    class Meta:
        managed = False
        db_table = "token_transfer"


class Transaction(models.Model):
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    type = models.SmallIntegerField()
    result = models.SmallIntegerField()
    payer_account_id = models.BigIntegerField()
    valid_start_ns = models.BigIntegerField()
    valid_duration_seconds = models.BigIntegerField(null=True)
    node_account_id = models.BigIntegerField(null=True)
    entity_id = models.BigIntegerField(null=True)
    initial_balance = models.BigIntegerField(null=True)
    max_fee = models.BigIntegerField(null=True)
    charged_tx_fee = models.BigIntegerField(null=True)
    memo = models.BinaryField(null=True)
    transaction_hash = models.BinaryField(null=True)
    transaction_bytes = models.BinaryField(null=True)
    scheduled = models.BooleanField()
    nonce = models.IntegerField()
    parent_consensus_timestamp = models.BigIntegerField(null=True)
    errata = models.CharField(max_length=6, choices=ErrataType.choices, null=True)
    index = models.IntegerField(null=True)
    nft_transfer = models.JSONField(null=True)
    itemized_transfer = models.JSONField(null=True)
    transaction_record_bytes = models.BinaryField(null=True)
    max_custom_fees = ArrayField(models.BinaryField(), null=True)
    batch_key = models.BinaryField(null=True)
    inner_transactions = ArrayField(models.BigIntegerField(), null=True)
    high_volume = models.BooleanField()
    congestion_pricing_multiplier = models.BigIntegerField(null=True)
    high_volume_pricing_multiplier = models.BigIntegerField(null=True)

    class Meta:
        managed = False
        db_table = "transaction"

    def __str__(self):
        # The API's transaction id, `0.0.8-1700000000-000000001`; a child's nonce beside it.
        valid_start = format_timestamp(self.valid_start_ns).replace(".", "-")
        nonce = f" nonce {self.nonce}" if self.nonce else ""
        return f"Transaction {format_entity_id(self.payer_account_id)}-{valid_start}{nonce}"


class TransactionHash(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "hash")
    consensus_timestamp = models.BigIntegerField()
    hash = models.BinaryField()
    payer_account_id = models.BigIntegerField(null=True)
    hash_suffix = models.BinaryField(null=True)

    class Meta:
        managed = False
        db_table = "transaction_hash"


class TransactionSignature(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "public_key_prefix")
    consensus_timestamp = models.BigIntegerField()
    public_key_prefix = models.BinaryField()
    entity_id = models.BigIntegerField(null=True)
    signature = models.BinaryField()
    type = models.SmallIntegerField(null=True)

    class Meta:
        managed = False
        db_table = "transaction_signature"
