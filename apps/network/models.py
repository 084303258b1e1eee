__all__ = [
    "AddressBook",
    "AddressBookEntry",
    "AddressBookServiceEndpoint",
    "FileData",
    "Ledger",
    "NetworkFreeze",
    "NetworkStake",
    "Node",
    "NodeHistory",
    "NodeStake",
    "ReconciliationJob",
    "RegisteredNode",
    "RegisteredNodeHistory",
    "RegisteredNodeType",
]

from django.contrib.postgres.fields import ArrayField, BigIntegerRangeField
from django.db import models


class AddressBook(models.Model):
    start_consensus_timestamp = models.BigIntegerField(primary_key=True)
    end_consensus_timestamp = models.BigIntegerField(null=True)
    file_id = models.BigIntegerField()
    node_count = models.IntegerField(null=True)
    file_data = models.BinaryField()

    class Meta:
        managed = False
        db_table = "address_book"


class AddressBookEntry(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "node_id")
    consensus_timestamp = models.BigIntegerField()
    memo = models.CharField(max_length=128, null=True)
    public_key = models.CharField(max_length=1024, null=True)
    node_id = models.BigIntegerField()
    node_account_id = models.BigIntegerField()
    node_cert_hash = models.BinaryField(null=True)
    description = models.CharField(max_length=100, null=True)
    stake = models.BigIntegerField(null=True)

    class Meta:
        managed = False
        db_table = "address_book_entry"


class AddressBookServiceEndpoint(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey(
        "consensus_timestamp",
        "node_id",
        "ip_address_v4",
        "port",
        "domain_name",
    )
    consensus_timestamp = models.BigIntegerField()
    ip_address_v4 = models.CharField(max_length=15)
    node_id = models.BigIntegerField()
    port = models.IntegerField()
    domain_name = models.CharField(max_length=253)

    class Meta:
        managed = False
        db_table = "address_book_service_endpoint"


class FileData(models.Model):
    file_data = models.BinaryField(null=True)
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    entity_id = models.BigIntegerField()
    transaction_type = models.SmallIntegerField()

    class Meta:
        managed = False
        db_table = "file_data"


class Ledger(models.Model):
    consensus_timestamp = models.BigIntegerField()
    history_proof_verification_key = models.BinaryField()
    ledger_id = models.BinaryField(primary_key=True)
    node_contributions = models.JSONField()

    class Meta:
        managed = False
        db_table = "ledger"


class NetworkFreeze(models.Model):
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    end_time = models.BigIntegerField(null=True)
    file_hash = models.BinaryField()
    file_id = models.BigIntegerField(null=True)
    payer_account_id = models.BigIntegerField()
    start_time = models.BigIntegerField()
    type = models.SmallIntegerField()

    class Meta:
        managed = False
        db_table = "network_freeze"


class NetworkStake(models.Model):
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    epoch_day = models.BigIntegerField()
    max_staking_reward_rate_per_hbar = models.BigIntegerField()
    node_reward_fee_denominator = models.BigIntegerField()
    node_reward_fee_numerator = models.BigIntegerField()
    stake_total = models.BigIntegerField()
    staking_period = models.BigIntegerField()
    staking_period_duration = models.BigIntegerField()
    staking_periods_stored = models.BigIntegerField()
    staking_reward_fee_denominator = models.BigIntegerField()
    staking_reward_fee_numerator = models.BigIntegerField()
    staking_reward_rate = models.BigIntegerField()
    staking_start_threshold = models.BigIntegerField()
    max_stake_rewarded = models.BigIntegerField()
    max_total_reward = models.BigIntegerField()
    reserved_staking_rewards = models.BigIntegerField()
    reward_balance_threshold = models.BigIntegerField()
    unreserved_staking_reward_balance = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "network_stake"


class NodeColumns(models.Model):
    """The columns of node and node_history, but node_id (node's primary key)."""

    admin_key = models.BinaryField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    deleted = models.BooleanField()
    timestamp_range = BigIntegerRangeField()
    decline_reward = models.BooleanField()
    grpc_proxy_endpoint = models.JSONField(null=True)
    account_id = models.BigIntegerField(null=True)
    associated_registered_nodes = ArrayField(models.BigIntegerField(), null=True)

    class Meta:
        abstract = True


class Node(NodeColumns):
    node_id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "node"


class NodeHistory(NodeColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("node_id", "timestamp_range")
    node_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "node_history"


class NodeStake(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "node_id")
    consensus_timestamp = models.BigIntegerField()
    epoch_day = models.BigIntegerField()
    node_id = models.BigIntegerField()
    reward_rate = models.BigIntegerField()
    stake = models.BigIntegerField()
    stake_rewarded = models.BigIntegerField()
    staking_period = models.BigIntegerField()
    max_stake = models.BigIntegerField()
    min_stake = models.BigIntegerField()
    stake_not_rewarded = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "node_stake"


class ReconciliationJob(models.Model):
    consensus_timestamp = models.BigIntegerField()
    count = models.BigIntegerField()
    error = models.TextField()
    timestamp_end = models.DateTimeField(null=True)
    timestamp_start = models.DateTimeField(primary_key=True)
    status = models.SmallIntegerField()

    class Meta:
        managed = False
        db_table = "reconciliation_job"


class RegisteredNodeType(models.IntegerChoices):
    """What a registered node's service endpoint serves, as `registered_node.type` stores it
    (the distinct types of its endpoints); UNKNOWN is an endpoint of none of the others."""

    UNKNOWN = 0
    BLOCK_NODE = 1
    GENERAL_SERVICE = 2
    MIRROR_NODE = 3
    RPC_RELAY = 4


class RegisteredNodeColumns(models.Model):
    """The columns of registered_node and registered_node_history, but registered_node_id
    (registered_node's primary key).
    """

    admin_key = models.BinaryField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    deleted = models.BooleanField()
    description = models.CharField(max_length=100, null=True)
    service_endpoints = models.JSONField(null=True)
    timestamp_range = BigIntegerRangeField()
    type = ArrayField(models.SmallIntegerField())

    class Meta:
        abstract = True


class RegisteredNode(RegisteredNodeColumns):
    registered_node_id = models.BigIntegerField(primary_key=True)

    class Meta:
        managed = False
        db_table = "registered_node"

    def __str__(self):
        return f"Registered node {self.registered_node_id}"


class RegisteredNodeHistory(RegisteredNodeColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("registered_node_id", "timestamp_range")
    registered_node_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "registered_node_history"
