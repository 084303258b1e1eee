import pytest
from django.contrib import admin

from apps.accounts.admin import AccountAdmin
from apps.accounts.models import Entity
from apps.accounts.tests.factories import create_entity
from apps.hooks.admin import SLOTS_PER_PAGE, AccountHooksAdmin
from apps.hooks.tests.factories import T, create_change, create_hook, create_slot, key

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/accounts/entity/"
STORAGE = f"{CHANGELIST}1001/hooks/7/storage/"


@pytest.fixture
def hooks():
    create_entity(1001)
    create_entity(1002)
    create_hook(1001, 7)
    create_hook(1001, 8, deleted=True, contract_id=None)
    for number in (1, 2, 3):
        create_slot(1001, 7, number, deleted=number == 3)
    create_change(1001, 7, 1, T + 1)
    create_change(1001, 7, 2, T + 2, written=None)


def test_the_account_admin_is_extended_with_hooks():
    assert isinstance(admin.site.get_model_admin(Entity), AccountHooksAdmin)
    assert issubclass(AccountHooksAdmin, AccountAdmin)


def test_an_accounts_page_lists_its_hooks_with_links_to_their_storage(admin_client, hooks):
    content = admin_client.get(f"{CHANGELIST}1001/change/").content.decode()

    assert f'href="{STORAGE}"' in content
    assert f'href="{CHANGELIST}1001/hooks/8/storage/"' in content
    assert "ED25519 " + "ab" * 32 in content
    assert "0.0.5001" in content


def test_an_account_without_hooks_shows_none(admin_client, hooks):
    response = admin_client.get(f"{CHANGELIST}1002/change/")

    assert response.status_code == 200
    assert "/hooks/" not in response.content.decode()


def test_a_hooks_storage_page(admin_client, hooks):
    response = admin_client.get(STORAGE)

    assert response.status_code == 200
    assert [slot["key"] for slot in response.context["slots"]] == ["0x" + key(n).hex() for n in (1, 2, 3)]
    assert response.context["slots"][2]["deleted"] is True
    assert [(change["key"], change["written"]) for change in response.context["changes"]] == [
        ("0x" + key(2).hex(), None),
        ("0x" + key(1).hex(), "0x0304"),
    ]
    assert response.context["next_after"] is None
    assert "0x" + key(1001).hex() in response.content.decode()


def test_storage_pages_by_key(admin_client, hooks):
    for number in range(10, 10 + SLOTS_PER_PAGE):
        create_slot(1001, 7, number)

    first = admin_client.get(STORAGE)
    after = first.context["next_after"]
    second = admin_client.get(f"{STORAGE}?after={after}")

    assert after == "0x" + key(SLOTS_PER_PAGE + 6).hex()
    rest = range(SLOTS_PER_PAGE + 7, SLOTS_PER_PAGE + 10)
    assert [slot["key"] for slot in second.context["slots"]] == ["0x" + key(n).hex() for n in rest]
    assert admin_client.get(f"{STORAGE}?after=zz").context["slots"] == first.context["slots"]


def test_an_unknown_hook_is_not_found(admin_client, hooks):
    assert admin_client.get(f"{CHANGELIST}1001/hooks/9/storage/").status_code == 404
    assert admin_client.get(f"{CHANGELIST}1002/hooks/7/storage/").status_code == 404


def test_the_storage_page_needs_a_login(client, hooks):
    assert client.get(STORAGE).status_code == 302
