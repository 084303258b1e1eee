import pytest

from apps.accounts.tests.factories import create_entity
from apps.accounts.tests.responses import messages
from apps.tokens.tests.account_factories import (
    create_token,
    create_token_relationship,
)

pytestmark = pytest.mark.django_db

URL = "/api/v1/accounts/0.0.1001/tokens"


@pytest.fixture
def relationships():
    create_entity(1001)
    create_token(3001, decimals=2, freeze_status=2, kyc_status=1)
    create_token(3002, decimals=0)
    create_token_relationship(1001, 3001)
    create_token_relationship(1001, 3002, freeze_status=1, kyc_status=2, automatic_association=True)
    create_token_relationship(1001, 3003)
    create_token_relationship(1001, 3004, associated=False)
    create_token_relationship(1002, 3001)


def tokens(response) -> list[str]:
    return [token["token_id"] for token in response.json()["tokens"]]


def test_associated_tokens_with_statuses_falling_back_to_the_token(client, relationships):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "tokens": [
            {
                "automatic_association": False,
                "balance": 3001,
                "created_timestamp": "0.000003001",
                "decimals": 2,
                "freeze_status": "UNFROZEN",
                "kyc_status": "GRANTED",
                "token_id": "0.0.3001",
            },
            {
                "automatic_association": True,
                "balance": 3002,
                "created_timestamp": "0.000003002",
                "decimals": 0,
                "freeze_status": "FROZEN",
                "kyc_status": "REVOKED",
                "token_id": "0.0.3002",
            },
            {
                "automatic_association": False,
                "balance": 3003,
                "created_timestamp": "0.000003003",
                "decimals": None,
                "freeze_status": None,
                "kyc_status": None,
                "token_id": "0.0.3003",
            },
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=desc", ["0.0.3003", "0.0.3002", "0.0.3001"]),
        ("token.id=3002", ["0.0.3002"]),
        ("token.id=3001&token.id=0.0.3003", ["0.0.3001", "0.0.3003"]),
        ("token.id=gt:3001&token.id=lt:3003", ["0.0.3002"]),
        ("token.id=gte:0x0000000000000000000000000000000000000bba", ["0.0.3002", "0.0.3003"]),
    ],
)
def test_token_relationship_filters(client, relationships, query, expected):
    assert tokens(client.get(f"{URL}?{query}")) == expected


def test_token_relationship_pages(client, relationships):
    first = client.get(f"{URL}?limit=2")
    second = client.get(first.json()["links"]["next"])

    assert first.json()["links"]["next"] == f"{URL}?limit=2&token.id=gt:0.0.3002"
    assert tokens(second) == ["0.0.3003"]


def test_tokens_of_unknown_account_are_not_found(client, relationships):
    response = client.get("/api/v1/accounts/0.0.1002/tokens")

    assert response.status_code == 404
    assert messages(response) == ["Not found"]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("token.id=ne:3001", ["Not equal (ne) comparison operator is not supported for token.id"]),
        ("token.id=ebb9a1be370150759408cd7af48e9eda2b8ead57", ["Invalid parameter: token.id"]),
        ("token.id=x&order=12&limit=a", ["Invalid parameter: token.id", "Invalid parameter: order", "Invalid parameter: limit"]),
        ("spender.id=1", ["Unknown query parameter: spender.id"]),
    ],
)
def test_token_relationship_errors(client, relationships, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == expected


def test_an_unknown_account_is_not_found_before_its_query_is_checked(client, relationships):
    response = client.get("/api/v1/accounts/0.0.1002/tokens?token.id=x")

    assert response.status_code == 404
    assert messages(response) == ["Not found"]


def test_a_page_of_tokens_is_one_query(client, relationships, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert tokens(client.get(URL)) == ["0.0.3001", "0.0.3002", "0.0.3003"]


def test_an_account_without_tokens_is_told_from_an_unknown_one_in_the_page_query(
    client, relationships, django_assert_num_queries
):
    create_entity(1003)

    with django_assert_num_queries(1):
        assert client.get("/api/v1/accounts/0.0.1003/tokens").json() == {"tokens": [], "links": {"next": None}}
    with django_assert_num_queries(1):
        assert client.get("/api/v1/accounts/0.0.1002/tokens").status_code == 404

