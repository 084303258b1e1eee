import base64

import pytest
from django.conf import settings
from django.db.backends.postgresql.psycopg_any import NumericRange as Range
from django.test import Client, override_settings

from apps.topics.tests.factories import (
    CONSENSUS_SUBMIT_MESSAGE,
    ECDSA_KEY,
    ED25519_KEY,
    PAYER,
    SECOND,
    create_message,
    create_submitted_message,
    create_topic,
    key_list,
)
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
TOPIC, OTHER_TOPIC = 7, 8


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def errors(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def java_error(reason: str, detail: str) -> dict:
    return {"_status": {"messages": [{"message": reason, "detail": detail}]}}


def ts(offset: int) -> str:
    return f"1700000000.{offset:09d}"


def sequence_numbers(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [message["sequence_number"] for message in response.json()["messages"]]


@pytest.fixture
def messages():
    """Topic 7 has messages 1..5 at T+1..T+5; topic 8 has message 1 at T+6."""
    for number in range(1, 6):
        create_message(TOPIC, number, T + number)
    create_message(OTHER_TOPIC, 1, T + 6)


# --- /topics/{topicId}/messages --------------------------------------------------------------


def test_list_renders_messages_in_consensus_order(client, messages):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["links"] == {"next": None}
    assert sequence_numbers(response) == [1, 2, 3, 4, 5]
    assert response.json()["messages"][0] == {
        "chunk_info": None,
        "consensus_timestamp": ts(1),
        "message": base64.b64encode(b"message 1").decode(),
        "payer_account_id": "0.0.3",
        "running_hash": base64.b64encode(b"running hash").decode(),
        "running_hash_version": 3,
        "sequence_number": 1,
        "topic_id": "0.0.7",
    }


@pytest.mark.parametrize("topic_id", ["7", "0.7", "0.0.7"])
def test_list_accepts_every_topic_id_spelling(client, messages, topic_id):
    assert sequence_numbers(client.get(f"/api/v1/topics/{topic_id}/messages")) == [1, 2, 3, 4, 5]


def test_list_of_unknown_topic_is_empty(client, messages):
    response = client.get("/api/v1/topics/0.0.99/messages")

    assert response.status_code == 200
    assert response.json() == {"messages": [], "links": {"next": None}}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("sequencenumber=3", [3]),
        ("sequencenumber=eq:3", [3]),
        ("sequenceNumber=gt:3", [4, 5]),
        ("sequencenumber=gte:3", [3, 4, 5]),
        ("sequencenumber=lt:3", [1, 2]),
        ("sequencenumber=lte:3", [1, 2, 3]),
        ("sequencenumber=ne:3", [1, 2, 4, 5]),
        ("sequencenumber=gt:1&sequencenumber=lt:4", [2, 3]),
        ("sequencenumber=2&sequencenumber=3", []),
        ("sequencenumber=gt:5", []),
        ("sequencenumber=lt:1", []),
        (f"timestamp={ts(2)}", [2]),
        (f"timestamp=gt:{ts(2)}", [3, 4, 5]),
        (f"timestamp=gte:{ts(2)}", [2, 3, 4, 5]),
        (f"timestamp=lt:{ts(2)}", [1]),
        (f"timestamp=lte:{ts(2)}", [1, 2]),
        (f"timestamp=ne:{ts(2)}", [1, 3, 4, 5]),
        ("timestamp=1700000000", []),
        (f"timestamp=gt:{ts(1)}&sequencenumber=lte:4", [2, 3, 4]),
        ("order=desc", [5, 4, 3, 2, 1]),
        ("order=DESC&sequencenumber=lt:4", [3, 2, 1]),
        ("order=asc", [1, 2, 3, 4, 5]),
        ("limit=2", [1, 2]),
    ],
)
def test_list_filters(client, messages, query, expected):
    assert sequence_numbers(client.get(f"/api/v1/topics/{TOPIC}/messages?{query}")) == expected


@pytest.mark.parametrize("encoding", ["utf-8", "UTF8"])
def test_list_shows_text_with_utf8_encoding(client, messages, encoding):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages?limit=1&encoding={encoding}")

    assert response.json()["messages"][0]["message"] == "message 1"


@pytest.mark.parametrize("encoding", ["base64", "BASE64", "eq:utf-8", "ne:utf-8", "gt:base64"])
def test_list_shows_base64_with_base64_encoding(client, messages, encoding):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages?limit=1&encoding={encoding}")

    assert response.json()["messages"][0]["message"] == base64.b64encode(b"message 1").decode()


def test_list_pages_by_timestamp(client, messages):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages?limit=2&sequencenumber=gt:1")

    assert sequence_numbers(response) == [2, 3]
    next_link = f"/api/v1/topics/{TOPIC}/messages?limit=2&sequencenumber=gt:1&timestamp=gt:{ts(3)}"
    assert response.json()["links"] == {"next": next_link}
    assert response["Link"] == f'<{next_link}>; rel="next"'

    second = client.get(next_link)
    assert sequence_numbers(second) == [4, 5]
    third = client.get(second.json()["links"]["next"])
    assert third.json() == {"messages": [], "links": {"next": None}}


def test_list_pages_descending_keeping_other_timestamp_bounds(client, messages):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages?order=desc&limit=2&timestamp=gte:{ts(2)}")

    assert sequence_numbers(response) == [5, 4]
    assert response.json()["links"]["next"] == (
        f"/api/v1/topics/{TOPIC}/messages?order=desc&limit=2&timestamp=gte:{ts(2)}&timestamp=lt:{ts(4)}"
    )


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 3})
def test_list_limit_defaults_and_is_capped(client, messages):
    assert sequence_numbers(client.get(f"/api/v1/topics/{TOPIC}/messages")) == [1, 2]
    assert sequence_numbers(client.get(f"/api/v1/topics/{TOPIC}/messages?limit=50")) == [1, 2, 3]


def test_list_shows_chunk_info_from_initial_transaction_id(client):
    create_message(
        TOPIC,
        1,
        T + 1,
        chunk_num=1,
        chunk_total=2,
        initial_transaction_id=bytes.fromhex("0a0608d285d8cc041202180318012001"),
    )

    message = client.get(f"/api/v1/topics/{TOPIC}/messages").json()["messages"][0]

    assert message["chunk_info"] == {
        "initial_transaction_id": {
            "account_id": "0.0.3",
            "nonce": 1,
            "scheduled": True,
            "transaction_valid_start": "1234567890.000000000",
        },
        "number": 1,
        "total": 2,
    }


def test_list_shows_chunk_info_from_columns_without_initial_transaction_id(client):
    create_message(TOPIC, 1, T + 1, chunk_num=2, chunk_total=3, payer_account_id=1001, valid_start_timestamp=T)

    message = client.get(f"/api/v1/topics/{TOPIC}/messages").json()["messages"][0]

    assert message["chunk_info"] == {
        "initial_transaction_id": {
            "account_id": "0.0.1001",
            "nonce": None,
            "scheduled": None,
            "transaction_valid_start": "1700000000.000000000",
        },
        "number": 2,
        "total": 3,
    }


def test_list_shows_version_3_for_a_missing_running_hash_version(client):
    create_message(TOPIC, 1, T + 1, running_hash_version=None)

    assert client.get(f"/api/v1/topics/{TOPIC}/messages").json()["messages"][0]["running_hash_version"] == 3


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "topic.id=7&sequencenumber=2_2&timestamp=18:34&limit=-1",
            errors(
                "Invalid parameter: sequencenumber",
                "Invalid parameter: timestamp",
                "Invalid parameter: limit",
                "Unknown query parameter: topic.id",
            ),
        ),
        ("sequencenumber=0", errors("Invalid parameter: sequencenumber")),
        ("sequencenumber=9223372036854775808", errors("Invalid parameter: sequencenumber")),
        ("sequencenumber=xx:3", errors("Invalid parameter: sequencenumber")),
        ("timestamp=12345678901", errors("Invalid parameter: timestamp")),
        ("encoding=hex", errors("Invalid parameter: encoding")),
        ("encoding=ne:hex", errors("Invalid parameter: encoding")),
        ("order=up", errors("Invalid parameter: order")),
        ("limit=0", errors("Invalid parameter: limit")),
    ],
)
def test_list_rejects_bad_query(client, messages, query, expected):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages?{query}")

    assert response.status_code == 400
    assert response.json() == expected


@pytest.mark.parametrize("topic_id", ["0.0.-3", "abc", "0x0000000000000000000000000000000000000007"])
def test_list_rejects_bad_topic_id(client, topic_id):
    response = client.get(f"/api/v1/topics/{topic_id}/messages?limit=-1")

    assert response.status_code == 400
    assert response.json() == errors("Invalid parameter: topic.id")


@pytest.mark.parametrize(
    ("topic_id", "named"), [("-1", "0.0.-1"), ("274877906944", "0.0.274877906944"), ("0.0.274877906944", "0.0.274877906944")]
)
def test_list_refuses_a_topic_id_naming_no_entity(client, topic_id, named):
    response = client.get(f"/api/v1/topics/{topic_id}/messages")

    assert response.status_code == 400
    assert response.json() == errors(f'Invalid entity ID "{named}"')


# --- /topics/{topicId}/messages/{sequenceNumber} ------------------------------------------------


def test_message_by_sequence_number(client, messages):
    response = client.get(f"/api/v1/topics/0.0.{TOPIC}/messages/3")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    assert response.json()["sequence_number"] == 3
    assert response.json()["consensus_timestamp"] == ts(3)
    assert response.json()["message"] == base64.b64encode(b"message 3").decode()


def test_message_by_sequence_number_not_found(client, messages):
    response = client.get(f"/api/v1/topics/{OTHER_TOPIC}/messages/2")

    assert response.status_code == 404
    assert response.json() == errors("Not found")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("0.0.-3/messages/a", errors("Invalid parameter: topic.id", "Invalid parameter: sequencenumber")),
        ("7/messages/0", errors("Invalid parameter: sequencenumber")),
        ("7/messages/-1", errors("Invalid parameter: sequencenumber")),
        ("x/messages/1", errors("Invalid parameter: topic.id")),
    ],
)
def test_message_by_sequence_number_rejects_bad_path(client, path, expected):
    response = client.get(f"/api/v1/topics/{path}")

    assert response.status_code == 400
    assert response.json() == expected


def test_message_by_sequence_number_rejects_any_query_parameter(client, messages):
    response = client.get(f"/api/v1/topics/{TOPIC}/messages/3?account.id=0.0.3")

    assert response.status_code == 400
    assert response.json() == errors("Unknown query parameter: account.id")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("7/messages/1700000000.000000004", errors("Invalid parameter: sequencenumber")),
        ("7/messages/1.2.3", errors("Invalid parameter: sequencenumber")),
        ("x/messages/1.5", errors("Invalid parameter: topic.id", "Invalid parameter: sequencenumber")),
    ],
)
def test_a_message_of_a_topic_is_named_by_its_sequence_number_only(client, messages, path, expected):
    response = client.get(f"/api/v1/topics/{path}")

    assert response.status_code == 400
    assert response.json() == expected


# --- /topics/messages/{consensusTimestamp} ------------------------------------------------------


def test_message_by_consensus_timestamp(client, django_assert_num_queries):
    create_submitted_message(TOPIC, 1, T + 1)
    create_submitted_message(OTHER_TOPIC, 1, T + 2)

    with django_assert_num_queries(1):
        response = client.get(f"/api/v1/topics/messages/{ts(2)}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    assert response.json()["topic_id"] == "0.0.8"
    assert response.json()["consensus_timestamp"] == ts(2)


def test_message_by_consensus_timestamp_needs_a_successful_submit_transaction(client, messages):
    response = client.get(f"/api/v1/topics/messages/{ts(1)}")

    assert response.status_code == 404
    assert response.json() == errors("Not found")


def test_message_by_consensus_timestamp_of_another_topic_than_its_transactions(client):
    create_transaction(T + 1, PAYER, type=CONSENSUS_SUBMIT_MESSAGE, entity_id=OTHER_TOPIC)
    create_message(TOPIC, 1, T + 1)

    assert client.get(f"/api/v1/topics/messages/{ts(1)}").status_code == 404


def test_message_by_consensus_timestamp_without_message(client):
    create_submitted_message(TOPIC, 1, T + 1)

    assert client.get(f"/api/v1/topics/messages/{ts(2)}").status_code == 404


@pytest.mark.parametrize("timestamp", ["123abc", "1.2.3", "12345678901"])
def test_message_by_consensus_timestamp_rejects_bad_timestamp(client, timestamp):
    response = client.get(f"/api/v1/topics/messages/{timestamp}")

    assert response.status_code == 400
    assert response.json() == errors("Invalid parameter: consensus_timestamp")


def test_message_by_consensus_timestamp_rejects_any_query_parameter(client):
    response = client.get(f"/api/v1/topics/messages/{ts(2)}?limit=2")

    assert response.status_code == 400
    assert response.json() == errors("Unknown query parameter: limit")


# --- /topics/{topicId} --------------------------------------------------------------------------

ENTITY = {
    "auto_renew_account_id": 1001,
    "auto_renew_period": 7776000,
    "created_timestamp": 100 * SECOND,
    "memo": "topic memo",
    "timestamp_range": Range(200 * SECOND, None),
}


@pytest.fixture
def topic():
    return create_topic(
        TOPIC,
        entity=ENTITY,
        submit_key=ECDSA_KEY,
        fee_schedule_key=bytes.fromhex("3200"),
        fee_exempt_key_list=key_list(ED25519_KEY, ECDSA_KEY),
        fixed_fees=[
            {
                "amount": 10,
                "collector_account_id": 1002,
                "denominating_token_id": 1003,
                "all_collectors_are_exempt": False,
            },
            {"amount": "20", "collector_account_id": 1004, "all_collectors_are_exempt": True},
        ],
    )


def test_topic_details(client, topic):
    response = client.get(f"/api/v1/topics/{TOPIC}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=5"
    assert response.json() == {
        "admin_key": {"_type": "ED25519", "key": "ab" * 32},
        "auto_renew_account": "0.0.1001",
        "auto_renew_period": 7776000,
        "created_timestamp": "100.000000000",
        "custom_fees": {
            "created_timestamp": "100.000000000",
            "fixed_fees": [
                {"amount": 10, "collector_account_id": "0.0.1002", "denominating_token_id": "0.0.1003"},
                {"amount": 20, "collector_account_id": "0.0.1004", "denominating_token_id": None},
            ],
        },
        "deleted": False,
        "fee_exempt_key_list": [
            {"_type": "ED25519", "key": "ab" * 32},
            {"_type": "ECDSA_SECP256K1", "key": "02" + "cd" * 32},
        ],
        "fee_schedule_key": None,
        "memo": "topic memo",
        "submit_key": {"_type": "ECDSA_SECP256K1", "key": "02" + "cd" * 32},
        "timestamp": {"from": "200.000000000", "to": None},
        "topic_id": "0.0.7",
    }


def test_topic_details_of_a_bare_topic(client):
    create_topic(TOPIC, entity={"deleted": None}, admin_key=None)

    body = client.get("/api/v1/topics/0.0.7").json()

    assert body["admin_key"] is None
    assert body["auto_renew_account"] is None
    assert body["auto_renew_period"] is None
    assert body["custom_fees"]["fixed_fees"] == []
    assert body["deleted"] is None
    assert body["fee_exempt_key_list"] == []
    assert body["submit_key"] is None


@pytest.mark.parametrize("topic_id", ["7", "0.7", "0.0.7"])
def test_topic_details_accepts_num_realm_num_and_shard_realm_num(client, topic, topic_id):
    assert client.get(f"/api/v1/topics/{topic_id}").json()["topic_id"] == "0.0.7"


def test_topic_details_ignores_query_parameters(client, topic):
    assert client.get(f"/api/v1/topics/{TOPIC}?limit=500&whatever=1").status_code == 200


@pytest.mark.parametrize(
    "topic_id",
    ["abc", "0.0.-1", "0x0000000000000000000000000000000000000007", "0.65536.7", "274877906944", "1.2.3.4"],
)
def test_topic_details_rejects_bad_id(client, topic_id):
    response = client.get(f"/api/v1/topics/{topic_id}")

    assert response.status_code == 400
    assert response.json() == java_error("Bad Request", "Failed to convert 'id'")


def test_topic_details_without_topic(client):
    create_topic(OTHER_TOPIC, entity={})

    response = client.get(f"/api/v1/topics/{TOPIC}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "Topic not found")


def test_topic_details_without_entity(client):
    create_topic(TOPIC)

    response = client.get(f"/api/v1/topics/{TOPIC}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "Entity not found")


def test_topic_details_without_custom_fee(client):
    create_topic(TOPIC, entity={}, with_fees=False)

    response = client.get(f"/api/v1/topics/{TOPIC}")

    assert response.status_code == 404
    assert response.json() == java_error("Not Found", "Custom fee for entity not found")
