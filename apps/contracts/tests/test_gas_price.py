"""The fee-schedule gas price of contract results without an Ethereum transaction."""

import pytest
from django.test import Client

from apps.contracts.tests.results_factories import create_result
from apps.network.models import FileData

pytestmark = pytest.mark.django_db

HOUR = 3600 * 10**9
T = 1_676_541_600 * 10**9  # the start of an hour
CONTRACT = 5001


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number: int, value: int | bytes) -> bytes:
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value


def fee_schedule(gas: int, expiry_seconds: int, next_gas: int) -> bytes:
    """CurrentAndNextFeeSchedule with a ContractCall (6) entry in each schedule."""

    def schedule(service_gas: int, expiry: int) -> bytes:
        fees = field(3, field(8, service_gas))  # FeeData.servicedata.gas
        contract_call = field(1, 6) + field(3, fees)
        crypto_transfer = field(1, 2) + field(3, field(3, field(8, 1)))
        return field(1, crypto_transfer) + field(1, contract_call) + field(2, field(1, expiry))

    return field(1, schedule(gas, expiry_seconds)) + field(2, schedule(next_gas, expiry_seconds + 3600))


def exchange_rates(hbar: int, cents: int, expiry_seconds: int, next_cents: int) -> bytes:
    def rate(cent_equiv: int, expiry: int) -> bytes:
        return field(1, hbar) + field(2, cent_equiv) + field(3, field(1, expiry))

    return field(1, rate(cents, expiry_seconds)) + field(2, rate(next_cents, expiry_seconds + 3600))


def store_file(num: int, timestamp: int, content: bytes, *, split: bool = False) -> None:
    parts = [content[:5], content[5:]] if split else [content]
    for offset, (part, kind) in enumerate(zip(parts, (17, 16))):
        FileData.objects.create(
            consensus_timestamp=timestamp + offset, entity_id=num, file_data=part, transaction_type=kind
        )


def gas_price(client, timestamp: int):
    seconds, nanos = divmod(timestamp, 10**9)
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results/{seconds}.{nanos:09d}")
    assert response.status_code == 200, response.content
    return response.json()["gas_price"]


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def files():
    """A schedule and rate expiring half-way through the hour starting at T."""
    expiry = T // 10**9 + 1800
    store_file(111, T - HOUR, fee_schedule(852_000, expiry, 1_068_000), split=True)
    store_file(112, T - HOUR + 10, exchange_rates(1, 12, expiry, 6))


def test_gas_price_from_the_current_schedule_and_rate(client, files):
    create_result(T + 5, CONTRACT)
    assert gas_price(client, T + 5) == hex(852_000 // 12_000)


def test_gas_price_after_expiry_uses_the_next_schedule_and_rate(client, files):
    create_result(T + HOUR + 5, CONTRACT)
    assert gas_price(client, T + HOUR + 5) == hex(1_068_000 // 6_000)


def test_gas_price_skips_a_version_that_does_not_parse(client, files):
    store_file(111, T - 10, b"\xff\xff\xff")
    create_result(T + 5, CONTRACT)
    assert gas_price(client, T + 5) == hex(71)


def test_gas_price_is_at_least_one_tinybar(client):
    expiry = T // 10**9 + 3600
    store_file(111, T - HOUR, fee_schedule(10, expiry, 10))
    store_file(112, T - HOUR + 10, exchange_rates(1, 12, expiry, 12))
    create_result(T + 5, CONTRACT)
    assert gas_price(client, T + 5) == "0x1"


def test_no_gas_price_without_a_schedule_in_force_at_the_hour(client, files):
    create_result(T - HOUR - 5, CONTRACT)
    assert gas_price(client, T - HOUR - 5) is None


def test_all_results_carry_the_schedule_gas_price(client, files):
    create_result(T + 5, CONTRACT)
    assert client.get("/api/v1/contracts/results").json()["results"][0]["gas_price"] == hex(71)
