"""Opcode traces: a stored contract transaction re-executed on the state just before it.

The transaction is found by its Ethereum hash or its transaction id; its call (sender,
receiver, gas, value, call data) comes from its Ethereum transaction when it has one,
else from its contract result. Ethereum values are weibars, as the EVM counts; a HAPI
contract call's amount is tinybars.
"""

import re

from apps.common.ledger.codecs import encode_entity_id, format_entity_id
from apps.contracts.evm.errors import BadRequest, Web3Error
from apps.contracts.evm.executor import CallTransaction, Execution
from apps.contracts.evm.mirror import (
    WEIBARS_PER_TINYBAR,
    ZERO_ADDRESS,
    block_at,
    entity_id_of_long_zero,
    fetch_one,
    long_zero_address,
)
from apps.contracts.evm.request import BlockSelector
from apps.contracts.evm.tracer import Tracer
from apps.contracts.selectors import contract_transactions

_HASH = re.compile(r"^(0x)?([0-9A-Fa-f]{64})$")
_TRANSACTION_ID = re.compile(r"^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$")
CONTRACT_CREATE = 8

_RESULT = """
    select cr.contract_id, cr.sender_id, cr.payer_account_id, cr.amount, cr.gas_limit, cr.function_parameters,
           t.type, c.initcode
    from contract_result cr
    left join transaction t on t.consensus_timestamp = cr.consensus_timestamp
    left join contract c on c.id = cr.contract_id
    where cr.consensus_timestamp = %s
"""
_ETHEREUM = """
    select gas_limit, value, call_data, to_address from ethereum_transaction
    where consensus_timestamp = %s
"""
# The address an entity shows as of a time: its EVM address, else a 20-byte alias, else long-zero.
_ADDRESS = """
    select coalesce(evm_address, case when length(alias) = 20 then alias end)
    from (
        select evm_address, alias, timestamp_range from entity where id = %(id)s
        union all
        select evm_address, alias, timestamp_range from entity_history where id = %(id)s
    ) e
    where lower(timestamp_range) <= %(ts)s
    order by lower(timestamp_range) desc
    limit 1
"""


def consensus_timestamp_of(transaction_id_or_hash: str) -> int:
    """The consensus timestamp a hash or transaction id names; 400 for neither, 404 for unknown."""
    text = transaction_id_or_hash.strip()
    if not text:
        raise BadRequest("Missing transaction ID or hash")
    if match := _HASH.match(text):
        key = contract_transactions.contract_transaction_by_hash(transaction_hash=bytes.fromhex(match.group(2)))
        if key is None:
            raise Web3Error(404, f"Contract transaction hash not found: {text}")
        return key.consensus_timestamp
    if match := _TRANSACTION_ID.match(text):
        shard, realm, num, seconds, nanos = (int(part) for part in match.groups())
        valid_start = seconds * 10**9 + nanos
        key = None
        if valid_start < 1 << 63:
            payer = encode_entity_id(shard, realm, num)
            key = contract_transactions.contract_transaction_by_id(payer=payer, valid_start=valid_start, nonce=0)
        if key is None:
            raise Web3Error(404, f"Transaction not found: {text}")
        return key.consensus_timestamp
    raise BadRequest(f"Unsupported ID format: '{text}'")


def _address_of(entity_id: int | None, timestamp: int) -> bytes:
    if not entity_id:
        return ZERO_ADDRESS
    row = fetch_one(_ADDRESS, {"id": entity_id, "ts": timestamp})
    return bytes(row[0]) if row and row[0] else long_zero_address(entity_id)


def trace(transaction_id_or_hash: str, *, tracer: Tracer) -> dict:
    timestamp = consensus_timestamp_of(transaction_id_or_hash)
    result = fetch_one(_RESULT, (timestamp,))
    if result is None:
        raise Web3Error(404, f"Contract result not found: {timestamp}")
    contract_id, sender_id, payer_id, amount, gas_limit, parameters, transaction_type, initcode = result
    ethereum = fetch_one(_ETHEREUM, (timestamp,))
    parameters = bytes(parameters or b"")
    if ethereum is not None:
        gas_limit, value, call_data, to_address = ethereum
        value = int.from_bytes(bytes(value or b""), "big", signed=True)
        data = bytes(call_data) if call_data else parameters
        receiver = bytes(to_address) if to_address else None
        if receiver is not None and (receiver_id := entity_id_of_long_zero(receiver)) is not None:
            receiver = _address_of(receiver_id, timestamp)
    else:
        value, data = (amount or 0) * WEIBARS_PER_TINYBAR, parameters
        is_create = transaction_type == CONTRACT_CREATE
        receiver = None if is_create else _address_of(contract_id, timestamp)
        if is_create:
            data = bytes(initcode or b"") + parameters
    sender = _address_of(sender_id or payer_id, timestamp)

    block = block_at(timestamp)
    selector = BlockSelector(number=block.number) if block else BlockSelector(tag="latest")
    execution = Execution(selector, timestamp=timestamp - 1)
    to = ZERO_ADDRESS if receiver is None else receiver
    sender_account = execution.reader.account(sender)
    transaction = CallTransaction(
        sender=sender,
        to=b"" if receiver is None else receiver,
        value=value,
        data=data,
        gas=gas_limit,
        nonce=sender_account.nonce if sender_account else 0,
    )
    outcome = execution.run(transaction, tracer=tracer)
    recipient = execution.reader.account(to) if receiver is not None else None
    return {
        "address": "0x" + to.hex(),
        "contract_id": format_entity_id(recipient.entity_id) if recipient else None,
        "failed": not outcome.success,
        "gas": outcome.gas_used,
        "opcodes": tracer.opcodes,
        "return_value": "0x" + outcome.output.hex(),
    }
