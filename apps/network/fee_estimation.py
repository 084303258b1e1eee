"""Fee estimation of a HAPI transaction with the simple fee schedule (HIP-1261) and
high-volume pricing (HIP-1313), as the consensus node 0.75 computes it.

`parse_transaction` reads the request body; `estimate_fees` prices it and answers the
route's JSON. Everything is in tinycents, in Java `long` arithmetic: sums and products
saturate at the long range, divisions truncate.

A fee is three parts: the node fee (its base plus SIGNATURES and PROCESSING_BYTES over
what is included), the network fee (the node fee times the network multiplier) and the
service fee (the transaction type's base plus the extras its calculator counts).
In STATE mode `ledger` answers what the calculators read from the mirror (topics' and
tokens' custom fees); INTRINSIC mode reads only the transaction.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from google.protobuf.message import DecodeError, Message
from hiero_sdk_python.hapi.fees import fee_schedule_pb2
from hiero_sdk_python.hapi.services import (
    basic_types_pb2,
    transaction_contents_pb2,
    transaction_pb2,
)

from apps.common.errors import DetailedError
from apps.common.ledger.codecs import MAX_LONG, MIN_LONG
from apps.network.fee_schedule import SimpleFeeSchedule, to_int32, to_int64

__all__ = (
    "LedgerFeeState",
    "ParsedTransaction",
    "estimate_fees",
    "high_volume_multiplier",
    "parse_transaction",
)

Extra = fee_schedule_pb2.Extra
Functionality = basic_types_pb2.HederaFunctionality

SCALE = 1000
MAX_UTILIZATION = 10_000
MAX_GAS_PER_TRANSACTION = 15_000_000
MAX_SYSTEM_FILE_NUM = 750


def _saturate(value: int) -> int:
    return max(MIN_LONG, min(MAX_LONG, value))


def _wrap(value: int) -> int:
    """Plain Java long arithmetic: overflow wraps around."""
    return (value - MIN_LONG) % (1 << 64) + MIN_LONG


def _truncating_div(numerator: int, denominator: int) -> int:
    quotient = abs(numerator) // abs(denominator)
    return quotient if (numerator >= 0) == (denominator > 0) else -quotient


def unknown_transaction_type() -> DetailedError:
    return DetailedError(400, "Unknown transaction type")


def unparsable_transaction() -> DetailedError:
    return DetailedError(400, "Unable to parse transaction")


#
# The request body
#


@dataclass(frozen=True)
class ParsedTransaction:
    body: transaction_pb2.TransactionBody
    signature_count: int
    size: int


def parse_transaction(data: bytes) -> ParsedTransaction:
    """A `Transaction` carrying `signedTransactionBytes` (or the legacy `bodyBytes` and
    `sigMap`); its size is that of the message as re-serialized without unknown fields."""
    transaction = transaction_pb2.Transaction()
    _parse(transaction, data)
    if transaction.signedTransactionBytes:
        signed = transaction_contents_pb2.SignedTransaction()
        _parse(signed, transaction.signedTransactionBytes)
        body_bytes, signature_count = signed.bodyBytes, len(signed.sigMap.sigPair)
    elif transaction.bodyBytes:
        body_bytes, signature_count = transaction.bodyBytes, len(transaction.sigMap.sigPair)
    else:
        raise DetailedError(400, "Transaction must contain body bytes or signed transaction bytes")
    body = transaction_pb2.TransactionBody()
    _parse(body, body_bytes)
    transaction.DiscardUnknownFields()
    return ParsedTransaction(body=body, signature_count=signature_count, size=transaction.ByteSize())


def _parse(message: Message, data: bytes) -> None:
    try:
        message.ParseFromString(data)
    except DecodeError:
        raise unparsable_transaction() from None


#
# What STATE mode reads from the mirror
#


class LedgerFeeState(Protocol):
    def topic_has_custom_fees(self, topic_id: basic_types_pb2.TopicID) -> bool: ...

    def token(self, token_id: basic_types_pb2.TokenID) -> tuple[bool, bool] | None:
        """(is an NFT, has custom fees); None for a token the ledger does not have."""


#
# The fee being computed (the consensus node's FeeResult)
#


@dataclass
class ChargedExtra:
    name: int
    fee_per_unit: int
    count: int
    included: int
    charged: int

    def as_json(self) -> dict:
        return {
            "charged": self.charged,
            "count": self.count,
            "fee_per_unit": self.fee_per_unit,
            "included": self.included,
            "name": Extra.Name(self.name),
            "subtotal": _wrap(self.fee_per_unit * self.charged),
        }


@dataclass
class FeeComponent:
    base: int = 0
    extras: list[ChargedExtra] = field(default_factory=list)
    total: int = 0

    def set_base(self, fee: int) -> None:
        self.base = fee
        self.total = _saturate(self.total + fee)

    def add_extra(self, name: int, fee_per_unit: int, count: int, included: int) -> None:
        charged = max(0, count - included)
        if charged > 0:
            self.extras.append(ChargedExtra(name, fee_per_unit, count, included, charged))
            self.total = _saturate(self.total + _saturate(fee_per_unit * charged))

    def scale(self, multiplier: int) -> None:
        """Every part times multiplier / SCALE; the total from the unscaled total, so it
        can differ from the sum of the scaled parts by a few tinycents."""
        self.base = _scaled(self.base, multiplier)
        for extra in self.extras:
            extra.fee_per_unit = _scaled(extra.fee_per_unit, multiplier)
        self.total = _scaled(self.total, multiplier)

    def as_json(self) -> dict:
        return {"base": self.base, "extras": [extra.as_json() for extra in self.extras]}


def _scaled(value: int, multiplier: int) -> int:
    return _truncating_div(_saturate(value * multiplier), SCALE)


@dataclass
class FeeResult:
    node: FeeComponent = field(default_factory=FeeComponent)
    service: FeeComponent = field(default_factory=FeeComponent)
    network_multiplier: int = 0
    high_volume_raw: int = SCALE

    def clear(self) -> None:
        self.node, self.service = FeeComponent(), FeeComponent()
        self.network_multiplier, self.high_volume_raw = 0, SCALE

    def apply_high_volume(self, raw: int) -> None:
        if raw != SCALE:
            self.node.scale(raw)
            self.service.scale(raw)
        self.high_volume_raw = raw

    def as_json(self) -> dict:
        network_total = _saturate(self.node.total * self.network_multiplier)
        return {
            "high_volume_multiplier": self.high_volume_raw // SCALE,
            "network": {"multiplier": self.network_multiplier, "subtotal": network_total},
            "node": self.node.as_json(),
            "service": self.service.as_json(),
            "total": _saturate(_saturate(self.node.total + network_total) + self.service.total),
        }


#
# Estimation
#


def estimate_fees(
    schedule: SimpleFeeSchedule | None,
    transaction: ParsedTransaction,
    *,
    ledger: LedgerFeeState | None,
    high_volume_throttle: int = 0,
) -> dict:
    """The estimate as the route answers it; `ledger` None is INTRINSIC mode."""
    kind = transaction.body.WhichOneof("data")
    if schedule is None or kind not in _CALCULATORS:
        raise unknown_transaction_type()
    functionality, calculate = _CALCULATORS[kind]
    definition = schedule.service_fee(functionality)
    result = FeeResult()
    if not (definition is not None and definition.node_network_fee_exempt):
        _add_node_fee(result, schedule, transaction)
    calculation = _Calculation(schedule, result, ledger, transaction.body)
    calculate(calculation, getattr(transaction.body, kind))
    if (
        ledger is not None
        and transaction.body.high_volume
        and functionality in HIGH_VOLUME_FUNCTIONALITIES
        and definition is not None
        and definition.HasField("high_volume_rates")
    ):
        result.apply_high_volume(high_volume_multiplier(definition.high_volume_rates, high_volume_throttle))
    return result.as_json()


def _add_node_fee(result: FeeResult, schedule: SimpleFeeSchedule, transaction: ParsedTransaction) -> None:
    result.node.set_base(to_int64(schedule.node.base_fee))
    counts = {Extra.SIGNATURES: transaction.signature_count, Extra.PROCESSING_BYTES: transaction.size}
    for reference in schedule.node.extras:
        result.node.add_extra(
            reference.name,
            schedule.extra_fees[reference.name],
            counts.get(reference.name, 0),
            to_int32(reference.included_count),
        )
    result.network_multiplier = schedule.network_multiplier


class _Calculation:
    """What a service calculator works with: the schedule, the result, the ledger (STATE
    mode) and the whole transaction body."""

    def __init__(self, schedule: SimpleFeeSchedule, result: FeeResult, ledger: LedgerFeeState | None, body):
        self.schedule = schedule
        self.result = result
        self.ledger = ledger
        self.body = body
        self.definition: fee_schedule_pb2.ServiceFeeDefinition | None = None

    def base(self, functionality: int) -> None:
        """The service base fee of `functionality`, whose definition prices the extras after it."""
        self.definition = self.schedule.service_fee(functionality)
        if self.definition is None:
            raise unknown_transaction_type()
        self.result.service.set_base(to_int64(self.definition.base_fee))

    def extra(self, name: int, count: int) -> None:
        for reference in self.definition.extras:
            if reference.name == name:
                fee_per_unit = self.schedule.extra_fees[name]
                self.result.service.add_extra(name, fee_per_unit, count, to_int32(reference.included_count))
                return
        raise DetailedError(400, f"Extra not defined {Extra.Name(name)}")

    def keys(self, message, *names: str) -> int:
        return sum(count_keys(getattr(message, name)) for name in names if message.HasField(name))


def count_keys(key: basic_types_pb2.Key) -> int:
    kind = key.WhichOneof("key")
    if kind in ("ed25519", "ECDSA_secp256k1", "ECDSA_384"):
        return 1
    if kind == "keyList":
        return sum(count_keys(inner) for inner in key.keyList.keys)
    if kind == "thresholdKey":
        if not key.thresholdKey.HasField("keys"):
            raise unknown_transaction_type()
        return sum(count_keys(inner) for inner in key.thresholdKey.keys.keys)
    return 0


#
# Service calculators, one per transaction type
#


def _base_only(functionality: int) -> Callable:
    def calculate(calc: _Calculation, operation) -> None:
        calc.base(functionality)

    return calculate


def _clear_fees(calc: _Calculation, operation) -> None:
    calc.result.clear()


def _nothing(calc: _Calculation, operation) -> None:
    pass


def _crypto_create(calc: _Calculation, operation) -> None:
    calc.base(Functionality.CryptoCreate)
    if operation.HasField("key"):
        calc.extra(Extra.KEYS, count_keys(operation.key))
    if operation.hook_creation_details:
        calc.extra(Extra.HOOK_UPDATES, len(operation.hook_creation_details))


def _crypto_update(calc: _Calculation, operation) -> None:
    calc.base(Functionality.CryptoUpdate)
    if operation.HasField("key"):
        calc.extra(Extra.KEYS, count_keys(operation.key))
    if hook_updates := len(operation.hook_creation_details) + len(operation.hook_ids_to_delete):
        calc.extra(Extra.HOOK_UPDATES, hook_updates)


def _approve_allowance(calc: _Calculation, operation) -> None:
    calc.base(Functionality.CryptoApproveAllowance)
    allowances = len(operation.cryptoAllowances) + len(operation.tokenAllowances) + len(operation.nftAllowances)
    if allowances:
        calc.extra(Extra.ALLOWANCES, allowances)


def _delete_allowance(calc: _Calculation, operation) -> None:
    calc.base(Functionality.CryptoDeleteAllowance)
    if operation.nftAllowances:
        calc.extra(Extra.ALLOWANCES, len(operation.nftAllowances))


_TOPIC_KEYS = ("adminKey", "fee_schedule_key", "submitKey")


def _create_topic(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ConsensusCreateTopic)
    calc.extra(Extra.KEYS, calc.keys(operation, *_TOPIC_KEYS))
    if operation.custom_fees:
        calc.extra(Extra.CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE, 1)


def _update_topic(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ConsensusUpdateTopic)
    keys = calc.keys(operation, *_TOPIC_KEYS)
    if operation.HasField("fee_exempt_key_list"):
        keys += sum(count_keys(key) for key in operation.fee_exempt_key_list.keys)
    calc.extra(Extra.KEYS, keys)


def _submit_message(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ConsensusSubmitMessage)
    size = len(operation.message)
    if calc.ledger is not None:
        if not operation.HasField("topicID"):
            raise unknown_transaction_type()
        if calc.ledger.topic_has_custom_fees(operation.topicID):
            calc.extra(Extra.CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE, 1)
            calc.extra(Extra.CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES, size)
            return
    calc.extra(Extra.CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES, size)


_TOKEN_KEYS = (
    "adminKey",
    "fee_schedule_key",
    "freezeKey",
    "kycKey",
    "metadata_key",
    "pause_key",
    "supplyKey",
    "wipeKey",
)


def _create_token(calc: _Calculation, operation) -> None:
    calc.base(Functionality.TokenCreate)
    calc.extra(Extra.KEYS, calc.keys(operation, *_TOKEN_KEYS))
    if operation.custom_fees or operation.HasField("fee_schedule_key"):
        calc.extra(Extra.TOKEN_CREATE_WITH_CUSTOM_FEE, 1)


def _update_token(calc: _Calculation, operation) -> None:
    calc.base(Functionality.TokenUpdate)
    calc.extra(Extra.KEYS, calc.keys(operation, *_TOKEN_KEYS))


def _mint_token(calc: _Calculation, operation) -> None:
    calc.base(Functionality.TokenMint)
    if operation.amount == 0 and operation.metadata:
        calc.extra(Extra.TOKEN_MINT_NFT_BASE, 1)
        calc.extra(Extra.TOKEN_MINT_NFT, len(operation.metadata))


def _associate_token(calc: _Calculation, operation) -> None:
    calc.base(Functionality.TokenAssociateToAccount)
    calc.extra(Extra.TOKEN_ASSOCIATE, len(operation.tokens))


def _update_nfts(calc: _Calculation, operation) -> None:
    calc.base(Functionality.TokenUpdateNfts)
    calc.extra(Extra.NFT_UPDATE, len(operation.serial_numbers))


def _file_keys(operation) -> int:
    return sum(count_keys(key) for key in operation.keys.keys) if operation.HasField("keys") else 0


def _create_file(calc: _Calculation, operation) -> None:
    calc.base(Functionality.FileCreate)
    calc.extra(Extra.KEYS, _file_keys(operation))
    calc.extra(Extra.STATE_BYTES, len(operation.contents))


def _append_file(calc: _Calculation, operation) -> None:
    calc.base(Functionality.FileAppend)
    calc.extra(Extra.STATE_BYTES, len(operation.contents))


def _update_file(calc: _Calculation, operation) -> None:
    if calc.ledger is not None:
        if not (calc.body.transactionID.HasField("accountID") and operation.HasField("fileID")):
            raise unknown_transaction_type()
        if 1 <= operation.fileID.fileNum <= MAX_SYSTEM_FILE_NUM:
            # Updating a system file needs privileges, which waive every fee.
            calc.result.clear()
            return
    calc.base(Functionality.FileUpdate)
    if operation.HasField("keys"):
        calc.extra(Extra.KEYS, _file_keys(operation))
    calc.extra(Extra.STATE_BYTES, len(operation.contents))


def _create_schedule(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ScheduleCreate)
    if not operation.HasField("scheduledTransactionBody"):
        raise unknown_transaction_type()
    calc.extra(Extra.KEYS, calc.keys(operation, "adminKey"))
    if operation.scheduledTransactionBody.WhichOneof("data") == "contractCall":
        calc.extra(Extra.SCHEDULE_CREATE_CONTRACT_CALL_BASE, 1)


def _create_contract(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ContractCreate)
    calc.extra(Extra.KEYS, calc.keys(operation, "adminKey"))
    if operation.hook_creation_details:
        calc.extra(Extra.HOOK_UPDATES, len(operation.hook_creation_details))


def _update_contract(calc: _Calculation, operation) -> None:
    calc.base(Functionality.ContractUpdate)
    calc.extra(Extra.KEYS, calc.keys(operation, "adminKey"))
    # Creations and deletions are two entries, each with its own included count.
    if operation.hook_creation_details:
        calc.extra(Extra.HOOK_UPDATES, len(operation.hook_creation_details))
    if operation.hook_ids_to_delete:
        calc.extra(Extra.HOOK_UPDATES, len(operation.hook_ids_to_delete))


def _store_hook(calc: _Calculation, operation) -> None:
    calc.base(Functionality.HookStore)
    slots = 0
    for update in operation.storage_updates:
        if update.HasField("storage_slot"):
            slots += 1
        elif update.HasField("mapping_entries"):
            slots += len(update.mapping_entries.entries)
    calc.extra(Extra.HOOK_SLOT_UPDATE, slots)


def _crypto_transfer(calc: _Calculation, operation) -> None:
    _price_transfers(calc, operation.transfers.accountAmounts, operation.tokenTransfers)


def _token_airdrop(calc: _Calculation, operation) -> None:
    # Priced as a CryptoTransfer of the airdrop's token transfers.
    _price_transfers(calc, (), operation.token_transfers)


def _price_transfers(
    calc: _Calculation,
    hbar_transfers: Iterable[basic_types_pb2.AccountAmount],
    token_transfers: Iterable[basic_types_pb2.TokenTransferList],
) -> None:
    calc.base(Functionality.CryptoTransfer)
    hbar_transfers, token_transfers = list(hbar_transfers), list(token_transfers)
    amounts = hbar_transfers + [amount for tokens in token_transfers for amount in tokens.transfers]
    nft_transfers = [nft for tokens in token_transfers for nft in tokens.nftTransfers]
    calc.extra(Extra.ACCOUNTS, _distinct_accounts(amounts, nft_transfers))
    invocations, gas = _hook_use(amounts, nft_transfers)
    if invocations:
        calc.extra(Extra.HOOK_EXECUTION, invocations)
        calc.extra(Extra.GAS, gas)
    if calc.ledger is None:
        for tokens in token_transfers:
            calc.extra(Extra.TOKEN_TYPES, len(tokens.transfers) + len(tokens.nftTransfers))
    else:
        _price_token_types(calc, token_transfers)


def _distinct_accounts(amounts, nft_transfers) -> int:
    accounts = set()
    for message, names in [(amount, ("accountID",)) for amount in amounts] + [
        (nft, ("senderAccountID", "receiverAccountID")) for nft in nft_transfers
    ]:
        for name in names:
            if not message.HasField(name):
                raise unknown_transaction_type()
            accounts.add(getattr(message, name).SerializeToString(deterministic=True))
    return len(accounts)


def _hook_use(amounts, nft_transfers) -> tuple[int, int]:
    hooks = [(amount, "pre_tx_allowance_hook", "pre_post_tx_allowance_hook") for amount in amounts]
    for nft in nft_transfers:
        hooks.append((nft, "pre_tx_sender_allowance_hook", "pre_post_tx_sender_allowance_hook"))
        hooks.append((nft, "pre_tx_receiver_allowance_hook", "pre_post_tx_receiver_allowance_hook"))
    invocations = gas = 0
    for message, pre, pre_post in hooks:
        for name, calls in ((pre, 1), (pre_post, 2)):
            if message.HasField(name):
                invocations += calls
                gas += calls * min(max(getattr(message, name).evm_hook_call.gas_limit, 0), MAX_GAS_PER_TRANSACTION)
    return invocations, gas


def _price_token_types(calc: _Calculation, token_transfers: list[basic_types_pb2.TokenTransferList]) -> None:
    standard = with_custom_fees = 0
    for tokens in token_transfers:
        if not tokens.HasField("token"):
            raise unknown_transaction_type()
        # A token the ledger does not have is priced as a fungible one without custom fees.
        is_nft, has_custom_fees = calc.ledger.token(tokens.token) or (False, False)
        count = len(tokens.nftTransfers) if is_nft else int(bool(tokens.transfers))
        if has_custom_fees:
            with_custom_fees += count
        else:
            standard += count
    if with_custom_fees:
        calc.extra(Extra.TOKEN_TRANSFER_BASE_CUSTOM_FEES, 1)
    elif standard:
        calc.extra(Extra.TOKEN_TRANSFER_BASE, 1)
    calc.extra(Extra.TOKEN_TYPES, standard + with_custom_fees)


# TransactionBody.data field -> (functionality, service calculator).
_CALCULATORS: dict[str, tuple[int, Callable]] = {
    "cryptoTransfer": (Functionality.CryptoTransfer, _crypto_transfer),
    "tokenAirdrop": (Functionality.TokenAirdrop, _token_airdrop),
    "cryptoCreateAccount": (Functionality.CryptoCreate, _crypto_create),
    "cryptoUpdateAccount": (Functionality.CryptoUpdate, _crypto_update),
    "cryptoApproveAllowance": (Functionality.CryptoApproveAllowance, _approve_allowance),
    "cryptoDeleteAllowance": (Functionality.CryptoDeleteAllowance, _delete_allowance),
    "consensusCreateTopic": (Functionality.ConsensusCreateTopic, _create_topic),
    "consensusUpdateTopic": (Functionality.ConsensusUpdateTopic, _update_topic),
    "consensusSubmitMessage": (Functionality.ConsensusSubmitMessage, _submit_message),
    "tokenCreation": (Functionality.TokenCreate, _create_token),
    "tokenUpdate": (Functionality.TokenUpdate, _update_token),
    "tokenMint": (Functionality.TokenMint, _mint_token),
    "tokenAssociate": (Functionality.TokenAssociateToAccount, _associate_token),
    "token_update_nfts": (Functionality.TokenUpdateNfts, _update_nfts),
    "fileCreate": (Functionality.FileCreate, _create_file),
    "fileAppend": (Functionality.FileAppend, _append_file),
    "fileUpdate": (Functionality.FileUpdate, _update_file),
    "scheduleCreate": (Functionality.ScheduleCreate, _create_schedule),
    "contractCall": (Functionality.ContractCall, _nothing),
    "contractCreateInstance": (Functionality.ContractCreate, _create_contract),
    "contractUpdateInstance": (Functionality.ContractUpdate, _update_contract),
    "hook_store": (Functionality.HookStore, _store_hook),
    "systemDelete": (Functionality.SystemDelete, _clear_fees),
    "systemUndelete": (Functionality.SystemUndelete, _clear_fees),
    "hook_dispatch": (Functionality.HookDispatch, _clear_fees),
}
_CALCULATORS |= {
    kind: (functionality, _base_only(functionality))
    for kind, functionality in {
        "cryptoDelete": Functionality.CryptoDelete,
        "consensusDeleteTopic": Functionality.ConsensusDeleteTopic,
        "tokenClaimAirdrop": Functionality.TokenClaimAirdrop,
        "tokenBurn": Functionality.TokenBurn,
        "tokenDeletion": Functionality.TokenDelete,
        "tokenWipe": Functionality.TokenAccountWipe,
        "tokenFreeze": Functionality.TokenFreezeAccount,
        "tokenUnfreeze": Functionality.TokenUnfreezeAccount,
        "tokenGrantKyc": Functionality.TokenGrantKycToAccount,
        "tokenRevokeKyc": Functionality.TokenRevokeKycFromAccount,
        "token_pause": Functionality.TokenPause,
        "token_unpause": Functionality.TokenUnpause,
        "token_fee_schedule_update": Functionality.TokenFeeScheduleUpdate,
        "tokenReject": Functionality.TokenReject,
        "tokenCancelAirdrop": Functionality.TokenCancelAirdrop,
        "tokenDissociate": Functionality.TokenDissociateFromAccount,
        "fileDelete": Functionality.FileDelete,
        "scheduleSign": Functionality.ScheduleSign,
        "scheduleDelete": Functionality.ScheduleDelete,
        "contractDeleteInstance": Functionality.ContractDelete,
        "ethereumTransaction": Functionality.EthereumTransaction,
        "util_prng": Functionality.UtilPrng,
        "atomic_batch": Functionality.AtomicBatch,
        "nodeCreate": Functionality.NodeCreate,
        "nodeUpdate": Functionality.NodeUpdate,
        "nodeDelete": Functionality.NodeDelete,
        "registeredNodeCreate": Functionality.RegisteredNodeCreate,
        "registeredNodeUpdate": Functionality.RegisteredNodeUpdate,
        "registeredNodeDelete": Functionality.RegisteredNodeDelete,
    }.items()
}


#
# High-volume pricing (HIP-1313)
#

HIGH_VOLUME_FUNCTIONALITIES = frozenset(
    {
        Functionality.CryptoCreate,
        Functionality.ConsensusCreateTopic,
        Functionality.ScheduleCreate,
        Functionality.CryptoApproveAllowance,
        Functionality.FileCreate,
        Functionality.FileAppend,
        Functionality.ContractCreate,
        Functionality.HookStore,
        Functionality.TokenAssociateToAccount,
        Functionality.TokenAirdrop,
        Functionality.TokenClaimAirdrop,
        Functionality.TokenMint,
        Functionality.TokenCreate,
    }
)


def high_volume_multiplier(rates: fee_schedule_pb2.VariableRateDefinition, utilization: int) -> int:
    """The multiplier (scale 1000) at `utilization` basis points of the high-volume
    throttle: along the piecewise linear curve, or linear from 1x to the maximum
    without one; always within [1x, max(maximum, 1x)]."""
    utilization = min(max(utilization, 0), MAX_UTILIZATION)
    maximum = max(to_int32(rates.max_multiplier), SCALE)
    points = sorted(
        ((to_int32(point.utilization_basis_points), max(to_int32(point.multiplier), SCALE))
         for point in rates.pricing_curve.piecewise_linear.points),
        key=lambda point: point[0],
    )
    if not points:
        raw = _interpolate((0, SCALE), (MAX_UTILIZATION, maximum), utilization)
    elif len(points) == 1:
        raw = points[0][1]
    else:
        lower = next((point for point in reversed(points) if point[0] <= utilization), None)
        upper = next((point for point in points if point[0] >= utilization), None)
        if lower is None:
            raw = points[0][1]
        elif upper is None:
            raw = points[-1][1]
        elif lower[0] == upper[0]:
            raw = upper[1]
        else:
            raw = _interpolate(lower, upper, utilization)
    return max(SCALE, min(raw, maximum))


def _interpolate(start: tuple[int, int], end: tuple[int, int], x: int) -> int:
    (x0, y0), (x1, y1) = start, end
    if x1 == x0:
        return y0
    return y0 + _truncating_div((y1 - y0) * (x - x0), x1 - x0)
