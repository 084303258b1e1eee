import pytest

from apps.network.protobuf import parse_exchange_rate_set, parse_fee_schedules
from apps.network.selectors import SYSTEM_FILE_ATTEMPTS, latest_system_file
from apps.network.tests.factories import (
    FILE_APPEND,
    FILE_CREATE,
    FILE_UPDATE,
    create_file_data,
    exchange_rate_set,
    fee_schedules,
)

pytestmark = pytest.mark.django_db

RATES = 112
FIRST = exchange_rate_set((1, 12, 100), (1, 13, 200))
SECOND_VERSION = exchange_rate_set((2, 24, 300), (2, 25, 400))


def rates(file) -> tuple[int, int]:
    return file.data.currentRate.hbarEquiv, file.data.currentRate.centEquiv


def test_a_file_is_its_create_and_appends_concatenated():
    create_file_data(RATES, 10, FIRST[:10], type=FILE_CREATE)
    create_file_data(RATES, 11, FIRST[10:20], type=FILE_APPEND)
    create_file_data(RATES, 12, FIRST[20:], type=FILE_APPEND)
    create_file_data(RATES + 1, 13, b"\xff", type=FILE_APPEND)

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert found.consensus_timestamp == 12
    assert rates(found) == (1, 12)
    assert found.data.nextRate.expirationTime.seconds == 200


def test_an_update_with_content_starts_a_new_version_and_an_empty_one_changes_nothing():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION[:5], type=FILE_UPDATE)
    create_file_data(RATES, 21, b"", type=FILE_UPDATE)
    create_file_data(RATES, 22, SECOND_VERSION[5:], type=FILE_APPEND)

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert (found.consensus_timestamp, rates(found)) == (22, (2, 24))


def test_bounds_choose_the_version_that_began_within_them():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION)

    assert rates(latest_system_file(RATES, upper=19, parse=parse_exchange_rate_set)) == (1, 12)
    assert rates(latest_system_file(RATES, upper=20, parse=parse_exchange_rate_set)) == (2, 24)
    assert latest_system_file(RATES, lower=21, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=9, parse=parse_exchange_rate_set) is None


def test_appends_after_the_upper_bound_are_left_out():
    create_file_data(RATES, 10, FIRST[:5], type=FILE_CREATE)
    create_file_data(RATES, 11, FIRST[5:], type=FILE_APPEND)

    with pytest.raises(ValueError):
        parse_exchange_rate_set(FIRST[:5])
    assert latest_system_file(RATES, upper=10, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=11, parse=parse_exchange_rate_set).consensus_timestamp == 11


def test_a_version_that_does_not_parse_falls_back_to_the_one_before():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, b"\xff\xff\xff")

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert (found.consensus_timestamp, rates(found)) == (10, (1, 12))


def test_a_version_still_being_appended_to_falls_back_to_the_one_before():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION[:7])

    assert latest_system_file(RATES, parse=parse_exchange_rate_set).consensus_timestamp == 10


def test_fallbacks_stop_after_the_attempt_limit():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    for number in range(SYSTEM_FILE_ATTEMPTS):
        create_file_data(RATES, 20 + number, b"\xff\xff\xff")

    assert latest_system_file(RATES, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=20 + SYSTEM_FILE_ATTEMPTS - 2, parse=parse_exchange_rate_set) is not None


def test_fee_schedules_parse_with_their_entries():
    create_file_data(111, 10, fee_schedules((100, {"ContractCall": 852000}), (200, {})), type=FILE_CREATE)

    schedules = latest_system_file(111, parse=parse_fee_schedules).data

    assert schedules.currentFeeSchedule.expiryTime.seconds == 100
    assert schedules.currentFeeSchedule.transactionFeeSchedule[0].fees[0].servicedata.gas == 852000
