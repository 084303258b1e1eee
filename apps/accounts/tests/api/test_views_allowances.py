import pytest

from apps.accounts.tests.factories import create_crypto_allowance, create_entity
from apps.accounts.tests.responses import messages

pytestmark = pytest.mark.django_db

CRYPTO_URL = "/api/v1/accounts/0.0.1001/allowances/crypto"


@pytest.fixture
def crypto_allowances():
    create_entity(1001)
    for spender in (2001, 2002, 2003):
        create_crypto_allowance(1001, spender, spender - 2000, granted=100)
    create_crypto_allowance(1001, 2004, 0)
    create_crypto_allowance(1002, 2001, 5)


def spenders(response) -> list[str]:
    return [allowance["spender"] for allowance in response.json()["allowances"]]


def test_crypto_allowances_with_amount_left_by_spender_descending(client, crypto_allowances):
    response = client.get(CRYPTO_URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["allowances"][0] == {
        "amount": 3,
        "amount_granted": 100,
        "owner": "0.0.1001",
        "spender": "0.0.2003",
        "timestamp": {"from": "0.000002003", "to": None},
    }
    assert spenders(response) == ["0.0.2003", "0.0.2002", "0.0.2001"]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=asc", ["0.0.2001", "0.0.2002", "0.0.2003"]),
        ("spender.id=2002", ["0.0.2002"]),
        ("spender.id=2001&spender.id=0.0.2003", ["0.0.2003", "0.0.2001"]),
        ("spender.id=gt:2001&spender.id=lt:2003", ["0.0.2002"]),
        ("spender.id=gte:2002", ["0.0.2003", "0.0.2002"]),
        ("spender.id=lte:2002&order=asc", ["0.0.2001", "0.0.2002"]),
        # An EVM address that encodes no id matches nothing; other equal values still match.
        ("spender.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("spender.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f&spender.id=2002", ["0.0.2002"]),
        ("spender.id=gt:0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
    ],
)
def test_crypto_allowance_filters(client, crypto_allowances, query, expected):
    assert spenders(client.get(f"{CRYPTO_URL}?{query}")) == expected


def test_crypto_allowance_pages(client, crypto_allowances):
    first = client.get(f"{CRYPTO_URL}?limit=2")
    second = client.get(first.json()["links"]["next"])

    assert first.json()["links"]["next"] == f"{CRYPTO_URL}?limit=2&spender.id=lt:0.0.2002"
    assert spenders(second) == ["0.0.2001"]
    assert second.json()["links"]["next"] is None


def test_crypto_allowances_of_unknown_account(client, crypto_allowances):
    assert client.get("/api/v1/accounts/9999/allowances/crypto").json() == {"allowances": [], "links": {"next": None}}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("spender.id=ne:2001", ["Not equal (ne) comparison operator is not supported for spender.id"]),
        ("spender.id=x&limit=-1&order=x", ["Invalid parameter: spender.id", "Invalid parameter: limit", "Invalid parameter: order"]),
        ("token.id=1", ["Unknown query parameter: token.id"]),
    ],
)
def test_crypto_allowance_errors(client, crypto_allowances, query, expected):
    response = client.get(f"{CRYPTO_URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == expected
