"""Protobuf transactions for the fee estimation tests, built as FEES.md §10.2 builds them."""

from hiero_sdk_python.hapi.services import (
    basic_types_pb2,
    transaction_contents_pb2,
    transaction_pb2,
)


def body(**operation) -> transaction_pb2.TransactionBody:
    """FEES.md's `B` (28 bytes) with one operation, e.g. `body(util_prng={"range": 10})`."""
    transaction_body = transaction_pb2.TransactionBody(
        transactionID={"accountID": {"accountNum": 1001}, "transactionValidStart": {"seconds": 1700000000}},
        nodeAccountID={"accountNum": 3},
        transactionFee=200000000,
        transactionValidDuration={"seconds": 120},
    )
    for name, value in operation.items():
        if isinstance(value, bool):
            setattr(transaction_body, name, value)
        else:
            getattr(transaction_body, name).CopyFrom(type(getattr(transaction_body, name))(**value))
    return transaction_body


def signature_map(signatures: int) -> basic_types_pb2.SignatureMap:
    return basic_types_pb2.SignatureMap(
        sigPair=[{"pubKeyPrefix": bytes([index]) * 32, "ed25519": bytes(64)} for index in range(signatures)]
    )


def signed(transaction_body: transaction_pb2.TransactionBody, signatures: int = 1) -> bytes:
    """A Transaction carrying only `signedTransactionBytes`, serialized."""
    signed_transaction = transaction_contents_pb2.SignedTransaction(
        bodyBytes=transaction_body.SerializeToString(), sigMap=signature_map(signatures)
    )
    return transaction_pb2.Transaction(signedTransactionBytes=signed_transaction.SerializeToString()).SerializeToString()


def ed(index: int) -> dict:
    return {"ed25519": bytes([index]) * 32}


def account(num: int) -> dict:
    return {"accountNum": num}


def hbar(num: int, amount: int) -> dict:
    return {"accountID": account(num), "amount": amount}


def extra(name: str, count: int, included: int, charged: int, fee_per_unit: int) -> dict:
    return {
        "charged": charged,
        "count": count,
        "fee_per_unit": fee_per_unit,
        "included": included,
        "name": name,
        "subtotal": charged * fee_per_unit,
    }
