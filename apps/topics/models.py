__all__ = [
    "Topic",
    "TopicHistory",
    "TopicMessage",
    "TopicMessageLookup",
]

from django.contrib.postgres.fields import BigIntegerRangeField
from django.db import models

from apps.common.ledger.codecs import format_entity_id


class TopicColumns(models.Model):
    """The columns of topic and topic_history, but id (topic's primary key)."""

    admin_key = models.BinaryField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    fee_exempt_key_list = models.BinaryField(null=True)
    fee_schedule_key = models.BinaryField(null=True)
    submit_key = models.BinaryField(null=True)
    timestamp_range = BigIntegerRangeField()

    class Meta:
        abstract = True


class Topic(TopicColumns):
    id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "topic"

    def __str__(self):
        return f"Topic {format_entity_id(self.id)}"


class TopicHistory(TopicColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("id", "timestamp_range")
    id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "topic_history"


class TopicMessage(models.Model):
    # No primary key in the mirror schema. (topic_id, sequence_number) is unique, but
    # each message is one transaction, so its consensus timestamp identifies it too,
    # and a single-column key lets the admin show messages.
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    message = models.BinaryField()
    running_hash = models.BinaryField()
    sequence_number = models.BigIntegerField()
    running_hash_version = models.SmallIntegerField(null=True)
    chunk_num = models.IntegerField(null=True)
    chunk_total = models.IntegerField(null=True)
    payer_account_id = models.BigIntegerField(null=True)
    valid_start_timestamp = models.BigIntegerField(null=True)
    topic_id = models.BigIntegerField()
    initial_transaction_id = models.BinaryField(null=True)

    class Meta:
        managed = False
        db_table = "topic_message"

    def __str__(self):
        return f"Topic {format_entity_id(self.topic_id)} message {self.sequence_number}"


class TopicMessageLookup(models.Model):
    pk = models.CompositePrimaryKey("topic_id", "partition")
    partition = models.TextField()
    sequence_number_range = BigIntegerRangeField()
    timestamp_range = BigIntegerRangeField()
    topic_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "topic_message_lookup"
