"""Runs a call, an estimate or a replay on py-evm over the mirror state.

`call` answers the return data; `estimate` the gas the upstream's binary search
finds; failures raise the web3 errors (`errors.py`). A request's executions share
one `MirrorReader`, so the estimate's repeated runs read each row once, and one
deadline, so no request holds a worker past `WEB3["TIMEOUT_SECONDS"]`.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from eth.constants import CREATE_CONTRACT_ADDRESS
from eth.exceptions import InsufficientFunds, OutOfGas, Revert
from eth.vm.execution_context import ExecutionContext
from eth.vm.forks.berlin.transactions import calculate_txn_intrinsic_gas_berlin
from eth_abi import decode

from apps.contracts.evm.errors import ExecutionFailed, Web3Error
from apps.contracts.evm.mirror import (
    TREASURY_NUM,
    WEIBARS_PER_TINYBAR,
    Block,
    MirrorReader,
    block_by_hash,
    block_by_number,
    earliest_block,
    latest_block,
    long_zero_address,
)
from apps.contracts.evm.request import BlockSelector, CallRequest
from apps.contracts.evm.state import MirrorState

ERROR_STRING = bytes.fromhex("08c379a0")
# Fee collection account 0.0.98 is the block's coinbase on Hedera.
COINBASE_NUM = 98
# EVM precompiles (0x1-0x11) and the Hedera system contracts (0x167-0x169) need no entity.
_BUILTIN_ADDRESSES = {n.to_bytes(20, "big") for n in (*range(1, 0x12), 0x167, 0x168, 0x169)}
_LEDGER_IDS = {295: "0x00", 296: "0x01", 297: "0x02"}


@dataclass(slots=True)
class CallTransaction:
    """What py-evm's transaction executor reads of a transaction; gas is free (price 0)."""

    sender: bytes
    to: bytes
    value: int
    data: bytes
    gas: int
    nonce: int = 0
    access_list: tuple = ()
    authorization_list: tuple = ()
    type_id: int | None = None
    gas_price: int = 0
    max_fee_per_gas: int = 0
    max_priority_fee_per_gas: int = 0

    @property
    def intrinsic_gas(self) -> int:
        return calculate_txn_intrinsic_gas_berlin(self)


@dataclass(frozen=True, slots=True)
class Outcome:
    success: bool
    output: bytes
    gas_used: int
    error: Exception | None


class Execution:
    """The block, state reader and deadline of one request."""

    def __init__(self, block: BlockSelector, *, timestamp: int | None = None):
        self.block, historical = resolve_block(block)
        if timestamp is not None:
            self.timestamp = timestamp
        else:
            self.timestamp = self.block.consensus_end if historical and self.block else None
        self.reader = MirrorReader(timestamp=self.timestamp)
        self.seconds = settings.WEB3["TIMEOUT_SECONDS"]
        self.deadline = time.monotonic() + self.seconds
        self.chain_id = int(settings.MIRROR["CHAIN_ID"], 16)
        self.ledger_id = _LEDGER_IDS.get(self.chain_id, "0x03")

    def _context(self) -> ExecutionContext:
        block = self.block
        return ExecutionContext(
            coinbase=long_zero_address(COINBASE_NUM),
            timestamp=(block.consensus_start if block else time.time_ns()) // 10**9,
            block_number=block.number if block else 0,
            difficulty=0,
            mix_hash=block.hash[:32] if block else bytes(32),
            gas_limit=settings.WEB3["MAX_GAS_LIMIT"],
            prev_hashes=(),
            chain_id=self.chain_id,
            base_fee_per_gas=0,
            excess_blob_gas=0,
        )

    def state(self, payer: bytes) -> MirrorState:
        return MirrorState(
            self.reader,
            self._context(),
            payer=payer,
            deadline=self.deadline,
            seconds=self.seconds,
            ledger_id=self.ledger_id,
        )

    def run(self, transaction: CallTransaction, *, tracer=None) -> Outcome:
        state = self.state(transaction.sender)
        state.tracer = tracer
        if transaction.intrinsic_gas > transaction.gas:
            return Outcome(False, b"", transaction.gas, OutOfGas("intrinsic gas"))
        executor = state.get_transaction_executor()
        message = executor.build_evm_message(transaction)
        computation = executor.build_computation(message, transaction)
        used = transaction.gas - computation.get_gas_remaining()
        refund = executor.calculate_gas_refund(computation, used)
        gas_used = used - refund + executor.calc_data_floor_gas(transaction, used, refund)
        error = None if computation.is_success else computation.error
        return Outcome(computation.is_success, bytes(computation.output), gas_used, error)


def resolve_block(selector: BlockSelector) -> tuple[Block | None, bool]:
    """The block and whether it is historical; 400 `Unknown block number` when absent."""
    if selector.tag == "latest":
        return latest_block(), False
    if selector.tag == "earliest":
        block = earliest_block()
    elif selector.hash is not None:
        block = block_by_hash(selector.hash)
    else:
        block = block_by_number(selector.number)
    if block is None:
        raise Web3Error(400, "Unknown block number", message="Bad Request")
    return block, True


def transaction_of(request: CallRequest, execution: Execution, *, gas: int | None = None) -> CallTransaction:
    sender = request.sender or long_zero_address(TREASURY_NUM)
    sender_account = execution.reader.account(sender)
    if request.sender is not None and sender_account is None:
        raise ExecutionFailed("PAYER_ACCOUNT_NOT_FOUND", "Sender account not found.")
    to = request.to
    if to is not None and to not in _BUILTIN_ADDRESSES and execution.reader.account(to) is None:
        raise Web3Error(404, "No such contract or token")
    return CallTransaction(
        sender=sender,
        to=CREATE_CONTRACT_ADDRESS if to is None else to,
        value=request.value * WEIBARS_PER_TINYBAR,
        data=request.data,
        gas=request.gas if gas is None else gas,
        nonce=sender_account.nonce if sender_account else 0,
    )


def failure(outcome: Outcome) -> ExecutionFailed:
    error = outcome.error
    if isinstance(error, Revert):
        return ExecutionFailed("CONTRACT_REVERT_EXECUTED", revert_reason(outcome.output), "0x" + outcome.output.hex())
    if isinstance(error, OutOfGas):
        return ExecutionFailed("INSUFFICIENT_GAS")
    if isinstance(error, InsufficientFunds):
        return ExecutionFailed("INSUFFICIENT_PAYER_BALANCE")
    return ExecutionFailed("CONTRACT_EXECUTION_EXCEPTION")


def revert_reason(output: bytes) -> str:
    """The message of an `Error(string)` revert; empty for any other data."""
    if output[:4] != ERROR_STRING:
        return ""
    try:
        return decode(["string"], output[4:])[0]
    except Exception:
        return ""


def call(request: CallRequest) -> Outcome:
    """Runs the call once; raises its failure."""
    execution = Execution(request.block)
    outcome = execution.run(transaction_of(request, execution))
    if not outcome.success:
        raise failure(outcome)
    return outcome


def answer(request: CallRequest) -> tuple[str, int]:
    """The `result` a call or an estimate answers, and the gas it used."""
    if request.estimate:
        gas_used = estimate(request)
        return "0x" + gas_used.to_bytes(8, "big").hex(), gas_used
    outcome = call(request)
    return "0x" + outcome.output.hex(), outcome.gas_used


def estimate(request: CallRequest) -> int:
    """The upstream's estimate: the gas used at the request's gas, then a binary search
    between it and the request's gas for the least gas that succeeds."""
    execution = Execution(request.block)
    first = execution.run(transaction_of(request, execution))
    if not first.success:
        raise failure(first)
    if first.gas_used >= request.gas:
        return first.gas_used
    low, high = first.gas_used, request.gas
    threshold = low * settings.WEB3["ESTIMATE_THRESHOLD_PERCENT"] / 100
    previous, iterations = low, 0
    while low + 1 < high and iterations < settings.WEB3["ESTIMATE_MAX_ITERATIONS"]:
        middle = (low + high) // 2
        iterations += 1
        try:
            outcome = execution.run(transaction_of(request, execution, gas=middle))
            succeeded = outcome.success and outcome.gas_used != 0
        except ExecutionFailed:
            succeeded = False
        if not succeeded:
            low = middle
        else:
            high = middle
            if abs(previous - middle) < threshold:
                break
        previous = middle
    return high
