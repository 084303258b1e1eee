"""The network selectors, without HTTP: system files, the unreleased supply, nodes and the
reads of fee estimation."""

import pytest
from django.db import connection
from hiero_sdk_python.hapi.services import basic_types_pb2

from apps.accounts.tests.factories import create_account_balances, create_entity
from apps.common.ledger.codecs import encode_entity_id
from apps.network import selectors
from apps.network.filtersets import NodeFilterSet, RegisteredNodeFilterSet
from apps.network.models import RegisteredNodeType
from apps.network.protobuf import parse_exchange_rate_set, parse_fee_schedules
from apps.network.selectors import (
    SYSTEM_FILE_ATTEMPTS,
    Supply,
    latest_system_file,
    network_nodes,
    registered_nodes,
    unreleased_supply,
)
from apps.network.tests.factories import (
    FILE_APPEND,
    FILE_CREATE,
    FILE_UPDATE,
    create_address_book,
    create_file_data,
    create_registered_node,
    exchange_rate_set,
    fee_schedules,
)
from apps.tokens.models import CustomFee
from apps.tokens.tests.factories import create_token
from apps.topics.tests.factories import create_topic

pytestmark = pytest.mark.django_db


# --- System files -----------------------------------------------------------------------------

RATES = 112
FIRST = exchange_rate_set((1, 12, 100), (1, 13, 200))
SECOND_VERSION = exchange_rate_set((2, 24, 300), (2, 25, 400))


def rates(file) -> tuple[int, int]:
    return file.data.currentRate.hbarEquiv, file.data.currentRate.centEquiv


def test_a_file_is_its_create_and_appends_concatenated():
    create_file_data(RATES, 10, FIRST[:10], type=FILE_CREATE)
    create_file_data(RATES, 11, FIRST[10:20], type=FILE_APPEND)
    create_file_data(RATES, 12, FIRST[20:], type=FILE_APPEND)
    create_file_data(RATES + 1, 13, b"\xff", type=FILE_APPEND)

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert found.consensus_timestamp == 12
    assert rates(found) == (1, 12)
    assert found.data.nextRate.expirationTime.seconds == 200


def test_an_update_with_content_starts_a_new_version_and_an_empty_one_changes_nothing():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION[:5], type=FILE_UPDATE)
    create_file_data(RATES, 21, b"", type=FILE_UPDATE)
    create_file_data(RATES, 22, SECOND_VERSION[5:], type=FILE_APPEND)

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert (found.consensus_timestamp, rates(found)) == (22, (2, 24))


def test_bounds_choose_the_version_that_began_within_them():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION)

    assert rates(latest_system_file(RATES, upper=19, parse=parse_exchange_rate_set)) == (1, 12)
    assert rates(latest_system_file(RATES, upper=20, parse=parse_exchange_rate_set)) == (2, 24)
    assert latest_system_file(RATES, lower=21, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=9, parse=parse_exchange_rate_set) is None


def test_appends_after_the_upper_bound_are_left_out():
    create_file_data(RATES, 10, FIRST[:5], type=FILE_CREATE)
    create_file_data(RATES, 11, FIRST[5:], type=FILE_APPEND)

    with pytest.raises(ValueError):
        parse_exchange_rate_set(FIRST[:5])
    assert latest_system_file(RATES, upper=10, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=11, parse=parse_exchange_rate_set).consensus_timestamp == 11


def test_a_version_that_does_not_parse_falls_back_to_the_one_before():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, b"\xff\xff\xff")

    found = latest_system_file(RATES, parse=parse_exchange_rate_set)

    assert (found.consensus_timestamp, rates(found)) == (10, (1, 12))


def test_a_version_still_being_appended_to_falls_back_to_the_one_before():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    create_file_data(RATES, 20, SECOND_VERSION[:7])

    assert latest_system_file(RATES, parse=parse_exchange_rate_set).consensus_timestamp == 10


def test_fallbacks_stop_after_the_attempt_limit():
    create_file_data(RATES, 10, FIRST, type=FILE_CREATE)
    for number in range(SYSTEM_FILE_ATTEMPTS):
        create_file_data(RATES, 20 + number, b"\xff\xff\xff")

    assert latest_system_file(RATES, parse=parse_exchange_rate_set) is None
    assert latest_system_file(RATES, upper=20 + SYSTEM_FILE_ATTEMPTS - 2, parse=parse_exchange_rate_set) is not None


def test_fee_schedules_parse_with_their_entries():
    create_file_data(111, 10, fee_schedules((100, {"ContractCall": 852000}), (200, {})), type=FILE_CREATE)

    schedules = latest_system_file(111, parse=parse_fee_schedules).data

    assert schedules.currentFeeSchedule.expiryTime.seconds == 100
    assert schedules.currentFeeSchedule.transactionFeeSchedule[0].fees[0].servicedata.gas == 852000


# --- Configured realm, supply and nodes -------------------------------------------------------
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
    query = {"file.id": ["102"], "node.id": ["1", "3", "4", "gte:0", "lte:3"], "order": ["desc"], "limit": ["10"]}
    criteria = NodeFilterSet(query).criteria()

    assert [row["node_id"] for row in network_nodes(criteria)] == [3, 1]


# --- Registered nodes -------------------------------------------------------------------------


def registered_node_rows(query_string: str) -> list[dict]:
    return registered_nodes(RegisteredNodeFilterSet(RegisteredNodeFilterSet.read_query(query_string)).criteria())


def registered_node_ids(query_string: str) -> list[int]:
    return [row["registered_node_id"] for row in registered_node_rows(query_string)]


@pytest.fixture
def registered():
    """Nodes 1..6: 1 a block node, 2 a mirror node and a relay, 3 a general service, 4 a block
    node that is deleted, 5 a relay, 6 an endpoint of no known type."""
    create_registered_node(1, RegisteredNodeType.BLOCK_NODE)
    create_registered_node(2, RegisteredNodeType.MIRROR_NODE, RegisteredNodeType.RPC_RELAY)
    create_registered_node(3, RegisteredNodeType.GENERAL_SERVICE)
    create_registered_node(4, RegisteredNodeType.BLOCK_NODE, deleted=True)
    create_registered_node(5, RegisteredNodeType.RPC_RELAY)
    create_registered_node(6, RegisteredNodeType.UNKNOWN)


@pytest.mark.parametrize(
    ("query_string", "ids"),
    [
        ("", [1, 2, 3, 5, 6]),
        ("order=desc", [6, 5, 3, 2, 1]),
        ("limit=2", [1, 2]),
        ("order=desc&limit=2", [6, 5]),
        ("registerednode.id=2", [2]),
        ("registerednode.id=4", []),
        ("registerednode.id=gt:1&registerednode.id=lte:5", [2, 3, 5]),
        ("registerednode.id=ne:2", [1, 2, 3, 5, 6]),
        ("type=BLOCK_NODE", [1]),
        ("type=rpc_relay", [2, 5]),
        ("type=mirror_node&registerednode.id=gte:3", []),
        ("type=unknown", [6]),
    ],
)
def test_registered_nodes_not_deleted_in_range_and_of_type(registered, query_string, ids):
    assert registered_node_ids(query_string) == ids


def test_registered_nodes_rows(registered):
    (row,) = registered_node_rows("registerednode.id=2")

    assert row["service_endpoints"][0]["mirror_node"] == {}
    assert row["service_endpoints"][1]["rpc_relay"] == {}
    assert bytes(row["admin_key"]).hex() == "1220" + "cd" * 32
    assert (row["timestamp_range"].lower, row["timestamp_range"].upper) == (1_000_000_002, None)


# --- Fee estimation ---------------------------------------------------------------------------
def test_versions_read_by_index():
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into file_data (entity_id, consensus_timestamp, transaction_type, file_data)"
            " select 112 + n % 3, n, 19, 'x' from generate_series(1, 30000) n"
        )
        cursor.execute("analyze file_data")
        cursor.execute(
            "explain select consensus_timestamp from file_data where entity_id = 113"
            " and (transaction_type = 17 or (transaction_type = 19 and octet_length(file_data) > 0))"
            " order by consensus_timestamp desc limit 10"
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "file_data__id_timestamp" in plan
    assert "Seq Scan" not in plan


def test_topic_custom_fees():
    create_topic(7001, fixed_fees=[{"amount": 1, "collector_account_id": 1001}])
    create_topic(7002, fixed_fees=[])
    create_topic(7003, with_fees=False)
    CustomFee.objects.create(entity_id=7004, fixed_fees=[{"amount": 1}], timestamp_range="[1,)")
    assert [selectors.topic_has_custom_fees(topic_id=topic) for topic in (7001, 7002, 7003, 7004)] == [
        True, False, False, False
    ]


def test_token_fee_state():
    create_token(5001, type="FUNGIBLE_COMMON", fees={"fractional_fees": [{"numerator": 1}]})
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    assert selectors.token_fee_state(token_id=5001) == selectors.TokenFeeState(is_nft=False, has_custom_fees=True)
    assert selectors.token_fee_state(token_id=5002) == selectors.TokenFeeState(is_nft=True, has_custom_fees=False)
    assert selectors.token_fee_state(token_id=5003) is None


def test_ledger_of_protobuf_ids():
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    create_topic(7001, fixed_fees=[{"amount": 1}])
    ledger = selectors.MirrorFeeState()
    assert ledger.token(basic_types_pb2.TokenID(tokenNum=5002)) == (True, False)
    assert ledger.token(basic_types_pb2.TokenID(shardNum=-1, tokenNum=5002)) is None
    assert ledger.topic_has_custom_fees(basic_types_pb2.TopicID(topicNum=7001))
    assert not ledger.topic_has_custom_fees(basic_types_pb2.TopicID(realmNum=1 << 40, topicNum=7001))
