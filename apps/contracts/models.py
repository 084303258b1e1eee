__all__ = [
    "Contract",
    "ContractAction",
    "ContractLog",
    "ContractResult",
    "ContractState",
    "ContractStateChange",
    "ContractTransaction",
    "ContractTransactionHash",
    "EthereumTransaction",
]

from django.contrib.postgres.fields import ArrayField
from django.db import models

from apps.common.ledger.codecs import format_entity_id, format_timestamp


class Contract(models.Model):
    id = models.BigIntegerField(primary_key=True)
    file_id = models.BigIntegerField(null=True)
    initcode = models.BinaryField(null=True)
    runtime_bytecode = models.BinaryField(null=True)

    class Meta:
        managed = False
        db_table = "contract"

    def __str__(self):
        return f"Contract {format_entity_id(self.id)}"


class ContractAction(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "index")
    call_depth = models.IntegerField()
    call_type = models.IntegerField(null=True)
    caller = models.BigIntegerField(null=True)
    caller_type = models.CharField(max_length=8, null=True)
    consensus_timestamp = models.BigIntegerField()
    gas = models.BigIntegerField()
    gas_used = models.BigIntegerField()
    index = models.IntegerField()
    input = models.BinaryField(null=True)
    recipient_account = models.BigIntegerField(null=True)
    recipient_address = models.BinaryField(null=True)
    recipient_contract = models.BigIntegerField(null=True)
    result_data = models.BinaryField(null=True)
    result_data_type = models.IntegerField()
    value = models.BigIntegerField()
    call_operation_type = models.IntegerField(null=True)
    payer_account_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "contract_action"


class ContractLog(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "index")
    bloom = models.BinaryField()
    consensus_timestamp = models.BigIntegerField()
    contract_id = models.BigIntegerField()
    data = models.BinaryField()
    index = models.IntegerField()
    topic0 = models.BinaryField(null=True)
    topic1 = models.BinaryField(null=True)
    topic2 = models.BinaryField(null=True)
    topic3 = models.BinaryField(null=True)
    payer_account_id = models.BigIntegerField()
    root_contract_id = models.BigIntegerField(null=True)
    transaction_hash = models.BinaryField(null=True)
    transaction_index = models.IntegerField(null=True)
    synthetic = models.BooleanField(null=True)

    class Meta:
        managed = False
        db_table = "contract_log"


class ContractResult(models.Model):
    function_parameters = models.BinaryField()
    gas_limit = models.BigIntegerField()
    function_result = models.BinaryField(null=True)
    gas_used = models.BigIntegerField(null=True)
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    amount = models.BigIntegerField(null=True)
    bloom = models.BinaryField(null=True)
    call_result = models.BinaryField(null=True)
    contract_id = models.BigIntegerField()
    created_contract_ids = ArrayField(models.BigIntegerField(), null=True)
    error_message = models.TextField(null=True)
    payer_account_id = models.BigIntegerField()
    sender_id = models.BigIntegerField(null=True)
    failed_initcode = models.BinaryField(null=True)
    transaction_hash = models.BinaryField(null=True)
    transaction_index = models.IntegerField(null=True)
    transaction_result = models.SmallIntegerField()
    transaction_nonce = models.IntegerField()
    gas_consumed = models.BigIntegerField(null=True)

    class Meta:
        managed = False
        db_table = "contract_result"

    def __str__(self):
        return f"Contract result {format_timestamp(self.consensus_timestamp)} of {format_entity_id(self.contract_id)}"


class ContractState(models.Model):
    pk = models.CompositePrimaryKey("contract_id", "slot")
    contract_id = models.BigIntegerField()
    created_timestamp = models.BigIntegerField()
    modified_timestamp = models.BigIntegerField()
    slot = models.BinaryField()
    value = models.BinaryField(null=True)

    class Meta:
        managed = False
        db_table = "contract_state"


class ContractStateChange(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "contract_id", "slot")
    consensus_timestamp = models.BigIntegerField()
    contract_id = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    slot = models.BinaryField()
    value_read = models.BinaryField()
    value_written = models.BinaryField(null=True)
    migration = models.BooleanField()

    class Meta:
        managed = False
        db_table = "contract_state_change"


class ContractTransaction(models.Model):
    pk = models.CompositePrimaryKey("consensus_timestamp", "entity_id")
    consensus_timestamp = models.BigIntegerField()
    entity_id = models.BigIntegerField()
    contract_ids = ArrayField(models.BigIntegerField())
    payer_account_id = models.BigIntegerField()

    class Meta:
        managed = False
        db_table = "contract_transaction"


class ContractTransactionHash(models.Model):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("consensus_timestamp", "hash")
    consensus_timestamp = models.BigIntegerField()
    hash = models.BinaryField()
    payer_account_id = models.BigIntegerField()
    entity_id = models.BigIntegerField()
    transaction_result = models.SmallIntegerField()

    class Meta:
        managed = False
        db_table = "contract_transaction_hash"


class EthereumTransaction(models.Model):
    call_data_id = models.BigIntegerField(null=True)
    call_data = models.BinaryField(null=True)
    chain_id = models.BinaryField(null=True)
    consensus_timestamp = models.BigIntegerField(primary_key=True)
    data = models.BinaryField()
    gas_limit = models.BigIntegerField()
    gas_price = models.BinaryField(null=True)
    hash = models.BinaryField()
    max_fee_per_gas = models.BinaryField(null=True)
    max_gas_allowance = models.BigIntegerField()
    max_priority_fee_per_gas = models.BinaryField(null=True)
    nonce = models.BigIntegerField()
    payer_account_id = models.BigIntegerField()
    recovery_id = models.SmallIntegerField(null=True)
    signature_r = models.BinaryField()
    signature_s = models.BinaryField()
    signature_v = models.BinaryField(null=True)
    to_address = models.BinaryField(null=True)
    type = models.SmallIntegerField()
    value = models.BinaryField(null=True)
    authorization_list = models.JSONField(null=True)
    access_list = models.JSONField(null=True)

    class Meta:
        managed = False
        db_table = "ethereum_transaction"
