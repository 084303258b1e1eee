"""GET /api/v1/network/exchangerate, /fees, /stake and /supply."""

import pytest
from django.test import Client

from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.network.tests.factories import (
    FILE_CREATE,
    SECOND,
    create_file_data,
    create_network_stake,
    exchange_rate_set,
    fee_schedules,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000
CONTRACT_PRICES = {"CryptoTransfer": 0, "EthereumTransaction": 953000, "ContractCall": 852000, "ContractCreate": 1068000}


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def java_error(reason: str, detail: str) -> dict:
    return {"_status": {"messages": [{"message": reason, "detail": detail}]}}


def ok(response) -> dict:
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "public, max-age=60"
    return response.json()


@pytest.fixture
def rate_files():
    """Two versions of 0.0.112: at T (1:12 until T+3600, then 1:13) and at T+3600 (2:24, then 2:25)."""
    create_file_data(112, T * SECOND, exchange_rate_set((1, 12, T + 3600), (1, 13, T + 7200)), type=FILE_CREATE)
    create_file_data(112, (T + 3600) * SECOND, exchange_rate_set((2, 24, T + 7200), (2, 25, T + 10800)))


# --- /network/exchangerate -------------------------------------------------------------------


def test_exchangerate_renders_the_latest_rates(client, rate_files):
    assert ok(client.get("/api/v1/network/exchangerate?unknown=1")) == {
        "current_rate": {"cent_equivalent": 24, "expiration_time": T + 7200, "hbar_equivalent": 2},
        "next_rate": {"cent_equivalent": 25, "expiration_time": T + 10800, "hbar_equivalent": 2},
        "timestamp": f"{T + 3600}.000000000",
    }


@pytest.mark.parametrize(
    ("query", "hbars"),
    [
        (f"timestamp={T + 3599}", 1),
        (f"timestamp=eq:{T + 3599}.999999999", 1),
        (f"timestamp=lte:{T + 3600}", 2),
        (f"timestamp=lt:{T + 3600}", 1),
        (f"timestamp=LT:{T + 3600}.000000001", 2),
        (f"timestamp=gte:{T}&timestamp=lt:{T + 1}", 1),
        (f"timestamp=gt:{T}", 2),
        # The digits after the dot are nanoseconds as written, as the upstream reads them.
        (f"timestamp={T + 3599}.5", 1),
        ("timestamp=", 2),
    ],
)
def test_exchangerate_timestamp_bounds_the_file(client, rate_files, query, hbars):
    assert ok(client.get(f"/api/v1/network/exchangerate?{query}"))["current_rate"]["hbar_equivalent"] == hbars


def test_exchangerate_without_a_file_in_bounds_is_404(client, rate_files):
    response = client.get(f"/api/v1/network/exchangerate?timestamp=lt:{T}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "File 0.0.112 not found")
    assert "max-age=60" not in response.get("Cache-Control", "")


def test_exchangerate_of_a_file_that_never_parses_is_404(client):
    create_file_data(112, T * SECOND, b"\xff\xff", type=FILE_CREATE)

    assert client.get("/api/v1/network/exchangerate").json() == java_error("Not Found", "File 0.0.112 not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("timestamp=ne:1", "Failed to convert 'timestamp'"),
        ("timestamp=abc", "Failed to convert 'timestamp'"),
        ("timestamp=foo:1", "Failed to convert 'timestamp'"),
        ("timestamp=1.1234567890", "Failed to convert 'timestamp'"),
        ("timestamp=-1", "Failed to convert 'timestamp'"),
        ("timestamp=99999999999999999", "Failed to convert 'timestamp'"),
        ("timestamp=gt:1&timestamp=gt:2&timestamp=lt:5", "timestamp size must be between 0 and 2"),
        ("timestamp=gt:5&timestamp=lt:3", "Invalid range provided for timestamp"),
        ("timestamp=gt:5&timestamp=lte:5", "Invalid range provided for timestamp"),
    ],
)
def test_exchangerate_bad_timestamps_are_400(client, rate_files, query, detail):
    response = client.get(f"/api/v1/network/exchangerate?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


# --- /network/fees ---------------------------------------------------------------------------


@pytest.fixture
def fee_files(rate_files):
    """0.0.111 at T: current schedule until T+1800, the next one has doubled gas prices."""
    doubled = {name: price * 2 for name, price in CONTRACT_PRICES.items()}
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 1800, CONTRACT_PRICES), (T + 90000, doubled)), type=17)


def test_fees_price_gas_of_the_contract_transactions(client, fee_files):
    # The schedule's own timestamp (T) picks the current schedule and the rate in force then, 1:12.
    assert ok(client.get("/api/v1/network/fees")) == {
        "fees": [
            {"gas": 71, "transaction_type": "ContractCall"},
            {"gas": 89, "transaction_type": "ContractCreate"},
            {"gas": 79, "transaction_type": "EthereumTransaction"},
        ],
        "timestamp": f"{T}.000000001",
    }


def test_fees_in_descending_order(client, fee_files):
    fees = ok(client.get("/api/v1/network/fees?order=DESC"))["fees"]

    assert [fee["transaction_type"] for fee in fees] == ["EthereumTransaction", "ContractCreate", "ContractCall"]


def test_fees_after_the_expiry_use_the_next_schedule_and_rate(client, fee_files):
    # At T+3601 the 0.0.112 version of T+3600 is in force (current rate 2:24, until T+7200)
    # and the schedule of T is past its current schedule's expiry.
    body = ok(client.get(f"/api/v1/network/fees?timestamp=lte:{T + 3601}"))

    assert body == {
        "fees": [
            {"gas": 1704 * 2 // 24, "transaction_type": "ContractCall"},
            {"gas": 2136 * 2 // 24, "transaction_type": "ContractCreate"},
            {"gas": 1906 * 2 // 24, "transaction_type": "EthereumTransaction"},
        ],
        "timestamp": f"{T}.000000001",
    }


def test_fees_use_the_next_rate_past_the_current_one(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 12, T), (1, 1, T + 3600)), type=FILE_CREATE)
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 1800, {"ContractCall": 852000}), (T, {})), type=17)

    assert ok(client.get("/api/v1/network/fees"))["fees"] == [{"gas": 852, "transaction_type": "ContractCall"}]


def test_fees_are_at_least_one_tinybar_and_skip_entries_without_service_data(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 30, T + 10), (1, 30, T + 20)), type=FILE_CREATE)
    prices = {"ContractCall": 1000, "ContractCreate": None, "EthereumTransaction": 0}
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 10, prices), (T + 20, prices)), type=FILE_CREATE)

    assert ok(client.get("/api/v1/network/fees"))["fees"] == [
        {"gas": 1, "transaction_type": "ContractCall"},
        {"gas": 1, "transaction_type": "EthereumTransaction"},
    ]


def test_fees_without_a_cent_equivalent_are_empty(client):
    create_file_data(112, T * SECOND, exchange_rate_set((1, 0, T + 10), (1, 0, T + 20)), type=FILE_CREATE)
    create_file_data(111, T * SECOND + 1, fee_schedules((T + 10, CONTRACT_PRICES), (T + 20, {})), type=FILE_CREATE)

    assert ok(client.get("/api/v1/network/fees")) == {"fees": [], "timestamp": f"{T}.000000001"}


def test_fees_without_a_schedule_is_404(client, rate_files):
    response = client.get("/api/v1/network/fees")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "File 0.0.111 not found")


def test_fees_without_a_rate_is_404(client):
    create_file_data(111, T * SECOND, fee_schedules((T + 10, CONTRACT_PRICES), (T + 20, {})), type=FILE_CREATE)

    assert client.get("/api/v1/network/fees").json() == java_error("Not Found", "File 0.0.112 not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("order=up", "Failed to convert 'order'"),
        ("timestamp=ne:1&order=asc", "Failed to convert 'timestamp'"),
        ("timestamp=1&timestamp=2&timestamp=3&order=up", "Failed to convert 'order'"),
        ("timestamp=1&timestamp=2&timestamp=3", "timestamp size must be between 0 and 2"),
    ],
)
def test_fees_bad_parameters_are_400(client, fee_files, query, detail):
    response = client.get(f"/api/v1/network/fees?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)


# --- /network/stake --------------------------------------------------------------------------


def test_stake_renders_the_latest_network_stake(client):
    create_network_stake(T * SECOND - 86400 * SECOND, stake_total=1)
    create_network_stake(T * SECOND)

    assert ok(client.get("/api/v1/network/stake")) == {
        "max_stake_rewarded": 10,
        "max_staking_reward_rate_per_hbar": 17808,
        "max_total_reward": 20,
        "node_reward_fee_fraction": 0.666666667,
        "reserved_staking_rewards": 30,
        "reward_balance_threshold": 40,
        "stake_total": 35_000_000_000_000_000,
        "staking_period": {"from": f"{T}.000000000", "to": f"{T + 86400}.000000000"},
        "staking_period_duration": 1440,
        "staking_periods_stored": 365,
        "staking_reward_fee_fraction": 0.15,
        "staking_reward_rate": 100_000_000_000,
        "staking_start_threshold": 25_000_000_000_000_000,
        "unreserved_staking_reward_balance": 50,
    }


def test_stake_fractions_of_a_zero_denominator_are_zero(client):
    create_network_stake(T * SECOND, node_reward_fee_denominator=0, staking_reward_fee_denominator=0)

    body = ok(client.get("/api/v1/network/stake"))

    assert (body["node_reward_fee_fraction"], body["staking_reward_fee_fraction"]) == (0.0, 0.0)


def test_stake_without_rows_is_404(client):
    response = client.get("/api/v1/network/stake")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "No network stake data found")


# --- /network/supply -------------------------------------------------------------------------

TOTAL = 5_000_000_000_000_000_000


@pytest.fixture
def unreleased_accounts():
    """Unreleased accounts 0.0.2 and 0.0.750 (and released 0.0.98 and 0.0.751), now and in snapshots."""
    create_entity(2, balance=1_000, balance_timestamp=(T + 50) * SECOND)
    create_entity(750, balance=2_000, balance_timestamp=(T + 40) * SECOND)
    create_entity(98, balance=9_999_999, balance_timestamp=(T + 60) * SECOND)
    create_entity(751, balance=9_999_999, balance_timestamp=(T + 60) * SECOND)
    create_account_balances(T * SECOND, {2: 100, 750: 200, 98: 999, 751: 999})
    create_account_balances((T + 10) * SECOND, {2: 300, 98: 999})


def test_supply_now_from_the_accounts_balances(client, unreleased_accounts):
    assert ok(client.get("/api/v1/network/supply")) == {
        "released_supply": str(TOTAL - 3_000),
        "timestamp": f"{T + 50}.000000000",
        "total_supply": str(TOTAL),
    }


@pytest.mark.parametrize(
    ("query", "unreleased", "timestamp"),
    [
        (f"timestamp={T + 10}", 500, T + 10),
        (f"timestamp=lt:{T + 10}", 300, T),
        (f"timestamp=gte:{T}&timestamp=lte:{T + 5}", 300, T),
    ],
)
def test_supply_at_a_timestamp_from_the_latest_snapshots(client, unreleased_accounts, query, unreleased, timestamp):
    assert ok(client.get(f"/api/v1/network/supply?{query}")) == {
        "released_supply": str(TOTAL - unreleased),
        "timestamp": f"{timestamp}.000000000",
        "total_supply": str(TOTAL),
    }


def test_supply_looks_back_to_the_first_day_of_the_previous_month(client):
    # T is 2023-11-14: snapshots from 2023-10-01 on count, older ones do not.
    create_account_balances(1_696_118_400 * SECOND - 1, {42: 7})
    create_account_balances(1_696_118_400 * SECOND, {44: 5})

    body = ok(client.get(f"/api/v1/network/supply?timestamp={T}"))

    assert (body["released_supply"], body["timestamp"]) == (str(TOTAL - 5), "1696118400.000000000")


@pytest.mark.parametrize(
    ("query", "text"),
    [("q=totalcoins", "50000000000.00000000"), ("q=CIRCULATING", "49999999999.99997000"), ("q=total_coins", "50000000000.00000000")],
)
def test_supply_as_plain_text(client, unreleased_accounts, query, text):
    response = client.get(f"/api/v1/network/supply?{query}")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain;charset=UTF-8"
    assert response["Cache-Control"] == "public, max-age=60"
    assert response.content.decode() == text


def test_supply_without_balances_is_404(client, unreleased_accounts):
    response = client.get(f"/api/v1/network/supply?timestamp=lt:{T}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "Network supply not found")


def test_supply_without_accounts_is_404(client):
    assert client.get("/api/v1/network/supply").json() == java_error("Not Found", "Network supply not found")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("q=all", "Failed to convert 'q'"),
        ("q=totalcoins&q=circulating", "Failed to convert 'q'"),
        ("timestamp=ne:1", "Failed to convert 'timestamp'"),
        ("timestamp=1&timestamp=2&timestamp=3", "timestamp size must be between 0 and 2"),
        ("timestamp=gte:3&timestamp=lt:3", "Invalid range provided for timestamp"),
    ],
)
def test_supply_bad_parameters_are_400(client, unreleased_accounts, query, detail):
    response = client.get(f"/api/v1/network/supply?{query}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", detail)
