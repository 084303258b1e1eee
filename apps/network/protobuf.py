"""The HAPI messages of the network's system files, from hiero-sdk-python's generated classes.

Importing any of them imports the whole SDK (~0.4 s), so `hapi()` loads them on first use:
no other route pays for it. Parsers raise ValueError for bytes that are not the message,
the failure `latest_system_file` retries on.
"""

import functools
from types import SimpleNamespace

from google.protobuf.message import DecodeError, Message


@functools.cache
def hapi() -> SimpleNamespace:
    """The generated modules: `basic_types` (fee schedules, `HederaFunctionality`, address
    book) and `exchange_rate` (`ExchangeRateSet`)."""
    from hiero_sdk_python.hapi.services import basic_types_pb2, exchange_rate_pb2

    return SimpleNamespace(basic_types=basic_types_pb2, exchange_rate=exchange_rate_pb2)


def _parse(message: Message, data: bytes) -> Message:
    try:
        message.ParseFromString(data)
    except DecodeError as error:
        raise ValueError(f"not a {message.DESCRIPTOR.name}: {error}") from None
    return message


def parse_exchange_rate_set(data: bytes) -> Message:
    """File 0.0.112."""
    return _parse(hapi().exchange_rate.ExchangeRateSet(), data)


def parse_fee_schedules(data: bytes) -> Message:
    """File 0.0.111, a `CurrentAndNextFeeSchedule`."""
    return _parse(hapi().basic_types.CurrentAndNextFeeSchedule(), data)


def functionality_number(name: str) -> int:
    """The `HederaFunctionality` number of a name."""
    return hapi().basic_types.HederaFunctionality.Value(name)
