import pytest

from apps.common.tests.admin_pages import detail_page, log_in
from apps.topics.tests.factories import (
    ECDSA_KEY,
    ED25519_KEY,
    PAYER,
    SECOND,
    create_message,
    create_submitted_message,
    create_topic,
    key_list,
)

pytestmark = pytest.mark.django_db

TOPICS = "/admin/topics/topic/"
MESSAGES = "/admin/topics/topicmessage/"


@pytest.fixture
def topics():
    create_topic(7)
    create_topic(8)
    for number in range(1, 13):
        create_submitted_message(7, number, 1_000 + number)
    create_submitted_message(8, 1, 2_000)


def listed(response, attribute: str) -> list:
    assert response.status_code == 200
    return [getattr(row, attribute) for row in response.context["cl"].result_list]


def test_anonymous_user_is_redirected_to_login(client, topics):
    for page in (TOPICS, MESSAGES):
        response = client.get(page)

        assert response.status_code == 302
        assert response["Location"] == f"/admin/login/?next={page}"


def test_topics_listed_newest_id_first(admin_client, topics):
    assert listed(admin_client.get(TOPICS), "id") == [8, 7]


@pytest.mark.parametrize(("term", "expected"), [("0.0.7", [7]), ("8", [8]), ("0.0.9", []), ("nope", [])])
def test_topic_search_by_id(admin_client, topics, term, expected):
    assert listed(admin_client.get(TOPICS, {"q": term}), "id") == expected


def test_topic_page_shows_its_latest_messages(admin_client, topics):
    response = admin_client.get(f"{TOPICS}7/change/")

    assert response.status_code == 200
    content = response.content.decode()
    assert "message 12" in content
    assert "message 3" in content
    assert "message 2<" not in content
    assert f'href="{MESSAGES}1012/change/"' in content
    assert 'name="_save"' not in content


def test_topic_page_without_messages(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_topic(9)

    assert detail_page(reader, f"{TOPICS}9/change/").fields["Latest 10 messages"].text == "-"


def test_topic_page_reads_as_the_api_prints_it(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_topic(9, fee_exempt_key_list=key_list(ED25519_KEY, ECDSA_KEY), submit_key=ECDSA_KEY)
    create_submitted_message(9, 1, 200 * SECOND)

    page = detail_page(reader, f"{TOPICS}9/change/")

    assert page.title == "Topic 0.0.9"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Id"] == "0.0.9"
    assert shown["Admin key"] == "ED25519 " + "ab" * 32
    assert shown["Submit key"] == "ECDSA_SECP256K1 02" + "cd" * 32
    assert shown["Fee exempt key list"] == f"ED25519 {'ab' * 32} ECDSA_SECP256K1 02{'cd' * 32}"
    assert shown["Fee schedule key"] == "-"
    assert shown["Created timestamp"] == "100.000000000 (1970-01-01 00:01:40 UTC)"
    assert shown["Timestamp range"] == "from 100.000000000 (1970-01-01 00:01:40 UTC)"
    messages = page.fields["Latest 10 messages"]
    assert messages.rows[1] == ["1", "200.000000000 (1970-01-01 00:03:20 UTC)", "message 1"]
    assert messages.links == [f"{MESSAGES}{200 * SECOND}/change/"]


def test_message_page_reads_as_the_api_prints_it(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_topic(9)
    # TransactionID: valid start 1234567890.0, account 0.0.3, scheduled, nonce 1.
    initial_transaction_id = bytes.fromhex("0a0608d285d8cc041202180318012001")
    create_submitted_message(
        9, 2, 200 * SECOND, message="héllo ✓".encode(), chunk_num=1, chunk_total=2,
        initial_transaction_id=initial_transaction_id,
    )
    create_submitted_message(9, 3, 300 * SECOND, message=b"\xff\x00\x01")

    page = detail_page(reader, f"{MESSAGES}{200 * SECOND}/change/")

    assert page.title == "Topic 0.0.9 message 2"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Message"] == "héllo ✓"
    assert shown["Running hash"] == "0x" + b"running hash".hex()
    assert shown["Topic id"] == "0.0.9"
    assert page.fields["Topic id"].links == [f"{TOPICS}9/change/"]
    assert page.fields["Payer account id"].links == [f"/admin/accounts/entity/{PAYER}/change/"]
    assert shown["Consensus timestamp"] == "200.000000000 (1970-01-01 00:03:20 UTC)"
    assert page.fields["Consensus timestamp"].links == [f"/admin/transactions/transaction/{200 * SECOND}/change/"]
    assert shown["Valid start timestamp"] == "199.999999999 (1970-01-01 00:03:19 UTC)"
    assert '"account_id": "0.0.3"' in shown["Initial transaction id"]
    assert '"transaction_valid_start": "1234567890.000000000"' in shown["Initial transaction id"]
    assert detail_page(reader, f"{MESSAGES}{300 * SECOND}/change/").fields["Message"].text == "0xff0001"


def test_messages_listed_in_index_order(admin_client, topics):
    timestamps = listed(admin_client.get(MESSAGES), "consensus_timestamp")

    assert timestamps == [2_000, *range(1_012, 1_000, -1)]


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("0.0.8", [2_000]),
        ("0.000001005", [1_005]),
        ("0.000009999", []),
        ("0.0.99", []),
        ("x.y", []),
    ],
)
def test_message_search_by_topic_or_timestamp(admin_client, topics, term, expected):
    assert listed(admin_client.get(MESSAGES, {"q": term}), "consensus_timestamp") == expected


def test_message_page_is_read_only(admin_client, topics):
    response = admin_client.get(f"{MESSAGES}1005/change/")

    assert response.status_code == 200
    assert b"message 5" in response.content
    assert b'name="_save"' not in response.content


def test_message_page_of_unknown_message_redirects_to_the_list(admin_client, topics):
    for object_id in ("9999", "abc"):
        assert admin_client.get(f"{MESSAGES}{object_id}/change/").status_code == 302


def test_message_without_submit_transaction_is_listed_but_not_shown(admin_client):
    create_message(7, 1, 500)

    assert listed(admin_client.get(MESSAGES), "consensus_timestamp") == [500]
    assert admin_client.get(f"{MESSAGES}500/change/").status_code == 302


@pytest.mark.parametrize("page", [TOPICS, MESSAGES])
def test_changes_are_forbidden(admin_client, topics, page):
    assert admin_client.get(f"{page}add/").status_code == 403
    assert b"delete_selected" not in admin_client.get(page).content


def test_topic_changes_are_refused(admin_client, topics):
    assert admin_client.post(f"{TOPICS}7/change/", {"created_timestamp": "1"}).status_code == 403
    assert admin_client.post(f"{TOPICS}7/delete/", {"post": "yes"}).status_code == 403
