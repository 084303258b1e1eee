import pytest

from apps.accounts.tests.factories import create_entity, create_staking_reward
from apps.accounts.tests.responses import messages

pytestmark = pytest.mark.django_db

URL = "/api/v1/accounts/0.0.1001/rewards"


@pytest.fixture
def rewards():
    create_entity(1001)
    for timestamp, amount in ((1_000_000_001, 10), (1_000_000_002, 20), (1_000_000_003, 30)):
        create_staking_reward(1001, timestamp, amount)
    create_staking_reward(1002, 1_000_000_004, 40)


def amounts(response) -> list[int]:
    return [reward["amount"] for reward in response.json()["rewards"]]


def test_rewards_newest_first(client, rewards):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60"
    assert response.json() == {
        "rewards": [
            {"account_id": "0.0.1001", "amount": 30, "timestamp": "1.000000003"},
            {"account_id": "0.0.1001", "amount": 20, "timestamp": "1.000000002"},
            {"account_id": "0.0.1001", "amount": 10, "timestamp": "1.000000001"},
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    "query, expected",
    [
        ("order=asc", [10, 20, 30]),
        ("timestamp=1.000000002", [20]),
        ("timestamp=eq:1.000000001&timestamp=1.000000003", [30, 10]),
        ("timestamp=gt:1.000000001&timestamp=lte:1.000000003", [30, 20]),
        ("timestamp=gte:1.000000002&order=asc", [20, 30]),
        ("timestamp=lt:1.000000002", [10]),
        ("limit=1", [30]),
    ],
)
def test_reward_filters(client, rewards, query, expected):
    assert amounts(client.get(f"{URL}?{query}")) == expected


def test_reward_pages(client, rewards):
    first = client.get(f"{URL}?limit=2")
    second = client.get(first.json()["links"]["next"])

    assert first.json()["links"]["next"] == f"{URL}?limit=2&timestamp=lt:1.000000002"
    assert amounts(second) == [10]
    assert second.json()["links"]["next"] is None


def test_rewards_of_unknown_account_are_not_found(client, rewards):
    response = client.get("/api/v1/accounts/0.0.1002/rewards")

    assert response.status_code == 404
    assert messages(response) == ["Not found"]


def test_rewards_of_account_without_rewards(client, rewards):
    create_entity(1003)

    assert client.get("/api/v1/accounts/1003/rewards").json() == {"rewards": [], "links": {"next": None}}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("timestamp=ne:1", ["Not equals (ne) operator is not supported for timestamp"]),
        ("timestamp=foo:1&order=12&limit=a", ["Invalid parameter: timestamp", "Invalid parameter: order", "Invalid parameter: limit"]),
        ("spender.id=1", ["Unknown query parameter: spender.id"]),
    ],
)
def test_reward_query_errors(client, rewards, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert messages(response) == expected


def test_reward_path_error(client, rewards):
    response = client.get("/api/v1/accounts/0.0.x/rewards")

    assert response.status_code == 400
    assert messages(response) == ["Invalid parameter: idOrAliasOrEvmAddress"]


def test_a_page_of_rewards_is_one_query(client, rewards, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert amounts(client.get(URL)) == [30, 20, 10]


def test_an_empty_page_and_an_unknown_account_are_one_query_each(client, rewards, django_assert_num_queries):
    create_entity(1003)
    with django_assert_num_queries(1):
        assert amounts(client.get("/api/v1/accounts/0.0.1003/rewards")) == []
    with django_assert_num_queries(1):
        assert client.get("/api/v1/accounts/0.0.1002/rewards").status_code == 404


def test_a_page_past_the_last_reward_is_empty(client, rewards):
    response = client.get(f"{URL}?timestamp=gt:1.000000003")

    assert response.json() == {"rewards": [], "links": {"next": None}}


def test_an_unknown_account_is_not_found_before_its_query_is_checked(client, rewards):
    response = client.get("/api/v1/accounts/0.0.1002/rewards?timestamp=ne:1")

    assert response.status_code == 404
    assert messages(response) == ["Not found"]
