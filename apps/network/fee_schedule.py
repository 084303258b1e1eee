"""The simple fee schedule (HIP-1261, system file 0.0.113) as the estimator reads it.

`current_simple_fee_schedule` is the newest valid version of the file in the mirror
(an invalid version leaves the one before it in effect); `parse_simple_fee_schedule` is as strict as the consensus node: a file that does not
decode, carries fields or enum numbers this HAPI version does not know, or breaks a rule
of the schedule (see `_is_valid`) is no schedule (None).
Amounts are tinycents; multipliers are fixed-point with scale 1000 (1000 = 1x).
"""

import threading
from collections.abc import Iterable

from google.protobuf.message import DecodeError, Message
from google.protobuf.unknown_fields import UnknownFieldSet
from hiero_sdk_python.hapi.fees import fee_schedule_pb2
from hiero_sdk_python.hapi.services import basic_types_pb2

from apps.network import selectors

__all__ = (
    "SimpleFeeSchedule",
    "current_simple_fee_schedule",
    "parse_simple_fee_schedule",
    "to_int32",
    "to_int64",
)

# How many older versions are tried when the newest ones are invalid.
MAX_VERSIONS_TRIED = 10

_EXTRA_NUMBERS = frozenset(fee_schedule_pb2.Extra.values())
_FUNCTIONALITY_NUMBERS = frozenset(basic_types_pb2.HederaFunctionality.values())


def to_int32(value: int) -> int:
    """A uint32 as Java reads it into an int."""
    return value - (1 << 32) if value >= 1 << 31 else value


def to_int64(value: int) -> int:
    """A uint64 as Java reads it into a long."""
    return value - (1 << 64) if value >= 1 << 63 else value


class SimpleFeeSchedule:
    def __init__(self, message: fee_schedule_pb2.FeeSchedule):
        self.message = message
        self.node = message.node
        self.network_multiplier = to_int32(message.network.multiplier)
        self.extra_fees = {extra.name: to_int64(extra.fee) for extra in message.extras}
        self._services: dict[int, fee_schedule_pb2.ServiceFeeDefinition] = {}
        for service in message.services:
            for definition in service.schedule:
                # The first definition of a functionality, in file order, wins.
                self._services.setdefault(definition.name, definition)

    def service_fee(self, functionality: int) -> fee_schedule_pb2.ServiceFeeDefinition | None:
        return self._services.get(functionality)


_parsed: dict[bytes, "SimpleFeeSchedule | None"] = {}
_parsing = threading.Lock()


def current_simple_fee_schedule() -> "SimpleFeeSchedule | None":
    """The file is read on every call (a few KiB by index) but parsed only when it changed."""
    file = selectors.latest_system_file(selectors.SIMPLE_FEE_SCHEDULE_FILE_NUM, parse=_valid_schedule)
    return None if file is None else file.data


def _valid_schedule(data: bytes) -> "SimpleFeeSchedule":
    if (schedule := _parsed_once(data)) is None:
        raise ValueError("not a valid simple fee schedule")
    return schedule


def _parsed_once(data: bytes) -> "SimpleFeeSchedule | None":
    with _parsing:
        if data not in _parsed:
            if len(_parsed) >= MAX_VERSIONS_TRIED:
                _parsed.clear()
            _parsed[data] = parse_simple_fee_schedule(data)
        return _parsed[data]


def parse_simple_fee_schedule(data: bytes) -> SimpleFeeSchedule | None:
    message = fee_schedule_pb2.FeeSchedule()
    try:
        message.ParseFromString(data)
    except DecodeError:
        return None
    if _has_unknown_fields(message) or not _is_valid(message):
        return None
    return SimpleFeeSchedule(message)


def _has_unknown_fields(message: Message) -> bool:
    if len(UnknownFieldSet(message)):
        return True
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        children = value if field.is_repeated else [value]
        if any(_has_unknown_fields(child) for child in children):
            return True
    return False


def _is_valid(schedule: fee_schedule_pb2.FeeSchedule) -> bool:
    if not schedule.HasField("node") or not schedule.HasField("network"):
        return False
    if to_int32(schedule.network.multiplier) < 1 or not schedule.services:
        return False
    defined = [extra.name for extra in schedule.extras]
    if not _unique_known(defined, _EXTRA_NUMBERS) or any(to_int64(extra.fee) <= 0 for extra in schedule.extras):
        return False
    if not _references_valid(schedule.node.extras, set(defined)):
        return False
    if len({service.name for service in schedule.services}) != len(schedule.services):
        return False
    for service in schedule.services:
        if not service.schedule:
            return False
        if not _unique_known([definition.name for definition in service.schedule], _FUNCTIONALITY_NUMBERS):
            return False
        if not all(_references_valid(definition.extras, set(defined)) for definition in service.schedule):
            return False
    return True


def _references_valid(references: Iterable[fee_schedule_pb2.ExtraFeeReference], defined: set[int]) -> bool:
    names = [reference.name for reference in references]
    return len(set(names)) == len(names) and all(name in defined for name in names)


def _unique_known(numbers: list[int], known: frozenset[int]) -> bool:
    return len(set(numbers)) == len(numbers) and all(number in known for number in numbers)
