import pytest

from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.common.codecs import encode_entity_id
from apps.network.protobuf import parse_exchange_rate_set
from apps.network.selectors import NodeCriteria, Supply, latest_system_file, network_nodes, unreleased_supply
from apps.network.tests.factories import create_address_book, create_file_data, exchange_rate_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def realm_one(settings):
    settings.MIRROR = {**settings.MIRROR, "REALM": 1}


def test_unreleased_supply_counts_the_accounts_of_the_configured_realm(realm_one):
    create_entity(encode_entity_id(0, 1, 2), balance=10, balance_timestamp=5)
    create_entity(2, balance=1_000, balance_timestamp=6)
    create_account_balances(3, {encode_entity_id(0, 1, 44): 7, 44: 1_000})

    assert unreleased_supply() == Supply(unreleased=10, consensus_timestamp=5)
    assert unreleased_supply(upper=3).unreleased == 7


def test_system_files_are_read_in_the_configured_realm(realm_one):
    create_file_data(112, 1, exchange_rate_set((1, 1, 1), (1, 1, 2)), type=17)
    create_file_data(encode_entity_id(0, 1, 112), 2, exchange_rate_set((3, 3, 1), (3, 3, 2)), type=17)

    assert latest_system_file(112, parse=parse_exchange_rate_set).consensus_timestamp == 2


def test_network_nodes_of_listed_ids_within_bounds():
    create_address_book(10, nodes=5)
    criteria = NodeCriteria(file_id=102, node_ids=[1, 3, 4], lower=0, upper=3, order="desc", limit=10)

    assert [row["node_id"] for row in network_nodes(criteria=criteria)] == [3, 1]
