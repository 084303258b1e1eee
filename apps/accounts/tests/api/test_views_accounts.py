import base64

import pytest
from django.conf import settings
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import Client, override_settings

from apps.accounts.models import Entity, EntityStake
from apps.accounts.tests.factories import (
    create_account_balances,
    create_entity,
    create_entity_history,
    create_entity_stake,
    create_token_account,
    create_token_balances,
)
from apps.common import clock
from apps.transactions.tests.factories import create_token_transfers, create_transaction

pytestmark = pytest.mark.django_db

URL = "/api/v1/accounts"
SECOND = 1_000_000_000
DAY = 86_400 * SECOND
ED25519 = "3c3d546321ff6f63d701d2ec5c277095874e19f4a235bee1e6bb19258bf362be"
DELEGATE = bytes.fromhex("deadbeef" + "00" * 16)
CONTRACT_EVM = bytes.fromhex("4af4714503e4f85795962a89ec63d672b9f2bb9a")
ALIAS_ADDRESS = bytes.fromhex("71eaa748d5252be68c1185588beca495459fdba4")
ALIAS_KEY = bytes.fromhex("1220" + ED25519)
# A month of balance snapshots (2023-06) and an instant after it.
JUNE = 1_685_577_600 * SECOND
NOW = JUNE + 20 * DAY


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def accounts():
    create_entity(2, memo="Mirror node created synthetic treasury account", balance=1000, balance_timestamp=1002)
    create_entity(
        3,
        alias=ALIAS_KEY,
        auto_renew_period=100,
        balance=30,
        balance_timestamp=1003,
        created_timestamp=10 * SECOND,
        delegation_address=DELEGATE,
        ethereum_nonce=4,
        key=bytes.fromhex("1220" + ED25519),
        max_automatic_token_associations=10,
        memo="three",
        public_key=ED25519,
        receiver_sig_required=True,
        stake_period_start=10,
        staked_node_id=1,
    )
    create_entity(
        4,
        type="CONTRACT",
        balance=40,
        balance_timestamp=1004,
        delegation_address=bytes(20),
        evm_address=CONTRACT_EVM,
        expiration_timestamp=77 * SECOND,
        staked_account_id=3,
    )
    create_entity(5, alias=ALIAS_ADDRESS, balance=50, balance_timestamp=1005, decline_reward=True, staked_node_id=1)
    create_entity(6, type="TOKEN")
    create_entity_stake(3, pending_reward=300, end_stake_period=20)
    create_entity_stake(5, pending_reward=500, end_stake_period=20)
    create_token_account(3, 5000, 10)
    create_token_account(3, 5001, 11)
    create_token_account(3, 5002, 12, associated=False)


def accounts_of(response) -> list[str]:
    return [account["account"] for account in response.json()["accounts"]]


def errors(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


THREE = {
    "account": "0.0.3",
    "alias": base64.b32encode(ALIAS_KEY).decode().rstrip("="),
    "auto_renew_period": 100,
    "balance": {
        "balance": 30,
        "timestamp": "0.000001003",
        "tokens": [{"token_id": "0.0.5000", "balance": 10}, {"token_id": "0.0.5001", "balance": 11}],
    },
    "created_timestamp": "10.000000000",
    "decline_reward": False,
    "delegation_address": "0x" + DELEGATE.hex(),
    "deleted": False,
    "ethereum_nonce": 4,
    "evm_address": "0x0000000000000000000000000000000000000003",
    "expiry_timestamp": "110.000000000",
    "key": {"_type": "ED25519", "key": ED25519},
    "max_automatic_token_associations": 10,
    "memo": "three",
    "pending_reward": 300,
    "receiver_sig_required": True,
    "staked_account_id": None,
    "staked_node_id": 1,
    "stake_period_start": "864000.000000000",
}


#
# /accounts
#


def test_list_renders_every_field(client, accounts):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    body = response.json()
    assert body["links"] == {"next": None}
    assert accounts_of(response) == ["0.0.3", "0.0.4", "0.0.5"]
    assert body["accounts"][0] == THREE


def test_list_fallbacks_and_stake_rules(client, accounts):
    four, five = client.get(URL).json()["accounts"][1:]

    assert four["evm_address"] == "0x" + CONTRACT_EVM.hex()
    assert four["expiry_timestamp"] == "77.000000000"
    assert four["staked_account_id"] == "0.0.3"
    assert (four["staked_node_id"], four["stake_period_start"], four["pending_reward"]) == (None, None, 0)
    # A 20-byte alias is the EVM address; declining rewards means none are pending.
    assert five["evm_address"] == "0x" + ALIAS_ADDRESS.hex()
    assert (five["decline_reward"], five["pending_reward"]) == (True, 0)


def test_delegation_address_forms(client, accounts):
    delegations = [account["delegation_address"] for account in client.get(URL).json()["accounts"]]

    # Set, cleared (the zero address) and never set.
    assert delegations == ["0x" + DELEGATE.hex(), "0x", "0x"]


def test_delegation_address_can_be_turned_off(client, accounts):
    with override_settings(MIRROR={**settings.MIRROR, "DELEGATION_ADDRESS": False}):
        listed = client.get(URL).json()["accounts"]
        single = client.get(f"{URL}/0.0.3").json()

    assert all("delegation_address" not in account for account in listed)
    assert "delegation_address" not in single


def test_pending_reward_waits_for_the_end_of_the_staking_period(client, accounts):
    create_entity(7, staked_node_id=2, stake_period_start=20)
    create_entity_stake(7, pending_reward=700, end_stake_period=20)

    assert client.get(f"{URL}?account.id=0.0.7").json()["accounts"][0]["pending_reward"] == 0


def test_balance_false_has_no_balances_and_lists_the_synthetic_treasury(client, accounts):
    response = client.get(f"{URL}?balance=false")

    assert accounts_of(response) == ["0.0.2", "0.0.3", "0.0.4", "0.0.5"]
    assert all(account["balance"] is None for account in response.json()["accounts"])
    assert accounts_of(client.get(f"{URL}?balance=true&balance=eq:false")) == accounts_of(response)


@pytest.mark.parametrize(("query", "with_balances"), [("balance=TRUE", True), ("balance=eq:true", False)])
def test_only_a_bare_true_includes_balances(client, accounts, query, with_balances):
    # As upstream: `eq:true` is valid, yet only the bare word turns balances on.
    accounts = client.get(f"{URL}?{query}").json()["accounts"]
    assert all((account["balance"] is not None) == with_balances for account in accounts)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.3&account.id=5", ["0.0.3", "0.0.5"]),
        ("account.id=gt:0.0.3&account.id=lte:0.0.5&account.id=ne:0.0.4", ["0.0.5"]),
        ("account.id=0x0000000000000000000000000000000000000004", ["0.0.4"]),
        # An address that encodes no id matches nothing.
        (f"account.id=0x{CONTRACT_EVM.hex()}", []),
        (f"account.id=0.0.5&account.id={CONTRACT_EVM.hex()}", ["0.0.5"]),
        ("account.balance=gte:40", ["0.0.4", "0.0.5"]),
        ("account.balance=40", ["0.0.4"]),
        ("account.balance=40&account.balance=50", []),
        ("account.balance=40&account.balance=eq:40", ["0.0.4"]),
        ("account.balance=lte:5000000000000000000", ["0.0.3", "0.0.4", "0.0.5"]),
        # Any long is a balance to compare with, even one above the HBAR supply.
        ("account.balance=gt:5000000000000000001", []),
        ("account.balance=9223372036854775807", []),
        # Without balances the balance filter is not applied, as upstream leaves it out.
        ("balance=false&account.balance=gt:5000000000000000000", ["0.0.2", "0.0.3", "0.0.4", "0.0.5"]),
        ("balance=false&account.balance=40", ["0.0.2", "0.0.3", "0.0.4", "0.0.5"]),
        # `order` counts only when given once without an operator; else upstream takes the default.
        ("order=desc&order=desc", ["0.0.3", "0.0.4", "0.0.5"]),
        ("order=eq:desc", ["0.0.3", "0.0.4", "0.0.5"]),
        ("limit=eq:1", ["0.0.3"]),
        (f"account.publickey={ED25519.upper()}", ["0.0.3"]),
        (f"account.publickey=0x{ED25519}", ["0.0.3"]),
        (f"account.publickey=302a300506032b6570032100{ED25519}", ["0.0.3"]),
        (f"account.publickey=ne:{ED25519}", []),
        ("order=desc", ["0.0.5", "0.0.4", "0.0.3"]),
        ("ORDER=DESC&limit=1", ["0.0.5"]),
    ],
)
def test_list_parameters(client, accounts, query, expected):
    assert accounts_of(client.get(f"{URL}?{query}")) == expected


def test_token_balances_follow_the_order_and_their_limit(client, accounts):
    create_token_account(3, 5003, 13)
    with override_settings(MIRROR={**settings.MIRROR, "TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS": 2}):
        ascending = client.get(f"{URL}?account.id=3").json()["accounts"][0]["balance"]["tokens"]
        descending = client.get(f"{URL}?account.id=3&order=desc").json()["accounts"][0]["balance"]["tokens"]

    assert [token["token_id"] for token in ascending] == ["0.0.5000", "0.0.5001"]
    assert [token["token_id"] for token in descending] == ["0.0.5003", "0.0.5001"]


def test_pages_follow_next_links(client, accounts):
    first = client.get(f"{URL}?limit=2")
    second = client.get(first.json()["links"]["next"])
    third = client.get(second.json()["links"]["next"]) if second.json()["links"]["next"] else None

    assert first.json()["links"]["next"] == f"{URL}?limit=2&account.id=gt:0.0.4"
    assert first["Link"] == f'<{URL}?limit=2&account.id=gt:0.0.4>; rel="next"'
    assert accounts_of(second) == ["0.0.5"]
    assert second.json()["links"]["next"] is None
    assert third is None
    descending = client.get(f"{URL}?limit=2&order=desc&account.id=lt:0.0.9")
    assert descending.json()["links"]["next"] == f"{URL}?limit=2&order=desc&account.id=lt:0.0.4"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "account.id=lt:0x0000000000000000000000000000000000000005&limit=1",
            f"{URL}?account.id=lt:0x0000000000000000000000000000000000000005&account.id=gt:0.0.3&limit=1",
        ),
        (
            "account.id=gt:0x0000000000000000000000000000000000000003&limit=1&order=desc",
            f"{URL}?account.id=gt:0x0000000000000000000000000000000000000003&account.id=lt:0.0.5&limit=1&order=desc",
        ),
        ("account.id=gt:0.0.3&account.id=lt:0x0000000000000000000000000000000000000005&limit=1", None),
    ],
)
def test_next_links_keep_evm_address_bounds(client, accounts, query, expected):
    assert client.get(f"{URL}?{query}").json()["links"]["next"] == expected


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 1, "LIMIT_MAX": 2})
def test_limit_default_and_maximum(client, accounts):
    assert accounts_of(client.get(URL)) == ["0.0.3"]
    assert accounts_of(client.get(f"{URL}?limit=100")) == ["0.0.3", "0.0.4"]


def test_authenticated_user_pages_up_to_its_own_limit(client, accounts):
    users = [{"username": "user", "password": "pass", "limit": 3}]
    header = "Basic " + base64.b64encode(b"user:pass").decode()
    with override_settings(MIRROR={**settings.MIRROR, "USERS": users, "LIMIT_MAX": 1}):
        mine = client.get(f"{URL}?limit=3", HTTP_AUTHORIZATION=header)
        anonymous = client.get(f"{URL}?limit=3")
        wrong = client.get(URL, HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"user:nope").decode())

    assert accounts_of(mine) == ["0.0.3", "0.0.4", "0.0.5"]
    assert accounts_of(anonymous) == ["0.0.3"]
    assert (wrong.status_code, wrong.json()) == (401, errors("Invalid credentials"))


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("consensus=hashgraph", ["Unknown query parameter: consensus"]),
        (
            "account.id=lte:0.1.2.3&account.balance=gt:-2&account.publickey=abc&timestamp=1&order=any&balance=1",
            [
                "Invalid parameter: account.id",
                "Invalid parameter: account.balance",
                "Invalid parameter: account.publickey",
                "Unknown query parameter: timestamp",
                "Invalid parameter: order",
                "Invalid parameter: balance",
            ],
        ),
        ("balance=gt:true", ["Invalid parameter: balance"]),
        ("account.balance=gt:9223372036854775808", ["Invalid parameter: account.balance"]),
        ("limit=0", ["Invalid parameter: limit"]),
        ("account.id=x:1", ["Invalid parameter: account.id"]),
    ],
)
def test_list_rejects_bad_parameters(client, db, query, messages):
    response = client.get(f"{URL}?{query}")

    assert (response.status_code, response.json()) == (400, errors(*messages))


#
# /accounts/{idOrAliasOrEvmAddress}
#


@pytest.fixture
def transactions(accounts):
    """Three transactions touching 0.0.3 (paid, token transfer, paid) and one that does not.
    Without fee transfers: those credit node 0.0.3."""
    create_transaction(JUNE + 1 * SECOND, payer=3, fee=0)
    create_token_transfers(create_transaction(JUNE + 2 * SECOND, payer=4, fee=0), 5000, (3, 5), (4, -5))
    create_transaction(JUNE + 3 * SECOND, payer=3, type=15, fee=0)
    create_transaction(JUNE + 4 * SECOND, payer=4, fee=0)


def timestamps_of(body) -> list[str]:
    return [transaction["consensus_timestamp"] for transaction in body["transactions"]]


@pytest.mark.parametrize(
    "path",
    ["0.0.3", "0.3", "3", "0x0000000000000000000000000000000000000003", THREE["alias"], f"0.0.{THREE['alias']}"],
)
def test_one_account_by_any_spelling(client, transactions, path):
    response = client.get(f"{URL}/{path}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=2"
    body = response.json()
    assert {key: value for key, value in body.items() if key not in ("transactions", "links")} == THREE
    assert timestamps_of(body) == ["1685577603.000000000", "1685577602.000000000", "1685577601.000000000"]
    assert body["links"] == {"next": None}


def test_one_account_by_evm_address(client, transactions):
    assert client.get(f"{URL}/0x{CONTRACT_EVM.hex()}").json()["account"] == "0.0.4"
    assert client.get(f"{URL}/0.0.{CONTRACT_EVM.hex()}").json()["account"] == "0.0.4"


def test_one_account_transactions_render_like_the_transactions_route(client, transactions):
    embedded = client.get(f"{URL}/0.0.3?limit=1&order=asc").json()["transactions"]
    listed = client.get("/api/v1/transactions?account.id=0.0.3&limit=1&order=asc").json()["transactions"]

    assert embedded == listed
    assert embedded[0]["transaction_id"] == "0.0.3-1685577600-999999999"


def test_one_account_transactions_page(client, transactions):
    first = client.get(f"{URL}/0.0.3?limit=2")
    second = client.get(first.json()["links"]["next"])

    assert first.json()["links"]["next"] == f"{URL}/0.0.3?limit=2&timestamp=lt:1685577602.000000000"
    assert timestamps_of(second.json()) == ["1685577601.000000000"]
    assert second.json()["links"]["next"] is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("transactions=false", []),
        ("transactions=FALSE&limit=1", []),
        ("transactiontype=CRYPTOUPDATEACCOUNT", ["1685577603.000000000"]),
        # Any operator reads as eq, as upstream.
        ("transactiontype=ne:CRYPTOUPDATEACCOUNT", ["1685577603.000000000"]),
        ("transactionType=cryptotransfer&order=asc", ["1685577601.000000000", "1685577602.000000000"]),
        ("timestamp=gte:1685577602&timestamp=lt:1685577603", ["1685577602.000000000"]),
    ],
)
def test_one_account_transaction_parameters(client, transactions, query, expected):
    body = client.get(f"{URL}/0.0.3?{query}").json()

    assert body["account"] == "0.0.3"
    assert timestamps_of(body) == expected


def test_one_account_token_balance_limit(client, accounts):
    with override_settings(MIRROR={**settings.MIRROR, "TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT": 1}):
        tokens = client.get(f"{URL}/0.0.3?order=desc").json()["balance"]["tokens"]

    assert tokens == [{"token_id": "0.0.5000", "balance": 10}]


def test_one_account_without_its_transactions_is_one_query(client, accounts, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get(f"{URL}/0.0.3?transactions=false")

    body = response.json()
    assert (body["balance"]["tokens"], body["pending_reward"]) == (
        [{"token_id": "0.0.5000", "balance": 10}, {"token_id": "0.0.5001", "balance": 11}],
        300,
    )


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        ("0.0.9", 404, "Not found"),
        # Not an account, and the synthetic treasury.
        ("0.0.6", 404, "Not found"),
        ("0.0.2", 404, "Not found"),
        ("0x" + "ab" * 20, 404, "Not found"),
        ("AAAAAAAA", 404, "No account with a matching alias found"),
        ("0.0.1.2", 400, "Invalid parameter: idOrAliasOrEvmAddress"),
        ("1.0." + CONTRACT_EVM.hex(), 400, "Invalid parameter: idOrAliasOrEvmAddress"),
    ],
)
def test_one_account_errors(client, accounts, path, status, message):
    response = client.get(f"{URL}/{path}")

    assert (response.status_code, response.json()) == (status, errors(message))


@pytest.mark.parametrize(
    ("query", "status", "messages"),
    [
        ("transactiontype=invalid", 400, ["Invalid parameter: transactiontype"]),
        ("transactions=maybe&account.id=3", 400, ["Invalid parameter: transactions", "Unknown query parameter: account.id"]),
    ],
)
def test_one_account_query_errors_come_before_the_path(client, accounts, query, status, messages):
    response = client.get(f"{URL}/AAAAAAAA?{query}")

    assert (response.status_code, response.json()) == (status, errors(*messages))


@pytest.mark.parametrize(
    ("path", "message"),
    [("0.0.3", "Timestamp range is empty"), ("AAAAAAAA", "No account with a matching alias found")],
)
def test_one_account_empty_timestamp_range_comes_after_the_path(client, accounts, path, message):
    response = client.get(f"{URL}/{path}?timestamp=gt:1685577602&timestamp=lte:1685577602")

    assert (response.status_code, response.json()) == (404, errors(message))


@pytest.mark.parametrize("query", ["timestamp=gt:1685577603&timestamp=1685577602", "timestamp=1685577602&timestamp=gt:1685577603"])
def test_one_account_at_an_instant_outside_its_range_is_the_account_now_without_tokens(client, accounts, query):
    # As the upstream: the range (of its range operators) is not empty, but nothing is in force at the instant.
    now = client.get(f"{URL}/0.0.3?transactions=false").json()

    response = client.get(f"{URL}/0.0.3?{query}")

    assert response.status_code == 200
    body = response.json()
    assert (body["balance"]["tokens"], body["transactions"]) == ([], [])
    assert {**body["balance"], "tokens": None} == {**now["balance"], "tokens": None}


#
# /accounts/{id}?timestamp: the account as it was
#


@pytest.fixture
def history(accounts):
    """0.0.3 changed at JUNE + 10 days; before, it had another memo, stake and balance."""
    changed = JUNE + 10 * DAY
    Entity.objects.filter(id=3).update(timestamp_range=Range(changed, None))
    EntityStake.objects.filter(id=3).update(timestamp_range=Range(changed, None))
    create_entity_history(
        3,
        JUNE - 30 * DAY,
        changed,
        balance=33,
        balance_timestamp=JUNE - DAY,
        memo="three before",
        stake_period_start=5,
        staked_node_id=2,
        delegation_address=None,
    )
    create_entity_stake(3, pending_reward=30, end_stake_period=10, lower=JUNE - 30 * DAY, upper=changed)
    # Snapshots: the treasury (0.0.2) is in every one; 0.0.3 only in the first.
    create_account_balances(JUNE + DAY, {2: 1, 3: 31})
    create_token_balances(JUNE + DAY, 3, {5000: 1, 5001: 2})
    create_account_balances(JUNE + 2 * DAY, {2: 1})
    return changed


def account_at(client, query: str) -> dict:
    with clock.frozen_at(NOW):
        response = client.get(f"{URL}/0.0.3?{query}")
    assert response.status_code == 200
    return response.json()


def test_historical_state_and_balance_snapshot(client, history):
    body = account_at(client, f"timestamp=lte:{(JUNE + 3 * DAY) // SECOND}")

    assert body["memo"] == "three before"
    assert (body["staked_node_id"], body["stake_period_start"], body["pending_reward"]) == (2, "432000.000000000", 30)
    assert body["delegation_address"] == "0x"
    # The newest snapshot in range; the account's latest balance in its month.
    assert body["balance"] == {
        "balance": 31,
        "timestamp": "1685750400.000000000",
        "tokens": [{"token_id": "0.0.5000", "balance": 1}, {"token_id": "0.0.5001", "balance": 2}],
    }


def test_historical_state_without_a_snapshot_uses_the_entity_balance(client, history):
    body = account_at(client, f"timestamp={(JUNE - 2 * DAY) // SECOND}")

    assert body["memo"] == "three before"
    assert body["balance"] == {"balance": 33, "timestamp": "1685491200.000000000", "tokens": []}


def test_historical_state_after_the_change_is_the_current_one(client, history):
    body = account_at(client, f"timestamp=gt:{history // SECOND}")

    assert body["memo"] == "three"
    assert body["delegation_address"] == "0x" + DELEGATE.hex()
    assert body["pending_reward"] == 300
    # No snapshot after the change: the balance the account itself records.
    assert body["balance"] == {"balance": 30, "timestamp": "0.000001003", "tokens": []}


def test_historical_state_excluding_an_instant_skips_the_version_holding_it(client, history):
    with clock.frozen_at(NOW):
        response = client.get(
            f"{URL}/0.0.3?timestamp=lte:{(JUNE + 3 * DAY) // SECOND}&timestamp=ne:{(JUNE + 2 * DAY) // SECOND}"
        )

    assert (response.status_code, response.json()) == (404, errors("Not found"))


def test_account_created_after_the_range_is_not_found(client, history):
    with clock.frozen_at(NOW):
        response = client.get(f"{URL}/0.0.3?timestamp=lt:{(JUNE - 30 * DAY) // SECOND}")

    assert (response.status_code, response.json()) == (404, errors("Not found"))


@pytest.mark.parametrize(
    "query",
    [
        "timestamp=9999999999.999999999",
        "timestamp=gt:9999999999.999999999",
        "timestamp=gt:9000000000&timestamp=lte:9999999999",
    ],
)
def test_historical_state_beyond_the_last_instant_is_the_current_one(client, history, query):
    assert account_at(client, query)["memo"] == "three"

