"""Rows of contract results and what goes with them, for the results and actions tests."""

from apps.contracts.models import (
    ContractAction,
    ContractLog,
    ContractResult,
    ContractStateChange,
    ContractTransaction,
    ContractTransactionHash,
    EthereumTransaction,
)
from apps.transactions.tests.factories import create_transaction

SUCCESS = 22


def eth_hash(timestamp: int) -> bytes:
    return timestamp.to_bytes(32, "big")


def create_result(
    timestamp: int, contract_id: int, *, payer: int = 8001, involved=(), **overrides
) -> ContractResult:
    """A contract result, with the contract transaction rows the single-result routes look up."""
    fields = {
        "consensus_timestamp": timestamp,
        "contract_id": contract_id,
        "payer_account_id": payer,
        "sender_id": payer,
        "amount": 30,
        "bloom": b"\x05\x05",
        "call_result": b"\x06\x06",
        "created_contract_ids": [],
        "error_message": "",
        "function_parameters": b"\x07\x07",
        "function_result": None,
        "gas_consumed": 100,
        "gas_limit": 1000,
        "gas_used": 90,
        "transaction_hash": eth_hash(timestamp),
        "transaction_index": 1,
        "transaction_nonce": 0,
        "transaction_result": SUCCESS,
    }
    result = ContractResult.objects.create(**{**fields, **overrides})
    ids = list(dict.fromkeys([contract_id, payer, *involved]))
    ContractTransaction.objects.bulk_create(
        ContractTransaction(
            consensus_timestamp=timestamp, entity_id=entity, contract_ids=ids, payer_account_id=payer
        )
        for entity in ids
    )
    ContractTransactionHash.objects.create(
        consensus_timestamp=timestamp,
        hash=result.transaction_hash,
        payer_account_id=payer,
        entity_id=contract_id,
        transaction_result=result.transaction_result,
    )
    return result


def create_result_transaction(result: ContractResult, valid_start: int, **overrides):
    """The transaction row a transaction id finds the result by."""
    return create_transaction(
        result.consensus_timestamp,
        result.payer_account_id,
        fee=0,
        hashed=False,
        valid_start_ns=valid_start,
        type=7,
        result=result.transaction_result,
        **overrides,
    )


def create_ethereum_transaction(result: ContractResult, **overrides) -> EthereumTransaction:
    fields = {
        "consensus_timestamp": result.consensus_timestamp,
        "payer_account_id": result.payer_account_id,
        "hash": result.transaction_hash,
        "data": b"\x00",
        "type": 2,
        "chain_id": b"\x01\x2a",
        "nonce": 4,
        "gas_limit": 5000,
        "gas_price": (12_500_000_000_000_000_000).to_bytes(8, "big"),
        "max_fee_per_gas": b"\x40",
        "max_priority_fee_per_gas": b"\x15",
        "max_gas_allowance": 10_000,
        "value": (20 * 10**10).to_bytes(6, "big"),
        "to_address": bytes.fromhex("00" * 18 + "17" + "71"),
        "call_data": b"\x09\x09",
        "recovery_id": 1,
        "signature_r": b"\xd6" * 32,
        "signature_s": b"\x24" * 32,
        "signature_v": b"\x1b",
        "access_list": None,
        "authorization_list": None,
    }
    return EthereumTransaction.objects.create(**{**fields, **overrides})


def create_log(timestamp: int, contract_id: int, index: int, **overrides) -> ContractLog:
    fields = {
        "consensus_timestamp": timestamp,
        "contract_id": contract_id,
        "index": index,
        "payer_account_id": 8001,
        "root_contract_id": contract_id,
        "bloom": b"\x01\x23",
        "data": b"\x01\x23",
        "topic0": b"\x97" * 32,
        "topic1": b"\x0a",
        "topic2": None,
        "topic3": None,
        "transaction_hash": eth_hash(timestamp),
        "transaction_index": 1,
    }
    return ContractLog.objects.create(**{**fields, **overrides})


def create_state_change(timestamp: int, contract_id: int, slot: bytes, **overrides) -> ContractStateChange:
    fields = {
        "consensus_timestamp": timestamp,
        "contract_id": contract_id,
        "payer_account_id": 8001,
        "slot": slot,
        "value_read": b"\x01",
        "value_written": b"\xa1",
        "migration": False,
    }
    return ContractStateChange.objects.create(**{**fields, **overrides})


def create_action(timestamp: int, index: int, *, payer: int = 8001, **overrides) -> ContractAction:
    fields = {
        "consensus_timestamp": timestamp,
        "payer_account_id": payer,
        "index": index,
        "call_depth": index,
        "call_operation_type": 1,
        "call_type": 1,
        "caller": 8001,
        "caller_type": "ACCOUNT",
        "gas": 2000,
        "gas_used": 100,
        "input": b"\x0a\x0b",
        "recipient_account": None,
        "recipient_address": None,
        "recipient_contract": 5001,
        "result_data": b"\x0c",
        "result_data_type": 11,
        "value": 5,
    }
    return ContractAction.objects.create(**{**fields, **overrides})
