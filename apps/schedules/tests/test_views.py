import base64

import pytest
from django.conf import settings
from django.test import Client, override_settings

from apps.common import clock
from apps.schedules.tests.factories import (
    ADMIN_KEY,
    CREATOR,
    SECOND,
    create_schedule,
    create_signature,
)

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND
URL = "/api/v1/schedules"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def errors(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def schedule_ids(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [schedule["schedule_id"] for schedule in response.json()["schedules"]]


@pytest.fixture
def schedules():
    """Schedules 0.0.2000..0.0.2004; 2003 and 2004 were created by 0.0.1025."""
    for offset in range(5):
        creator = CREATOR if offset < 3 else CREATOR + 1
        create_schedule(2000 + offset, T + offset, entity={}, creator_account_id=creator)
    create_signature(2000, T + 20, b"\x02\x02")
    create_signature(2000, T + 10, b"\x01\x01", type=6)


# --- /schedules ---------------------------------------------------------------------------------


def test_list_renders_schedules_with_signatures(client, schedules):
    response = client.get(URL)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    assert response.json()["links"] == {"next": None}
    assert schedule_ids(response) == ["0.0.2000", "0.0.2001", "0.0.2002", "0.0.2003", "0.0.2004"]
    assert response.json()["schedules"][0] == {
        "admin_key": {"_type": "ED25519", "key": "ab" * 32},
        "consensus_timestamp": "1700000000.000000000",
        "creator_account_id": "0.0.1024",
        "deleted": False,
        "executed_timestamp": None,
        "expiration_time": None,
        "memo": "scheduled",
        "payer_account_id": "0.0.1024",
        "schedule_id": "0.0.2000",
        "signatures": [
            {
                "consensus_timestamp": "1700000000.000000010",
                "public_key_prefix": base64.b64encode(b"\x01\x01").decode(),
                "signature": base64.b64encode(b"\x01\x01\x01\x01").decode(),
                "type": "ECDSA_SECP256K1",
            },
            {
                "consensus_timestamp": "1700000000.000000020",
                "public_key_prefix": base64.b64encode(b"\x02\x02").decode(),
                "signature": base64.b64encode(b"\x02\x02\x02\x02").decode(),
                "type": "ED25519",
            },
        ],
        "transaction_body": base64.b64encode(b"\x01\x02\x03").decode(),
        "wait_for_expiry": False,
    }
    assert response.json()["schedules"][1]["signatures"] == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("account.id=0.0.1025", [2003, 2004]),
        ("account.id=1025", [2003, 2004]),
        ("account.id=0x0000000000000000000000000000000000000401", [2003, 2004]),
        ("account.id=ne:0.0.1025", [2000, 2001, 2002]),
        ("account.id=lt:0.0.1025", [2000, 2001, 2002]),
        ("account.id=0.0.1024&account.id=0.0.1025", []),
        # An EVM address that encodes no id matches nothing, as upstream does not look it up.
        ("account.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("account.id=gt:0x71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("schedule.id=lt:71c7656ec7ab88b098defb751b7401b5f6d8976f", []),
        ("schedule.id=0.0.2001", [2001]),
        ("schedule.id=0.2001", [2001]),
        ("schedule.id=2001", [2001]),
        ("schedule.id=gt:0.0.2002", [2003, 2004]),
        ("schedule.id=gte:0.0.2002", [2002, 2003, 2004]),
        ("schedule.id=lt:0.0.2002", [2000, 2001]),
        ("schedule.id=lte:0.0.2002", [2000, 2001, 2002]),
        ("schedule.id=ne:0.0.2002", [2000, 2001, 2003, 2004]),
        ("schedule.id=gt:0.0.2000&schedule.id=lt:0.0.2003", [2001, 2002]),
        ("schedule.id=0.0.2009", []),
        ("account.id=0.0.1024&schedule.id=gte:0.0.2001&order=desc", [2002, 2001]),
        ("order=desc", [2004, 2003, 2002, 2001, 2000]),
        ("limit=2", [2000, 2001]),
    ],
)
def test_list_filters(client, schedules, query, expected):
    assert schedule_ids(client.get(f"{URL}?{query}")) == [f"0.0.{number}" for number in expected]


def test_list_pages_by_schedule_id(client, schedules):
    response = client.get(f"{URL}?limit=2&account.id=0.0.1024")

    assert schedule_ids(response) == ["0.0.2000", "0.0.2001"]
    next_link = f"{URL}?limit=2&account.id=0.0.1024&schedule.id=gt:0.0.2001"
    assert response.json()["links"] == {"next": next_link}
    assert response["Link"] == f'<{next_link}>; rel="next"'

    second = client.get(next_link)
    assert schedule_ids(second) == ["0.0.2002"]
    assert second.json()["links"] == {"next": None}


def test_list_pages_descending(client, schedules):
    response = client.get(f"{URL}?order=desc&limit=2&schedule.id=gte:0.0.2001")

    assert schedule_ids(response) == ["0.0.2004", "0.0.2003"]
    assert response.json()["links"]["next"] == (
        f"{URL}?order=desc&limit=2&schedule.id=gte:0.0.2001&schedule.id=lt:0.0.2003"
    )


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 2, "LIMIT_MAX": 3})
def test_list_limit_defaults_and_is_capped(client, schedules):
    assert len(schedule_ids(client.get(URL))) == 2
    assert len(schedule_ids(client.get(f"{URL}?limit=100"))) == 3


def test_list_shows_schedule_without_entity(client):
    create_schedule(2000, T)

    schedule = client.get(URL).json()["schedules"][0]

    assert (schedule["admin_key"], schedule["deleted"], schedule["memo"]) == (None, None, None)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "account.id=-92233720368547758080&schedule.id=x.y.z&order=d&limit=-1&timestamp=1234",
            errors(
                "Invalid parameter: account.id",
                "Invalid parameter: schedule.id",
                "Invalid parameter: order",
                "Invalid parameter: limit",
                "Unknown query parameter: timestamp",
            ),
        ),
        ("crypto=true", errors("Unknown query parameter: crypto")),
        ("account.id=0x71c7656ec7ab88b098defb751b7401b5f6d8976f&account.id=0.0.a", errors("Invalid parameter: account.id")),
        ("schedule.id=xx:0.0.1", errors("Invalid parameter: schedule.id")),
    ],
)
def test_list_rejects_bad_query(client, query, expected):
    response = client.get(f"{URL}?{query}")

    assert response.status_code == 400
    assert response.json() == expected


# --- /schedules/{scheduleId} --------------------------------------------------------------------


def get_at(client, path: str, now: int):
    with clock.frozen_at(now):
        return client.get(path)


@pytest.mark.parametrize("schedule_id", ["0.0.2000", "0.2000", "2000"])
def test_schedule_by_id(client, schedules, schedule_id):
    response = get_at(client, f"{URL}/{schedule_id}", T + SECOND)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json()["schedule_id"] == "0.0.2000"
    assert [signature["type"] for signature in response.json()["signatures"]] == ["ECDSA_SECP256K1", "ED25519"]
    assert response.json()["admin_key"] == {"_type": "ED25519", "key": ADMIN_KEY.hex()[4:]}


@pytest.mark.parametrize(
    ("overrides", "entity", "now_offset", "cache_control"),
    [
        ({"executed_timestamp": T + 5}, {}, SECOND, "public, max-age=3600"),
        ({}, {"deleted": True}, SECOND, "public, max-age=3600"),
        ({}, {}, 31 * 60 * SECOND, "public, max-age=3600"),
        ({}, {}, 31 * 60 * SECOND - 1, "public, max-age=1"),
        ({"expiration_time": T + 100 * SECOND}, {}, 160 * SECOND, "public, max-age=3600"),
        ({"expiration_time": T + 100 * SECOND}, {}, 160 * SECOND - 1, "public, max-age=1"),
        ({"expiration_time": T + 100 * SECOND}, {}, 31 * 60 * SECOND, "public, max-age=3600"),
        ({"expiration_time": T + 3600 * SECOND}, {}, 31 * 60 * SECOND, "public, max-age=1"),
    ],
)
def test_schedule_by_id_is_cached_long_once_final(client, overrides, entity, now_offset, cache_control):
    create_schedule(2000, T, entity=entity, **overrides)

    response = get_at(client, f"{URL}/0.0.2000", T + now_offset)

    assert response.status_code == 200
    assert response["Cache-Control"] == cache_control


def test_schedule_by_id_not_found(client, schedules):
    response = client.get(f"{URL}/0.0.1024")

    assert response.status_code == 404
    assert response.json() == errors("Not found")


@pytest.mark.parametrize("schedule_id", ["0.7.8.9", "x", "0x00000000000000000000000000000000000007d0", "0.0.-1"])
def test_schedule_by_id_rejects_bad_id(client, schedule_id):
    response = client.get(f"{URL}/{schedule_id}")

    assert response.status_code == 400
    assert response.json() == errors("Invalid parameter: scheduleid")


def test_schedule_by_id_rejects_any_query_parameter(client, schedules):
    response = client.get(f"{URL}/0.0.2000?limit=1")

    assert response.status_code == 400
    assert response.json() == errors("Unknown query parameter: limit")
