"""The gas price of contract results without an Ethereum transaction, from the fee schedule.

Such a result carries no price of its own: the upstream derives one from the
ContractCall entry of the fee schedule (file 0.0.111) and the exchange rate
(file 0.0.112): `max(1, gas * hbar_equiv / (cent_equiv * 1000))` tinybars.
The upstream keeps one price per hour: the files as of the first result of an
hour it prices, their current or next schedule and rate as of the hour's start.
"""

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

from django.conf import settings

from apps.common.ledger.codecs import encode_entity_id
from apps.common.ledger.protobuf import protobuf_fields
from apps.contracts.selectors.files import file_versions

FEE_SCHEDULE_FILE_NUM = 111
EXCHANGE_RATE_FILE_NUM = 112
CONTRACT_CALL = 6  # HederaFunctionality
NANOS_PER_SECOND = 10**9
NANOS_PER_HOUR = 3600 * NANOS_PER_SECOND
# A file version that does not parse gives way to the one before it, this many times at most.
_VERSIONS_TRIED = 12


@dataclass(frozen=True)
class _Scheduled:
    """A value in force until `expiry` (seconds) and the one that follows it."""

    current: int | tuple[int, int] | None
    following: int | tuple[int, int] | None
    expiry: int

    def at(self, timestamp: int):
        return self.following if timestamp > self.expiry * NANOS_PER_SECOND else self.current


def attach_gas_prices(rows: Iterable[dict]) -> None:
    """Sets `schedule_gas_price` (tinybars, or None without a schedule and rate) on each result
    without an Ethereum transaction."""
    by_hour: dict[int, int | None] = {}
    for row in rows:
        if row["ethereum"] is not None:
            continue
        timestamp = row["consensus_timestamp"]
        hour = timestamp - timestamp % NANOS_PER_HOUR
        if hour not in by_hour:
            by_hour[hour] = _gas_price_at(hour, files_at=timestamp)
        row["schedule_gas_price"] = by_hour[hour]


def _gas_price_at(reference: int, *, files_at: int) -> int | None:
    schedule = _latest_parsed(FEE_SCHEDULE_FILE_NUM, files_at, _parse_fee_schedule)
    rates = _latest_parsed(EXCHANGE_RATE_FILE_NUM, files_at, _parse_exchange_rates)
    if schedule is None or rates is None:
        return None
    gas, rate = schedule.at(reference), rates.at(reference)
    if (
        not isinstance(gas, int)
        or rate is None
        or not all(isinstance(part, int) for part in rate)
        or not rate[1]
    ):
        return None
    hbar_equiv, cent_equiv = rate
    return max(1, gas * hbar_equiv // (cent_equiv * 1000))


def _latest_parsed(num: int, at: int, parse: Callable[[bytes], _Scheduled]) -> _Scheduled | None:
    """The newest of the file's last `_VERSIONS_TRIED` versions that parses. The newest
    nearly always does: it is read alone first."""
    file_id = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], num)
    newest = file_versions(file_id=file_id, at=at, count=1)

    def older() -> Iterator[bytes]:
        if newest:
            yield from file_versions(file_id=file_id, at=at, count=_VERSIONS_TRIED)[1:]

    for content in chain(newest, older()):
        try:
            return parse(content)
        except ValueError:
            continue
    return None


def _message(data) -> dict[int, list]:
    if not isinstance(data, bytes):
        raise ValueError("not an embedded message")
    fields: dict[int, list] = {}
    for number, value in protobuf_fields(data):
        fields.setdefault(number, []).append(value)
    return fields


def _first(fields: dict[int, list], number: int, default=None):
    values = fields.get(number)
    return values[0] if values else default


def _seconds(data: bytes | None) -> int:
    """TimestampSeconds.seconds."""
    return _first(_message(data), 1, 0) if data else 0


def _parse_fee_schedule(content: bytes) -> _Scheduled:
    """CurrentAndNextFeeSchedule -> the ContractCall service gas of each schedule."""
    message = _message(content)
    current, following = _first(message, 1), _first(message, 2)
    return _Scheduled(
        _contract_call_gas(current),
        _contract_call_gas(following),
        _seconds(_first(_message(current), 2)) if current else 0,
    )


def _contract_call_gas(schedule: bytes | None) -> int | None:
    """FeeSchedule.transactionFeeSchedule[ContractCall].fees[0].servicedata.gas."""
    if schedule is None:
        return None
    for entry in _message(schedule).get(1, ()):
        entry_fields = _message(entry)
        if _first(entry_fields, 1, 0) != CONTRACT_CALL or not entry_fields.get(3):
            continue
        service = _first(_message(entry_fields[3][0]), 3)
        return _first(_message(service), 8, 0) if service else None
    return None


def _parse_exchange_rates(content: bytes) -> _Scheduled:
    """ExchangeRateSet -> (hbar_equiv, cent_equiv) of the current and next rate."""
    message = _message(content)
    current, following = _first(message, 1), _first(message, 2)

    def rate(data: bytes | None) -> tuple[int, int] | None:
        if data is None:
            return None
        fields = _message(data)
        return _first(fields, 1, 0), _first(fields, 2, 0)

    expiry = _seconds(_first(_message(current), 3)) if current else 0
    return _Scheduled(rate(current), rate(following), expiry)
