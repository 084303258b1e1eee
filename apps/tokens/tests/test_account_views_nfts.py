import pytest

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import messages
from apps.tokens.tests.account_factories import create_nft

pytestmark = pytest.mark.django_db

URL = "/api/v1/accounts/0.0.1001/nfts"


@pytest.fixture
def nfts():
    create_entity(1001)
    create_entity(1500, type="TOKEN")
    create_entity(2500, type="TOKEN", deleted=True)
    for serial in (1, 2, 3):
        create_nft(1500, serial, spender=2000 + serial)
    for serial in (1, 2):
        create_nft(2500, serial)
    create_nft(1500, 4, account=1002)


def keys(response) -> list[tuple[str, int]]:
    return [(nft["token_id"], nft["serial_number"]) for nft in response.json()["nfts"]]


def test_nfts_newest_token_and_serial_first(client, nfts):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    body = response.json()
    assert body["links"] == {"next": None}
    assert body["nfts"][0] == {
        "account_id": "0.0.1001",
        "created_timestamp": "0.000250002",
        "delegating_spender": None,
        "deleted": True,
        "metadata": "Ag==",
        "modified_timestamp": "0.000250002",
        "serial_number": 2,
        "spender": None,
        "token_id": "0.0.2500",
    }
    assert keys(response) == [("0.0.2500", 2), ("0.0.2500", 1), ("0.0.1500", 3), ("0.0.1500", 2), ("0.0.1500", 1)]


def test_nft_of_a_live_token_is_not_deleted(client, nfts):
    nft = client.get(f"{URL}?token.id=1500&serialnumber=3").json()["nfts"]

    assert [(n["serial_number"], n["deleted"], n["spender"]) for n in nft] == [(3, False, "0.0.2003")]


def test_unknown_account_has_no_nfts(client, nfts):
    assert client.get("/api/v1/accounts/0.0.9999/nfts").json() == {"nfts": [], "links": {"next": None}}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=asc", [("0.0.1500", 1), ("0.0.1500", 2), ("0.0.1500", 3), ("0.0.2500", 1), ("0.0.2500", 2)]),
        ("token.id=1500&order=asc", [("0.0.1500", 1), ("0.0.1500", 2), ("0.0.1500", 3)]),
        ("token.id=gt:1500", [("0.0.2500", 2), ("0.0.2500", 1)]),
        ("token.id=lte:0x00000000000000000000000000000000000005dc", [("0.0.1500", 3), ("0.0.1500", 2), ("0.0.1500", 1)]),
        ("token.id=1500&serialnumber=gte:2", [("0.0.1500", 3), ("0.0.1500", 2)]),
        ("token.id=1500&serialnumber=lt:2", [("0.0.1500", 1)]),
        # (token, serial) >= (1500, 3): the rest of 1500 and all of 2500.
        ("token.id=gte:1500&serialnumber=gte:3&order=asc", [("0.0.1500", 3), ("0.0.2500", 1), ("0.0.2500", 2)]),
        # (token, serial) <= (2500, 1)
        ("token.id=lte:2500&serialnumber=lte:1", [("0.0.2500", 1), ("0.0.1500", 3), ("0.0.1500", 2), ("0.0.1500", 1)]),
        ("spender.id=2002", [("0.0.1500", 2)]),
        ("spender.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("spender.id=2001&spender.id=2003", [("0.0.1500", 3), ("0.0.1500", 1)]),
        ("spender.id=gt:2001&spender.id=lte:2003", [("0.0.1500", 3), ("0.0.1500", 2)]),
        ("limit=2", [("0.0.2500", 2), ("0.0.2500", 1)]),
    ],
)
def test_nft_filters(client, nfts, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 200
    assert keys(response) == expected


def test_nft_pages_follow_links_across_tokens(client, nfts):
    url, pages = f"{URL}?limit=2&order=asc", []
    while url:
        response = client.get(url)
        pages.append(keys(response))
        url = response.json()["links"]["next"]
        if url:
            assert response["Link"] == f'<{url}>; rel="next"'

    assert pages == [
        [("0.0.1500", 1), ("0.0.1500", 2)],
        [("0.0.1500", 3), ("0.0.2500", 1)],
        [("0.0.2500", 2)],
    ]


def test_nft_next_link_anchors_token_inclusively_and_serial_exclusively(client, nfts):
    response = client.get(f"{URL}?spender.id=gte:2001&limit=2")

    assert response.json()["links"]["next"] == (
        "/api/v1/accounts/0.0.1001/nfts?spender.id=gte:2001&limit=2&token.id=lte:0.0.1500&serialnumber=lt:2"
    )


def test_no_next_link_for_one_token_and_serial(client, nfts):
    response = client.get(f"{URL}?token.id=1500&serialnumber=2&limit=1")

    assert keys(response) == [("0.0.1500", 2)]
    assert response.json()["links"]["next"] is None


def test_nfts_by_alias_and_evm_address(client, nfts):
    create_entity(1003, alias=b"\x01" * 32, evm_address=b"\xab" * 20)
    create_nft(1500, 9, account=1003)

    by_alias = client.get("/api/v1/accounts/AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ/nfts")
    by_address = client.get(f"/api/v1/accounts/0x{'ab' * 20}/nfts")

    assert keys(by_alias) == keys(by_address) == [("0.0.1500", 9)]


@pytest.mark.parametrize(
    "path, status, message",
    [
        ("x", 400, "Invalid parameter: idOrAliasOrEvmAddress"),
        ("0.0.-1", 400, "Invalid parameter: idOrAliasOrEvmAddress"),
        ("AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ", 404, "No account with a matching alias found"),
        ("0x" + "cd" * 20, 404, "Not found"),
    ],
)
def test_nft_path_errors(client, nfts, path, status, message):
    response = client.get(f"/api/v1/accounts/{path}/nfts")

    assert response.status_code == status
    assert messages(response) == [message]


@pytest.mark.parametrize(
    "query, message",
    [
        ("token.id=1&token.id=2", "Only one equal (eq) operator is allowed for token.id"),
        ("token.id=gt:1&token.id=gte:2", "Only one gt/gte operator is allowed for token.id"),
        ("token.id=lt:1&token.id=lte:2", "Only one lt/lte operator is allowed for token.id"),
        ("token.id=ne:1", "Not equal (ne) operator is not supported for token.id"),
        ("token.id=1&serialnumber=ne:1", "Not equal (ne) operator is not supported for serialnumber"),
        ("token.id=1&token.id=gt:0", "Can't support both range and equal for token.id"),
        ("serialnumber=1", "serialnumber without a token.id parameter filter"),
        ("token.id=gt:1&serialnumber=gt:1", "token.id must have gte or eq operator"),
        ("token.id=lt:5&serialnumber=lt:1", "token.id must have lte or eq operator"),
        ("token.id=gte:1&serialnumber=lt:1", "token.id must have lte or eq operator"),
        ("spender.id=gt:1&spender.id=gte:2", "Multiple range params not allowed for spender.id"),
        ("spender.id=lt:1&spender.id=lte:2", "Multiple range params not allowed for spender.id"),
        ("spender.id=ne:1", "Not equals (ne) comparison operator is not supported"),
    ],
)
def test_nft_query_rules(client, nfts, query, message):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == [message]


def test_nft_invalid_values_and_unknown_parameters(client, nfts):
    response = client.get(f"{URL}?token.id=x&serialnumber=0&spender.id=z&order=up&limit=0&account.id=1")

    assert response.status_code == 400
    assert messages(response) == [
        "Invalid parameter: token.id",
        "Invalid parameter: serialnumber",
        "Invalid parameter: spender.id",
        "Invalid parameter: order",
        "Invalid parameter: limit",
        "Unknown query parameter: account.id",
    ]


def test_first_problem_in_query_order_is_reported(client, nfts):
    response = client.get(f"{URL}?serialnumber=1&serialnumber=2&token.id=ne:1")

    assert messages(response) == ["Only one equal (eq) operator is allowed for serialnumber"]


def test_range_and_equal_is_checked_after_every_parameter_parsed(client, nfts):
    response = client.get(f"{URL}?token.id=1&token.id=gt:0&serialnumber=1&serialnumber=2")

    assert messages(response) == ["Only one equal (eq) operator is allowed for serialnumber"]
