"""Datetimes from the service clock, which tests and the conformance runner can freeze."""

from datetime import UTC, datetime, timedelta

from apps.common.clock import now_ns

__all__ = ("current_time", "datetime_from_nanos", "nanos_from_datetime")

NANOS_PER_SECOND = 10**9
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def current_time() -> datetime:
    return datetime_from_nanos(now_ns())


def datetime_from_nanos(nanos: int) -> datetime:
    seconds, fraction = divmod(nanos, NANOS_PER_SECOND)
    return datetime.fromtimestamp(seconds, UTC).replace(microsecond=fraction // 1000)


def nanos_from_datetime(value: datetime) -> int:
    return (value - EPOCH) // timedelta(microseconds=1) * 1000
