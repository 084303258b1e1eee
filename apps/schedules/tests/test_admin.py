import pytest

from apps.common.tests.admin_pages import detail_page, log_in
from apps.schedules.tests.factories import CREATOR, SECOND, create_schedule

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
    assert b'name="_save"' not in response.content


def test_detail_page_reads_as_the_api_prints_it(client, django_user_model):
    reader = log_in(client, django_user_model)
    create_schedule(2003, 1_700_000_000 * SECOND, executed_timestamp=1_700_000_001 * SECOND, expiration_time=SECOND)

    page = detail_page(reader, f"{CHANGELIST}2003/change/")

    assert page.title == "Schedule 0.0.2003"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Schedule id"] == "0.0.2003"
    assert shown["Consensus timestamp"] == "1700000000.000000000 (2023-11-14 22:13:20 UTC)"
    assert page.fields["Consensus timestamp"].links == ["/admin/transactions/transaction/1700000000000000000/change/"]
    assert page.fields["Executed timestamp"].links == ["/admin/transactions/transaction/1700000001000000000/change/"]
    assert shown["Expiration time"] == "1.000000000 (1970-01-01 00:00:01 UTC)"
    assert shown["Creator account id"] == "0.0.1024"
    assert page.fields["Payer account id"].links == ["/admin/accounts/entity/1024/change/"]
    assert shown["Transaction body"] == "0x010203"


def test_changes_are_forbidden(admin_client, schedules):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}2000/change/", {"payer_account_id": "1"}).status_code == 403
    assert admin_client.post(f"{CHANGELIST}2000/delete/", {"post": "yes"}).status_code == 403
    assert b"delete_selected" not in admin_client.get(CHANGELIST).content
