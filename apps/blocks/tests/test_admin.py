import pytest

from apps.blocks.tests.factories import create_record_files, record_file

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/blocks/recordfile/"
HASHES = {10: "a" * 96, 11: "b" * 96, 12: "c" * 96}


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, number * 100, hash=HASHES[number]) for number in (10, 11, 12)))


def listed_numbers(response) -> list[int]:
    assert response.status_code == 200
    return [block.index for block in response.context["cl"].result_list]


def test_anonymous_user_is_redirected_to_login(client, blocks):
    response = client.get(CHANGELIST)

    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={CHANGELIST}"


def test_staff_user_without_permission_is_refused(client, django_user_model, blocks):
    user = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(user)

    assert client.get(CHANGELIST).status_code == 403


def test_superuser_sees_newest_blocks_first(admin_client, blocks):
    response = admin_client.get(CHANGELIST)

    assert listed_numbers(response) == [12, 11, 10]
    assert HASHES[11].encode() in response.content


def test_search_by_number(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "11"})) == [11]


def test_search_by_hash(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": HASHES[12]})) == [12]


def test_search_by_hash_prefix(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": HASHES[10][:20]})) == [10]


def test_search_without_match(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "zzz"})) == []


def test_detail_page_is_read_only(admin_client, blocks):
    response = admin_client.get(f"{CHANGELIST}1100/change/")

    assert response.status_code == 200
    assert HASHES[11].encode() in response.content
    assert b'name="_save"' not in response.content


def test_detail_page_refuses_changes(admin_client, blocks):
    response = admin_client.post(f"{CHANGELIST}1100/change/", {"name": "renamed.rcd"})

    assert response.status_code == 403


def test_add_is_forbidden(admin_client):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403


def test_delete_is_forbidden(admin_client, blocks):
    assert admin_client.get(f"{CHANGELIST}1100/delete/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}1100/delete/", {"post": "yes"}).status_code == 403


def test_bulk_delete_action_is_not_offered(admin_client, blocks):
    response = admin_client.get(CHANGELIST)

    assert b"delete_selected" not in response.content
