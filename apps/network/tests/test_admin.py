"""The read-only admin of the registered nodes."""

import pytest

from apps.common.tests.admin_pages import detail_page, log_in
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
    assert admin_client.post(f"{CHANGELIST}1/delete/").status_code == 403
    assert admin_client.get("/admin/network/registerednode/add/").status_code == 403


def test_detail_page_reads_as_the_api_prints_it(client, django_user_model, registered_nodes):
    reader = log_in(client, django_user_model)
    page = detail_page(reader, f"{CHANGELIST}2/change/")

    assert page.title == "Registered node 2"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Registered node id"] == "2"
    assert shown["Admin key"] == "ED25519 " + "cd" * 32
    assert shown["Created timestamp"] == "1.000000002 (1970-01-01 00:00:01 UTC)"
    assert page.fields["Created timestamp"].links == ["/admin/transactions/transaction/1000000002/change/"]
    assert shown["Timestamp range"] == "from 1.000000002 (1970-01-01 00:00:01 UTC)"
    assert shown["Type"] == "MIRROR_NODE, RPC_RELAY"
    assert '"mirror_node": {}' in shown["Service endpoints"]
    assert shown["Deleted"] == "True"
