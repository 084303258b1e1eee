"""POST /api/v1/network/fees over HTTP, with the schedule and STATE mode's rows in the database."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from hiero_sdk_python.hapi.services import transaction_pb2

from apps.network.models import FileData
from apps.network.tests.fee_requests import account, body, ed, extra, hbar, signed
from apps.network.tests.genesis_fee_schedule import genesis_fee_schedule, service_definition
from apps.tokens.models import CustomFee
from apps.tokens.tests.factories import create_token
from apps.topics.tests.factories import create_topic

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"
URL = "/api/v1/network/fees"
PROTOBUF = "application/protobuf"
SCHEDULE_FILE = 113
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19
T = 1_700_000_000_000_000_000
PRNG = signed(body(util_prng={"range": 10}))


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def genesis():
    store_file(genesis_fee_schedule().SerializeToString())


def store_file(data: bytes, timestamp: int = T, transaction_type: int = FILE_CREATE) -> None:
    FileData.objects.create(
        entity_id=SCHEDULE_FILE, consensus_timestamp=timestamp, transaction_type=transaction_type, file_data=data
    )


def post(client, data: bytes, query: str = "", content_type: str = PROTOBUF):
    return client.post(f"{URL}{query}", data=data, content_type=content_type)


def java_error(reason: str, detail: str) -> dict:
    return {"_status": {"messages": [{"message": reason, "detail": detail}]}}


def bad_request(detail: str) -> dict:
    return java_error("Bad Request", detail)


#
# Success
#


def test_estimate_of_a_transfer(client, genesis):
    response = post(client, PRNG)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Cache-Control"] == "public, max-age=60"
    assert response.json() == {
        "high_volume_multiplier": 1,
        "network": {"multiplier": 9, "subtotal": 900000},
        "node": {"base": 100000, "extras": []},
        "service": {"base": 9000000, "extras": []},
        "total": 10000000,
    }


@pytest.mark.parametrize(
    ("path", "content_type"),
    [(URL, "application/x-protobuf"), (URL + "/", PROTOBUF), (URL, "Application/Protobuf; proto=proto.Transaction")],
)
def test_media_types_and_trailing_slash(client, genesis, path, content_type):
    response = client.post(path, data=PRNG, content_type=content_type)
    assert response.status_code == 200
    assert response.json()["total"] == 10000000


def test_no_csrf_token_needed(genesis):
    response = Client(enforce_csrf_checks=True).post(URL, data=PRNG, content_type=PROTOBUF)
    assert response.status_code == 200


@pytest.mark.parametrize("mode", ["STATE", "state", "State", " state ", "s-t_a-te"])
def test_state_mode_spellings(client, genesis, mode):
    request = signed(body(cryptoCreateAccount={"key": ed(1)}, high_volume=True))
    assert post(client, request, f"?mode={mode}").json()["high_volume_multiplier"] == 4


@pytest.mark.parametrize("query", ["", "?mode=", "?mode=INTRINSIC", "?mode=intrinsic&high_volume_throttle="])
def test_intrinsic_mode(client, genesis, query):
    request = signed(body(cryptoCreateAccount={"key": ed(1)}, high_volume=True))
    assert post(client, request, query).json()["high_volume_multiplier"] == 1


def test_high_volume_along_a_piecewise_curve(client, genesis):
    threshold_key = {"thresholdKey": {"threshold": 2, "keys": {"keys": [ed(1), ed(2), ed(3)]}}}
    request = signed(body(cryptoCreateAccount={"key": threshold_key}, high_volume=True))
    assert post(client, request, "?mode=STATE&high_volume_throttle=0").json() == {
        "high_volume_multiplier": 4,
        "network": {"multiplier": 9, "subtotal": 3600000},
        "node": {"base": 400000, "extras": []},
        "service": {"base": 1996000000, "extras": [extra("KEYS", 3, 1, 2, 400000000)]},
        "total": 2800000000,
    }
    for throttle in ("4", "0x4", " 4"):
        fees = post(client, request, f"?mode=STATE&high_volume_throttle={throttle}").json()
        assert (fees["high_volume_multiplier"], fees["total"]) == (9, 6300000000)


def submit_message() -> bytes:
    return signed(body(consensusSubmitMessage={"topicID": {"topicNum": 7001}, "message": b"a" * 2000}))


def test_state_mode_topic_with_custom_fees(client, genesis):
    create_topic(7001, fixed_fees=[{"amount": 1, "collector_account_id": 1001}])
    fees = post(client, submit_message(), "?mode=STATE").json()
    assert fees["service"]["extras"] == [
        extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 1, 0, 1, 498300000),
        extra("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", 2000, 1024, 976, 1000000),
    ]
    assert fees["total"] == 1556000000
    assert post(client, submit_message()).json()["total"] == 94620000


@pytest.mark.parametrize("topic", [None, {"with_fees": False}, {"fixed_fees": []}])
def test_state_mode_topic_without_custom_fees(client, genesis, topic):
    if topic is not None:
        create_topic(7001, **topic)
    assert post(client, submit_message(), "?mode=STATE").json()["total"] == 94620000


TOKEN_TRANSFERS = signed(body(cryptoTransfer={"tokenTransfers": [
    {"token": {"tokenNum": 5001}, "transfers": [hbar(1001, -10), hbar(1002, 10)]},
    {"token": {"tokenNum": 5002},
     "nftTransfers": [{"senderAccountID": account(1001), "receiverAccountID": account(1003), "serialNumber": 1}]},
]}))


@pytest.mark.parametrize(
    ("fees_of_5001", "extras", "total"),
    [
        (None, [extra("TOKEN_TRANSFER_BASE", 1, 0, 1, 9000000)], 12000000),
        ({"fixed_fees": [{"amount": 1}], "fractional_fees": None},
         [extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 1, 19000000)], 22000000),
        ({"royalty_fees": [{"amount": 1}]}, [extra("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 1, 0, 1, 19000000)], 22000000),
        ({"fixed_fees": [], "fractional_fees": [], "royalty_fees": []},
         [extra("TOKEN_TRANSFER_BASE", 1, 0, 1, 9000000)], 12000000),
    ],
    ids=["no-fees", "fixed-fee", "royalty-fee", "empty-fees"],
)
def test_state_mode_token_with_custom_fees(client, genesis, fees_of_5001, extras, total):
    create_token(5001, type="FUNGIBLE_COMMON", fees=fees_of_5001)
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    fees = post(client, TOKEN_TRANSFERS, "?mode=STATE").json()
    assert fees["service"]["extras"] == [
        extra("ACCOUNTS", 3, 2, 1, 1000000), *extras, extra("TOKEN_TYPES", 2, 1, 1, 1000000)
    ]
    assert fees["total"] == total


def test_state_mode_tokens_missing(client, genesis):
    fees = post(client, TOKEN_TRANSFERS, "?mode=STATE").json()
    assert fees["total"] == 11000000


def test_state_mode_token_without_a_custom_fee_row(client, genesis):
    create_token(5001, type="FUNGIBLE_COMMON")
    CustomFee.objects.filter(entity_id=5001).delete()
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    assert post(client, TOKEN_TRANSFERS, "?mode=STATE").json()["total"] == 12000000


def test_state_mode_system_file_update_is_free(client, genesis):
    request = signed(body(fileUpdate={"fileID": {"fileNum": 150}, "contents": b"x" * 1200}))
    assert post(client, request, "?mode=STATE").json()["total"] == 0
    assert post(client, request).json()["total"] == 700000000


#
# The schedule file
#


def test_schedule_assembled_from_create_and_appends(client):
    data = genesis_fee_schedule().SerializeToString()
    store_file(data[:1000])
    store_file(data[1000:2000], T + 1, FILE_APPEND)
    store_file(data[2000:], T + 2, FILE_APPEND)
    assert post(client, PRNG).json()["total"] == 10000000


def test_newest_update_and_its_appends_replace_the_schedule(client, genesis):
    cheaper = genesis_fee_schedule()
    service_definition(cheaper, "UtilPrng").base_fee = 1
    data = cheaper.SerializeToString()
    store_file(b"", T + 1, FILE_UPDATE)
    store_file(data[:100], T + 2, FILE_UPDATE)
    store_file(data[100:], T + 3, FILE_APPEND)
    store_file(b"", T + 4, FILE_UPDATE)
    assert post(client, PRNG).json()["service"]["base"] == 1


def test_invalid_newest_schedule_leaves_the_previous_one(client, genesis):
    invalid = genesis_fee_schedule()
    invalid.network.multiplier = 0
    store_file(invalid.SerializeToString(), T + 1, FILE_UPDATE)
    assert post(client, PRNG).json()["total"] == 10000000


def test_schedule_of_another_file_is_not_read(client):
    FileData.objects.create(entity_id=112, consensus_timestamp=T, transaction_type=FILE_CREATE,
                            file_data=genesis_fee_schedule().SerializeToString())
    assert post(client, PRNG).json() == bad_request("Unknown transaction type")


#
# Errors
#


def test_no_schedule(client):
    response = post(client, PRNG)
    assert response.status_code == 400
    assert response.json() == bad_request("Unknown transaction type")


@pytest.mark.parametrize(
    ("content_type", "echoed"),
    [
        ("application/json", "application/json"),
        ("text/plain; format = flowed", "text/plain;format=flowed"),
        ("", "application/octet-stream"),
    ],
)
def test_unsupported_media_type(client, genesis, content_type, echoed):
    response = post(client, PRNG, content_type=content_type)
    assert response.status_code == 415
    assert response.json() == java_error("Unsupported Media Type", f"Content-Type '{echoed}' is not supported")


def test_body_over_one_mebibyte(client, genesis):
    response = post(client, b"\x00" * (1024 * 1024 + 1))
    assert response.status_code == 413
    assert response.json()["_status"]["messages"][0]["detail"] == "Request body exceeds 1048576 bytes"
    assert post(client, signed(body(fileAppend={"contents": b"x" * (1024 * 1024 - 200)}))).status_code == 200


def test_empty_body(client, genesis):
    response = client.generic("POST", URL, b"", CONTENT_TYPE=PROTOBUF)
    assert response.status_code == 400
    assert response.json() == bad_request("Failed to read request")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("?mode=FAST", "Failed to convert 'mode'"),
        ("?mode=STATE&mode=INTRINSIC", "Failed to convert 'mode'"),
        ("?high_volume_throttle=abc", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=1.5", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=2147483648", "Failed to convert 'high_volume_throttle'"),
        ("?high_volume_throttle=-1", "highVolumeThrottle must be greater than or equal to 0"),
        ("?high_volume_throttle=10001", "highVolumeThrottle must be less than or equal to 10000"),
    ],
)
def test_invalid_parameters(client, genesis, query, detail):
    response = post(client, PRNG, query)
    assert response.status_code == 400
    assert response.json() == bad_request(detail)


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"\x0a\xff", "Unable to parse transaction"),
        (b"\xff" * 100, "Unable to parse transaction"),
        (transaction_pb2.Transaction(signedTransactionBytes=b"\x0a\xff").SerializeToString(),
         "Unable to parse transaction"),
        (transaction_pb2.Transaction(body=body(util_prng={})).SerializeToString(),
         "Transaction must contain body bytes or signed transaction bytes"),
        (signed(body(freeze={})), "Unknown transaction type"),
        (signed(body()), "Unknown transaction type"),
    ],
)
def test_malformed_transactions(client, genesis, data, detail):
    response = post(client, data)
    assert response.status_code == 400
    assert response.json() == bad_request(detail)


def test_extra_missing_from_a_custom_schedule(client):
    schedule = genesis_fee_schedule()
    service_definition(schedule, "TokenCreate").ClearField("extras")
    store_file(schedule.SerializeToString())
    response = post(client, signed(body(tokenCreation={"name": "T"})))
    assert response.json() == bad_request("Extra not defined KEYS")


def test_unrouted_post_is_not_found(client):
    response = client.post("/api/v1/network/fees/estimate", data=PRNG, content_type=PROTOBUF)
    assert response.status_code == 404
    assert response.json() == {"_status": {"messages": [{"message": "Not found"}]}}


def test_demo_data_carries_the_genesis_schedule(client):
    call_command("loadfixtures", "--if-empty", DEMO)
    rows = FileData.objects.filter(entity_id=SCHEDULE_FILE)
    assert [bytes(row.file_data) for row in rows] == [genesis_fee_schedule().SerializeToString()]
    assert post(client, PRNG, "?mode=STATE").json()["total"] == 10000000
