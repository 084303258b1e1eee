"""The read-only admin of the registered nodes."""

import pytest

from apps.network.models import RegisteredNodeType
from apps.network.tests.factories import create_registered_node

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/network/registerednode/"


@pytest.fixture
def registered_nodes():
    create_registered_node(1, RegisteredNodeType.BLOCK_NODE)
    create_registered_node(2, RegisteredNodeType.MIRROR_NODE, RegisteredNodeType.RPC_RELAY, deleted=True)
    create_registered_node(3, RegisteredNodeType.GENERAL_SERVICE)


def listed_ids(response) -> list[int]:
    assert response.status_code == 200
    return [node.registered_node_id for node in response.context["cl"].result_list]


def test_anonymous_user_is_redirected_to_login(client, registered_nodes):
    response = client.get(CHANGELIST)

    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={CHANGELIST}"


def test_superuser_sees_every_node_with_its_types(admin_client, registered_nodes):
    response = admin_client.get(CHANGELIST)

    assert listed_ids(response) == [1, 2, 3]
    assert b"MIRROR_NODE, RPC_RELAY" in response.content


def test_deleted_filter(admin_client, registered_nodes):
    assert listed_ids(admin_client.get(CHANGELIST, {"deleted__exact": "1"})) == [2]


@pytest.mark.parametrize(("term", "ids"), [("3", [3]), (" 1 ", [1]), ("9", []), ("0.0.3", []), ("", [1, 2, 3])])
def test_search_by_id(admin_client, registered_nodes, term, ids):
    assert listed_ids(admin_client.get(CHANGELIST, {"q": term})) == ids


def test_detail_page_is_read_only(admin_client, registered_nodes):
    response = admin_client.get(f"{CHANGELIST}1/change/")

    assert response.status_code == 200
    assert b'name="_save"' not in response.content
    content = response.content.decode()
    assert "1.000000001" in content
    assert "0x1220" + "cd" * 32 in content
    assert "&quot;endpoint_apis&quot;" in content
    assert admin_client.post(f"{CHANGELIST}1/delete/").status_code == 403
    assert admin_client.get("/admin/network/registerednode/add/").status_code == 403
