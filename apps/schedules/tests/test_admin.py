import pytest

from apps.schedules.tests.factories import CREATOR, create_schedule

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/schedules/schedule/"


@pytest.fixture
def schedules():
    create_schedule(2000, 100)
    create_schedule(2001, 200, creator_account_id=CREATOR + 1)
    create_schedule(2002, 300, executed_timestamp=400)


def listed(response) -> list[int]:
    assert response.status_code == 200
    return [schedule.schedule_id for schedule in response.context["cl"].result_list]


def test_anonymous_user_is_redirected_to_login(client, schedules):
    response = client.get(CHANGELIST)

    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={CHANGELIST}"


def test_newest_schedules_first(admin_client, schedules):
    response = admin_client.get(CHANGELIST)

    assert listed(response) == [2002, 2001, 2000]
    assert b"0.000000400" in response.content


@pytest.mark.parametrize(
    ("term", "expected"),
    [("0.0.2001", [2001]), ("2000", [2000]), ("0.0.1024", [2002, 2000]), ("0.0.9", []), ("x", [])],
)
def test_search_by_schedule_or_creator(admin_client, schedules, term, expected):
    assert listed(admin_client.get(CHANGELIST, {"q": term})) == expected


def test_detail_page_is_read_only(admin_client, schedules):
    response = admin_client.get(f"{CHANGELIST}2000/change/")

    assert response.status_code == 200
    assert b"schedule 0.0.2000" in response.content
    assert b'name="_save"' not in response.content


def test_changes_are_forbidden(admin_client, schedules):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}2000/change/", {"payer_account_id": "1"}).status_code == 403
    assert admin_client.post(f"{CHANGELIST}2000/delete/", {"post": "yes"}).status_code == 403
    assert b"delete_selected" not in admin_client.get(CHANGELIST).content
