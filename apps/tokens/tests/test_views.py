import pytest
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import Client

from apps.accounts.models import Entity, TokenAccount
from apps.accounts.tests.factories import (
    create_account_balances,
    create_entity,
    create_token_account,
    create_token_balances,
)
from apps.common import clock
from apps.common.query.filters import equals_only
from apps.tokens.tests.factories import (
    SECOND,
    T,
    create_nft,
    create_nft_history,
    create_token,
    create_token_history,
)
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db

ED25519_KEY = bytes.fromhex("1220" + "ab" * 32)
PUBLIC_KEY = "ab" * 32
SNAPSHOT = 1566560003 * SECOND


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def messages(response) -> list[str]:
    return [message["message"] for message in response.json()["_status"]["messages"]]


# --- /tokens ----------------------------------------------------------------------------------


@pytest.fixture
def tokens():
    create_token(1001, key=ED25519_KEY, public_key=PUBLIC_KEY, metadata=b"\x01\x01")
    create_token(1002, name="Gold Coin", type="NON_FUNGIBLE_UNIQUE", decimals=0)
    create_token(1003, name="Silver coin", public_key=PUBLIC_KEY)
    create_token_account(7, 1002, 0)
    create_token_account(7, 1003, 0, associated=False)


def token_ids(response) -> list[str]:
    return [token["token_id"] for token in response.json()["tokens"]]


def test_tokens(client, tokens):
    response = client.get("/api/v1/tokens")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    assert response.json()["tokens"][0] == {
        "admin_key": {"_type": "ED25519", "key": PUBLIC_KEY},
        "decimals": 2,
        "metadata": "AQE=",
        "name": "Token 1001",
        "symbol": "SYM1001",
        "token_id": "0.0.1001",
        "type": "FUNGIBLE_COMMON",
    }
    assert token_ids(response) == ["0.0.1001", "0.0.1002", "0.0.1003"]
    assert response.json()["tokens"][1]["metadata"] == ""
    assert response.json()["links"] == {"next": None}


def test_tokens_without_an_entity_are_not_listed(client, tokens):
    Entity.objects.filter(id=1002).delete()

    assert token_ids(client.get("/api/v1/tokens")) == ["0.0.1001", "0.0.1003"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("token.id=0.0.1002", ["0.0.1002"]),
        ("token.id=1001&token.id=eq:0.0.1003", ["0.0.1001", "0.0.1003"]),
        ("token.id=gt:1001&token.id=lte:0.0.1003", ["0.0.1002", "0.0.1003"]),
        ("token.id=ne:1002", ["0.0.1001", "0.0.1003"]),
        ("token.id=0x00000000000000000000000000000000000003EA", ["0.0.1002"]),
        ("type=NON_FUNGIBLE_UNIQUE", ["0.0.1002"]),
        ("type=fungible_common", ["0.0.1001", "0.0.1003"]),
        ("type=all", ["0.0.1001", "0.0.1002", "0.0.1003"]),
        ("type=fungible_common&type=non_fungible_unique", []),
        # Upstream compares with the operator, in the token_type enum's order.
        ("type=ne:fungible_common", ["0.0.1002"]),
        ("type=gt:FUNGIBLE_COMMON", ["0.0.1002"]),
        ("type=lt:FUNGIBLE_COMMON", []),
        ("type=ne:all", ["0.0.1001", "0.0.1002", "0.0.1003"]),
        ("name=coin", ["0.0.1002", "0.0.1003"]),
        ("name=eq:GOLD&name=coin", ["0.0.1002"]),
        ("publickey=" + PUBLIC_KEY, ["0.0.1001", "0.0.1003"]),
        # Compared with its operator, as the upstream does.
        ("publickey=gt:" + "aa" * 32, ["0.0.1001", "0.0.1003"]),
        ("publickey=gte:" + PUBLIC_KEY, ["0.0.1001", "0.0.1003"]),
        ("publickey=lt:" + PUBLIC_KEY, []),
        ("account.id=0.0.7", ["0.0.1002"]),
        ("order=desc", ["0.0.1003", "0.0.1002", "0.0.1001"]),
    ],
)
def test_token_filters(client, tokens, query, expected):
    assert token_ids(client.get(f"/api/v1/tokens?{query}")) == expected


def test_tokens_next_link(client, tokens):
    response = client.get("/api/v1/tokens?token.id=lt:0.0.1003&limit=1&order=desc")

    assert token_ids(response) == ["0.0.1002"]
    # The single bound is replaced by the new one, which goes last.
    assert response.json()["links"]["next"] == "/api/v1/tokens?limit=1&order=desc&token.id=lt:0.0.1002"
    assert response["Link"] == '</api/v1/tokens?limit=1&order=desc&token.id=lt:0.0.1002>; rel="next"'


@pytest.fixture
def tokens_named_with_like_wildcards():
    create_token(1101, name="Gold Coin")
    create_token(1102, name="a_c token")
    create_token(1103, name="50% off")
    create_token(1104, name="back\\slash")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # `%`, `_` and `\` are characters of the name, not a pattern (upstream matches all four with `___`).
        ("name=___", []),
        ("name=%25%25%25", []),
        ("name=a_c", ["0.0.1102"]),
        ("name=0%25%20", ["0.0.1103"]),
        ("name=k%5Cs", ["0.0.1104"]),
        ("name=%5C%5Cs", []),
        ("name=A_C%20TOKEN", ["0.0.1102"]),
    ],
)
def test_token_name_is_a_substring_without_wildcards(client, tokens_named_with_like_wildcards, query, expected):
    assert token_ids(client.get(f"/api/v1/tokens?{query}")) == expected


def test_name_search_has_no_next_link(client, tokens):
    response = client.get("/api/v1/tokens?name=coin&limit=1")

    assert token_ids(response) == ["0.0.1002"]
    assert response.json()["links"] == {"next": None}
    assert not response.has_header("Link")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("token.id=1&name=coin&limit=x", ["token.id and name can not be used together. Use a more specific name instead."]),
        ("account.id=7&name=coin", ["account.id and name cannot be used together"]),
        # Upstream reads one bare account id, after every value has passed validation.
        ("account.id=gte:7", ["Invalid parameter: account.id"]),
        ("account.id=eq:7&token.id=x", ["Invalid parameter: token.id"]),
        ("account.id=7&account.id=0.0.8", ['Entity ID "7,0.0.8" is not a string']),
        (
            "account.id=lte:0.1.2.3&token.id=abc&limit=-2&publickey=-2&order=any&block.number=3",
            [
                "Invalid parameter: account.id",
                "Invalid parameter: token.id",
                "Invalid parameter: limit",
                "Invalid parameter: publickey",
                "Invalid parameter: order",
                "Unknown query parameter: block.number",
            ],
        ),
        ("token.id=06bd279138d5918402fc8ad500526cb2ee0eb985", ["Invalid parameter: token.id"]),
        ("name=ab", ["Invalid parameter: name"]),
        ("name=" + "x" * 101, ["Invalid parameter: name"]),
        ("name=gt:coin", ["Invalid parameter: name"]),
        # PostgreSQL refuses NUL in text: a 400, not a database failure (503).
        ("name=abc%00", ["Invalid parameter: name"]),
        ("name=coin%00&limit=%00", ["Invalid parameter: name", "Invalid parameter: limit"]),
        ("type=cash", ["Invalid parameter: type"]),
        ("type=zz:all", ["Invalid parameter: type"]),
    ],
)
def test_token_list_errors(client, tokens, query, expected):
    response = client.get(f"/api/v1/tokens?{query}")

    assert response.status_code == 400
    assert messages(response) == expected


# --- /tokens/{tokenId} ------------------------------------------------------------------------

FRACTIONAL_FEES = {
    "fixed_fees": [{"amount": 5, "collector_account_id": 8, "denominating_token_id": 1001}],
    "fractional_fees": [
        {"numerator": 1, "denominator": 10, "minimum_amount": 2, "maximum_amount": 9, "collector_account_id": 9},
        {"numerator": 1, "denominator": 3, "net_of_transfers": True, "collector_account_id": 9,
         "all_collectors_are_exempt": True},
    ],
}


def test_token_info(client):
    create_token(1001, key=ED25519_KEY, fees=FRACTIONAL_FEES, supply_key=b"\x01\x02", metadata=None)
    Entity.objects.filter(id=1001).update(auto_renew_period=10, timestamp_range=Range(T + 5, None))

    response = client.get("/api/v1/tokens/0.0.1001")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=5"
    assert response.json() == {
        "admin_key": {"_type": "ED25519", "key": PUBLIC_KEY},
        "auto_renew_account": None,
        "auto_renew_period": 10,
        "created_timestamp": "1700000000.000000000",
        "custom_fees": {
            "created_timestamp": "1700000000.000000000",
            "fixed_fees": [
                {"all_collectors_are_exempt": False, "amount": 5, "collector_account_id": "0.0.8",
                 "denominating_token_id": "0.0.1001"},
            ],
            "fractional_fees": [
                {"all_collectors_are_exempt": False, "amount": {"denominator": 10, "numerator": 1},
                 "collector_account_id": "0.0.9", "denominating_token_id": "0.0.1001", "maximum": 9, "minimum": 2,
                 "net_of_transfers": False},
                {"all_collectors_are_exempt": True, "amount": {"denominator": 3, "numerator": 1},
                 "collector_account_id": "0.0.9", "denominating_token_id": "0.0.1001", "maximum": None, "minimum": 0,
                 "net_of_transfers": True},
            ],
        },
        "decimals": "2",
        "deleted": False,
        "expiry_timestamp": T + 10 * SECOND,
        "fee_schedule_key": None,
        "freeze_default": False,
        "freeze_key": None,
        "initial_supply": "1000",
        "kyc_key": None,
        "max_supply": "9223372036854775807",
        "memo": "memo 1001",
        "metadata": "",
        "metadata_key": None,
        "modified_timestamp": "1700000000.000000005",
        "name": "Token 1001",
        "pause_key": None,
        "pause_status": "NOT_APPLICABLE",
        "supply_key": {"_type": "ProtobufEncoded", "key": "0102"},
        "supply_type": "INFINITE",
        "symbol": "SYM1001",
        "token_id": "0.0.1001",
        "total_supply": "1000",
        "treasury_account_id": "0.0.98",
        "type": "FUNGIBLE_COMMON",
        "wipe_key": None,
    }


def test_token_info_of_an_nft_has_royalty_fees(client):
    royalty_fees = [
        {"numerator": 1, "denominator": 20, "collector_account_id": 8},
        {"numerator": 1, "denominator": 5, "collector_account_id": 9, "fallback_fee": {"amount": 7}},
        {"numerator": 1, "denominator": 5, "collector_account_id": 9,
         "fallback_fee": {"amount": 3, "denominating_token_id": 1002}},
    ]
    create_token(1001, type="NON_FUNGIBLE_UNIQUE", fees={"royalty_fees": royalty_fees})

    fees = client.get("/api/v1/tokens/1001").json()["custom_fees"]

    assert fees == {
        "created_timestamp": "1700000000.000000000",
        "fixed_fees": [],
        "royalty_fees": [
            {"all_collectors_are_exempt": False, "amount": {"denominator": 20, "numerator": 1},
             "collector_account_id": "0.0.8", "fallback_fee": None},
            {"all_collectors_are_exempt": False, "amount": {"denominator": 5, "numerator": 1},
             "collector_account_id": "0.0.9", "fallback_fee": {"amount": 7, "denominating_token_id": None}},
            {"all_collectors_are_exempt": False, "amount": {"denominator": 5, "numerator": 1},
             "collector_account_id": "0.0.9", "fallback_fee": {"amount": 3, "denominating_token_id": "0.0.1002"}},
        ],
    }


@pytest.fixture
def token_with_history():
    create_token(1001, symbol="NEW")
    create_token_history(1001, T - 10 * SECOND, T, symbol="OLD")


@pytest.mark.parametrize(
    ("query", "symbol", "memo"),
    [
        ("", "NEW", "memo 1001"),
        ("timestamp=1700000000", "NEW", "memo 1001"),
        ("timestamp=lt:1700000000", "OLD", "old memo 1001"),
        ("timestamp=lte:1699999999.5", "OLD", "old memo 1001"),
        # The last value counts.
        ("timestamp=lt:1700000000&timestamp=1700000001", "NEW", "memo 1001"),
    ],
)
def test_token_info_at_a_timestamp(client, token_with_history, query, symbol, memo):
    response = client.get(f"/api/v1/tokens/1001?{query}")

    assert response.status_code == 200
    assert (response.json()["symbol"], response.json()["memo"]) == (symbol, memo)


def test_historical_custom_fees_follow_the_timestamp(client, token_with_history):
    response = client.get("/api/v1/tokens/1001?timestamp=1699999995")

    assert response.json()["custom_fees"]["created_timestamp"] == "1699999990.000000000"
    assert response.json()["modified_timestamp"] == "1699999990.000000000"


@pytest.mark.parametrize(
    ("url", "status", "expected"),
    [
        ("/api/v1/tokens/1001?timestamp=1699999989", 404, ["Not found"]),
        ("/api/v1/tokens/1002", 404, ["Not found"]),
        ("/api/v1/tokens/abc", 400, ["Invalid parameter: tokenid"]),
        ("/api/v1/tokens/0.0.0x00000000000000000000000000000000000003E9", 400, ["Invalid parameter: tokenid"]),
        ("/api/v1/tokens/1001?timestamp=gt:1", 400, ["Invalid parameter: timestamp"]),
        ("/api/v1/tokens/1001?timestamp=ne:1", 400, ["Invalid parameter: timestamp"]),
        ("/api/v1/tokens/1001?limit=1", 400, ["Unknown query parameter: limit"]),
    ],
)
def test_token_info_errors(client, token_with_history, url, status, expected):
    response = client.get(url)

    assert response.status_code == status
    assert messages(response) == expected


def test_token_info_needs_custom_fees(client, token_with_history):
    from apps.tokens.models import CustomFee

    CustomFee.objects.all().delete()

    assert client.get("/api/v1/tokens/1001").status_code == 404


# --- /tokens/{tokenId}/balances ---------------------------------------------------------------


@pytest.fixture
def balances():
    create_token(1001, decimals=3)
    for account, balance in ((5, 50), (6, 60), (7, 70)):
        create_entity(account, public_key=PUBLIC_KEY if account != 6 else None)
        create_token_account(account, 1001, balance)
        TokenAccount.objects.filter(account_id=account).update(balance_timestamp=T + account)
    create_token_account(8, 1001, 80, associated=False)
    create_account_balances(SNAPSHOT - SECOND, {2: 1})
    create_account_balances(SNAPSHOT, {2: 2})
    create_token_balances(SNAPSHOT - SECOND, 5, {1001: 5})
    create_token_balances(SNAPSHOT - SECOND, 6, {1001: 6})
    create_token_balances(SNAPSHOT, 6, {1001: 66})


def accounts_of(response) -> list[tuple[str, int]]:
    return [(balance["account"], balance["balance"]) for balance in response.json()["balances"]]


def test_token_balances(client, balances, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/api/v1/tokens/0.0.1001/balances")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "timestamp": "1700000000.000000007",
        "balances": [
            {"account": "0.0.7", "balance": 70, "decimals": 3},
            {"account": "0.0.6", "balance": 60, "decimals": 3},
            {"account": "0.0.5", "balance": 50, "decimals": 3},
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.6", [("0.0.6", 60)]),
        ("account.id=gt:5&account.id=lt:0.0.7", [("0.0.6", 60)]),
        ("account.id=ne:6&order=asc", [("0.0.5", 50), ("0.0.7", 70)]),
        # An EVM address that encodes no id matches nothing, as upstream does not look it up.
        ("account.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("account.id=gt:0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("account.balance=gte:60", [("0.0.7", 70), ("0.0.6", 60)]),
        ("account.publickey=" + PUBLIC_KEY, [("0.0.7", 70), ("0.0.5", 50)]),
        ("timestamp=1566560004", [("0.0.6", 66), ("0.0.5", 5)]),
        ("timestamp=lt:1566560003", [("0.0.6", 6), ("0.0.5", 5)]),
        ("timestamp=1566560004&account.balance=lt:10", [("0.0.5", 5)]),
        ("timestamp=1566560004&account.publickey=" + PUBLIC_KEY, [("0.0.5", 5)]),
        ("timestamp=1566560001", []),
    ],
)
def test_token_balance_filters(client, balances, query, expected):
    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get(f"/api/v1/tokens/1001/balances?{query}")

    assert response.status_code == 200
    assert accounts_of(response) == expected


def test_token_balances_at_a_snapshot_name_it(client, balances):
    with clock.frozen_at(SNAPSHOT + 60 * SECOND):
        response = client.get("/api/v1/tokens/1001/balances?timestamp=1566560004")

    assert response.json()["timestamp"] == "1566560003.000000000"


def test_token_balances_next_link(client, balances):
    response = client.get("/api/v1/tokens/0x00000000000000000000000000000000000003E9/balances?limit=2&order=asc")

    assert accounts_of(response) == [("0.0.5", 50), ("0.0.6", 60)]
    assert response.json()["links"]["next"] == (
        "/api/v1/tokens/0x00000000000000000000000000000000000003E9/balances?limit=2&order=asc&account.id=gt:0.0.6"
    )


def test_balances_of_an_unknown_token_are_empty(client, balances):
    response = client.get("/api/v1/tokens/0.0.1002/balances")

    assert response.json() == {"timestamp": None, "balances": [], "links": {"next": None}}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "/api/v1/tokens/1001/balances?account.id=lte:0.1.2.3&account.balance=gt:-2&account.publickey=-2"
            "&timestamp=-1.2&order=any&slot=1",
            [
                "Invalid parameter: account.id",
                "Invalid parameter: account.balance",
                "Invalid parameter: account.publickey",
                "Invalid parameter: timestamp",
                "Invalid parameter: order",
                "Unknown query parameter: slot",
            ],
        ),
        ("/api/v1/tokens/1001/balances?limit=0", ["Invalid parameter: limit"]),
        ("/api/v1/tokens/mirror/balances", ["Invalid parameter: tokenid"]),
    ],
)
def test_token_balance_errors(client, balances, url, expected):
    response = client.get(url)

    assert response.status_code == 400
    assert messages(response) == expected


# --- /tokens/{tokenId}/nfts -------------------------------------------------------------------


@pytest.fixture
def nfts():
    create_token(1500, type="NON_FUNGIBLE_UNIQUE")
    create_nft(1500, 1, account_id=1001)
    create_nft(1500, 2, since=T + 2, account_id=2001, spender=3001, delegating_spender=3002)
    create_nft(1500, 3, since=T + 3, account_id=None, deleted=True, metadata=b"")


def serials(response) -> list[int]:
    return [nft["serial_number"] for nft in response.json()["nfts"]]


def test_nfts(client, nfts):
    response = client.get("/api/v1/tokens/0.0.1500/nfts")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "nfts": [
            {"account_id": None, "created_timestamp": "1700000000.000000000", "delegating_spender": None,
             "deleted": True, "metadata": "", "modified_timestamp": "1700000000.000000003", "serial_number": 3,
             "spender": None, "token_id": "0.0.1500"},
            {"account_id": "0.0.2001", "created_timestamp": "1700000000.000000000", "delegating_spender": "0.0.3002",
             "deleted": False, "metadata": "bTI=", "modified_timestamp": "1700000000.000000002", "serial_number": 2,
             "spender": "0.0.3001", "token_id": "0.0.1500"},
            {"account_id": "0.0.1001", "created_timestamp": "1700000000.000000000", "delegating_spender": None,
             "deleted": False, "metadata": "bTE=", "modified_timestamp": "1700000000.000000000", "serial_number": 1,
             "spender": None, "token_id": "0.0.1500"},
        ],
        "links": {"next": None},
    }


def test_nfts_of_a_deleted_token_are_deleted(client, nfts):
    Entity.objects.filter(id=1500).update(deleted=True)

    listed = client.get("/api/v1/tokens/1500/nfts").json()["nfts"]
    single = client.get("/api/v1/tokens/1500/nfts/1").json()

    assert [nft["deleted"] for nft in listed] == [True, True, True]
    assert single["deleted"] is False


def test_nfts_of_a_token_without_an_entity_row_are_as_stored(client, nfts):
    Entity.objects.filter(id=1500).delete()

    assert [nft["deleted"] for nft in client.get("/api/v1/tokens/1500/nfts").json()["nfts"]] == [True, False, False]


@pytest.mark.parametrize("url", ["/api/v1/tokens/1500/nfts", "/api/v1/tokens/1500/nfts/1", "/api/v1/tokens/0.0.1001"])
def test_one_query_per_request(client, nfts, url, django_assert_num_queries):
    create_token(1001)

    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.2001", [2]),
        ("account.id=gt:1001", [2]),
        ("account.id=ne:2001", [1]),
        ("account.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("account.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f&account.id=0.0.2001", []),
        ("serialnumber=2", [2]),
        ("serialnumber=gte:2", [3, 2]),
        ("serialnumber=gt:1&serialnumber=lt:3", [2]),
        ("order=asc", [1, 2, 3]),
    ],
)
def test_nft_filters(client, nfts, query, expected):
    assert serials(client.get(f"/api/v1/tokens/1500/nfts?{query}")) == expected


def test_nfts_next_link(client, nfts):
    response = client.get("/api/v1/tokens/1500/nfts?limit=2")

    assert serials(response) == [3, 2]
    assert response.json()["links"]["next"] == "/api/v1/tokens/1500/nfts?limit=2&serialnumber=lt:2"
    assert serials(client.get(response.json()["links"]["next"])) == [1]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "/api/v1/tokens/1500/nfts?account.id=me&serialnumber=0&order=random&limit=-1",
            [
                "Invalid parameter: account.id",
                "Invalid parameter: serialnumber",
                "Invalid parameter: order",
                "Invalid parameter: limit",
            ],
        ),
        ("/api/v1/tokens/1500/nfts?serialnumber=9223372036854775808", ["Invalid parameter: serialnumber"]),
        ("/api/v1/tokens/1500/nfts?nonce=2", ["Unknown query parameter: nonce"]),
        ("/api/v1/tokens/mirror/nfts", ["Invalid parameter: tokenid"]),
        ("/api/v1/tokens/1500/nfts/3?account.id=5", ["Unknown query parameter: account.id"]),
        ("/api/v1/tokens/1500/nfts/mirror", ["Invalid parameter: serialnumber"]),
        ("/api/v1/tokens/1500/nfts/0", ["Invalid parameter: serialnumber"]),
        ("/api/v1/tokens/abc/nfts/1", ["Invalid parameter: tokenid"]),
    ],
)
def test_nft_errors(client, nfts, url, expected):
    response = client.get(url)

    assert response.status_code == 400
    assert messages(response) == expected


def test_nft(client, nfts):
    response = client.get("/api/v1/tokens/0.0.1500/nfts/2")

    assert response.status_code == 200
    assert response.json()["serial_number"] == 2
    assert response.json()["spender"] == "0.0.3001"
    assert response.json()["modified_timestamp"] == "1700000000.000000002"


def test_unknown_nft_is_not_found(client, nfts):
    response = client.get("/api/v1/tokens/1500/nfts/20")

    assert response.status_code == 404
    assert messages(response) == ["Not found"]


# --- /tokens/{tokenId}/nfts/{serialNumber}/transactions ---------------------------------------


@pytest.fixture
def nft_history():
    """Serial 1 of 0.0.1500: minted to 1001 at T+1, approved at T+2, sent to 2001 at T+3, token deleted at T+4."""
    create_token(1500, type="NON_FUNGIBLE_UNIQUE")
    Entity.objects.filter(id=1500).update(deleted=True, timestamp_range=Range(T + 4, None))
    create_nft_history(1500, 1, T + 1, T + 2, account_id=1001, created_timestamp=T + 1)
    create_nft_history(1500, 1, T + 2, T + 3, account_id=1001, spender=8, created_timestamp=T + 1)
    create_nft(1500, 1, since=T + 3, account_id=2001, created_timestamp=T + 1)
    mint = {"token_id": 1500, "serial_number": 1, "sender_account_id": None, "receiver_account_id": 1001}
    other = {"token_id": 1500, "serial_number": 2, "sender_account_id": None, "receiver_account_id": 1001}
    send = {"token_id": 1500, "serial_number": 1, "sender_account_id": 1001, "receiver_account_id": 2001,
            "is_approval": True}
    create_transaction(T + 1, type=37, nft_transfer=[other, mint], valid_start_ns=T - SECOND)
    create_transaction(T + 2, type=48)
    create_transaction(T + 3, nft_transfer=[send], nonce=1)
    create_transaction(T + 4, 98, type=35, nft_transfer=[])


def transaction_types(response) -> list[str]:
    return [transaction["type"] for transaction in response.json()["transactions"]]


def test_nft_transactions(client, nft_history, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/api/v1/tokens/1500/nfts/1/transactions")

    assert response.status_code == 200
    assert response.json() == {
        "transactions": [
            {"consensus_timestamp": "1700000000.000000004", "is_approval": False, "nonce": 0,
             "receiver_account_id": None, "sender_account_id": None,
             "transaction_id": "0.0.98-1700000000-000000003", "type": "TOKENDELETION"},
            {"consensus_timestamp": "1700000000.000000003", "is_approval": True, "nonce": 1,
             "receiver_account_id": "0.0.2001", "sender_account_id": "0.0.1001",
             "transaction_id": "0.0.8-1700000000-000000002", "type": "CRYPTOTRANSFER"},
            {"consensus_timestamp": "1700000000.000000002", "is_approval": False, "nonce": 0,
             "receiver_account_id": None, "sender_account_id": None,
             "transaction_id": "0.0.8-1700000000-000000001", "type": "CRYPTOAPPROVEALLOWANCE"},
            {"consensus_timestamp": "1700000000.000000001", "is_approval": False, "nonce": 0,
             "receiver_account_id": "0.0.1001", "sender_account_id": None,
             "transaction_id": "0.0.8-1699999999-000000000", "type": "TOKENMINT"},
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("order=asc", ["TOKENMINT", "CRYPTOAPPROVEALLOWANCE", "CRYPTOTRANSFER", "TOKENDELETION"]),
        ("timestamp=1700000000.000000003", ["CRYPTOTRANSFER"]),
        ("timestamp=gt:1700000000.000000001&timestamp=lt:1700000000.000000004", ["CRYPTOTRANSFER", "CRYPTOAPPROVEALLOWANCE"]),
        ("timestamp=ne:1700000000.000000003&timestamp=lte:1700000000.000000003", ["CRYPTOAPPROVEALLOWANCE", "TOKENMINT"]),
    ],
)
def test_nft_transaction_filters(client, nft_history, query, expected):
    assert transaction_types(client.get(f"/api/v1/tokens/1500/nfts/1/transactions?{query}")) == expected


def test_nft_transactions_next_link(client, nft_history):
    response = client.get("/api/v1/tokens/1500/nfts/1/transactions?limit=2")

    assert transaction_types(response) == ["TOKENDELETION", "CRYPTOTRANSFER"]
    assert response.json()["links"]["next"] == (
        "/api/v1/tokens/1500/nfts/1/transactions?limit=2&timestamp=lt:1700000000.000000003"
    )


def test_nft_transactions_without_the_creation_are_partial(client, nft_history):
    from apps.tokens.models import Nft

    Nft.objects.filter(token_id=1500).update(created_timestamp=None)

    response = client.get("/api/v1/tokens/1500/nfts/1/transactions")

    assert response.status_code == 206
    assert response["Cache-Control"] == "public, max-age=1"
    assert len(response.json()["transactions"]) == 4


def test_transactions_of_an_nft_without_its_row_are_partial(client, nft_history):
    from apps.tokens.models import Nft

    Nft.objects.filter(token_id=1500).delete()
    response = client.get("/api/v1/tokens/1500/nfts/1/transactions")

    assert response.status_code == 206
    assert transaction_types(response) == ["TOKENDELETION", "CRYPTOAPPROVEALLOWANCE", "TOKENMINT"]


def test_transactions_of_an_unknown_nft_are_empty(client, nft_history):
    response = client.get("/api/v1/tokens/1600/nfts/1/transactions")

    assert response.status_code == 200
    assert response.json() == {"transactions": [], "links": {"next": None}}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/api/v1/tokens/mirror/nfts/1/transactions", ["Invalid parameter: tokenid"]),
        ("/api/v1/tokens/1500/nfts/x/transactions", ["Invalid parameter: serialnumber"]),
        ("/api/v1/tokens/1500/nfts/1/transactions?timestamp=x&limit=0", ["Invalid parameter: timestamp", "Invalid parameter: limit"]),
        ("/api/v1/tokens/1500/nfts/1/transactions?account.id=1", ["Unknown query parameter: account.id"]),
    ],
)
def test_nft_transaction_errors(client, nft_history, url, expected):
    response = client.get(url)

    assert response.status_code == 400
    assert messages(response) == expected


# --- Short forms: the token in `token.id` -----------------------------------------------------


def test_short_form_token_id_takes_no_operator_but_eq():
    assert equals_only(str)("eq:0.0.5") == "0.0.5"
    assert equals_only(str)("0.0.5") == "0.0.5"
    with pytest.raises(ValueError):
        equals_only(str)("gt:0.0.5")



@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("/api/v1/tokens/balances?token.id=0.0.1001", "/api/v1/tokens/0.0.1001/balances"),
        ("/api/v1/tokens/balances?limit=2&token.id=1001&order=asc", "/api/v1/tokens/1001/balances?limit=2&order=asc"),
        ("/api/v1/tokens/balances/?token.id=eq:1001&account.id=0.0.7", "/api/v1/tokens/1001/balances/?account.id=0.0.7"),
        ("/api/v1/tokens/balances?token.id=1001&slot=1", "/api/v1/tokens/1001/balances?slot=1"),
        ("/api/v1/tokens/nfts?token.id=0.0.1500", "/api/v1/tokens/0.0.1500/nfts"),
        ("/api/v1/tokens/nfts?token.id=1500&limit=1&order=asc", "/api/v1/tokens/1500/nfts?limit=1&order=asc"),
        ("/api/v1/tokens/nfts?token.id=1500&serialnumber=x", "/api/v1/tokens/1500/nfts?serialnumber=x"),
        ("/api/v1/tokens/nfts/1?token.id=1500", "/api/v1/tokens/1500/nfts/1"),
        ("/api/v1/tokens/nfts/9?token.id=1500", "/api/v1/tokens/1500/nfts/9"),
        ("/api/v1/tokens/nfts/x?token.id=1500", "/api/v1/tokens/1500/nfts/x"),
        ("/api/v1/tokens/nfts/1/transactions?token.id=1500", "/api/v1/tokens/1500/nfts/1/transactions"),
        (
            "/api/v1/tokens/nfts/1/transactions?limit=1&token.id=0x00000000000000000000000000000000000005DC",
            "/api/v1/tokens/0x00000000000000000000000000000000000005DC/nfts/1/transactions?limit=1",
        ),
    ],
)
def test_short_form_answers_as_the_long_form(client, balances, nft_history, short, long):
    short_response, long_response = client.get(short), client.get(long)

    assert short_response.status_code == long_response.status_code
    assert short_response.json() == long_response.json()
    for header in ("Cache-Control", "Content-Type", "Link"):
        assert short_response.get(header) == long_response.get(header)


def test_short_form_next_link_is_the_long_form(client, balances):
    response = client.get("/api/v1/tokens/balances?token.id=1001&limit=1")

    assert response.json()["links"]["next"] == "/api/v1/tokens/1001/balances?limit=1&account.id=lt:0.0.7"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/api/v1/tokens/balances", "Missing required parameter: token.id"),
        ("/api/v1/tokens/nfts?limit=1", "Missing required parameter: token.id"),
        ("/api/v1/tokens/nfts/1", "Missing required parameter: token.id"),
        ("/api/v1/tokens/nfts/1/transactions", "Missing required parameter: token.id"),
        ("/api/v1/tokens/balances?token.id=abc", "Invalid parameter: token.id"),
        ("/api/v1/tokens/nfts?token.id=gt:1500", "Invalid parameter: token.id"),
        ("/api/v1/tokens/nfts?token.id=1500&token.id=1501", "Invalid parameter: token.id"),
        ("/api/v1/tokens/nfts/1?token.id=06bd279138d5918402fc8ad500526cb2ee0eb985", "Invalid parameter: token.id"),
    ],
)
def test_short_form_errors(client, url, expected):
    response = client.get(url)

    assert response.status_code == 400
    assert messages(response) == [expected]
