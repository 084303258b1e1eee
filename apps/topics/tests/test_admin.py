import re

import pytest

from apps.topics.tests.factories import (
    create_message,
    create_submitted_message,
    create_topic,
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


def test_topic_page_without_messages(admin_client):
    create_topic(9)

    response = admin_client.get(f"{TOPICS}9/change/")

    assert response.status_code == 200
    assert re.search(r"Latest 10 messages:</label>\s*<div class=\"readonly\">none</div>", response.content.decode())


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
