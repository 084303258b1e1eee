"""The network routes' FilterSets, read in the strict dialect, without HTTP."""

import pytest

from apps.common.errors import DetailedError, InvalidArgument
from apps.common.ledger.codecs import MAX_LONG
from apps.common.query.comparisons import Comparison
from apps.network.filtersets import (
    FeeEstimateFilterSet,
    FeesFilterSet,
    NodeFilterSet,
    RegisteredNodeFilterSet,
    SupplyFilterSet,
    TimestampBound,
    TimestampFilterSet,
    parse_number_range,
    parse_registered_node_type,
)
from apps.network.models import RegisteredNodeType

SECOND = 10**9


def read(filterset_class, query_string: str):
    return filterset_class(filterset_class.read_query(query_string))


@pytest.mark.parametrize(
    ("query_string", "bound"),
    [
        ("", TimestampBound()),
        ("timestamp=5", TimestampBound(upper=5 * SECOND)),
        ("timestamp=GT:5.5&timestamp=lt:6", TimestampBound(lower=5 * SECOND + 6, upper=6 * SECOND - 1)),
        ("timestamp=%20&timestamp=gte:1", TimestampBound(lower=SECOND)),
    ],
)
def test_timestamp_bound(query_string, bound):
    assert read(TimestampFilterSet, query_string).timestamp_bound == bound


@pytest.mark.parametrize("value", ["ne:1", ":1", "x:1", "1.1234567890", "-1", "gt:1:2"])
def test_timestamps_that_do_not_convert(value):
    with pytest.raises(DetailedError) as error:
        read(TimestampFilterSet, f"timestamp={value}").validate()

    assert error.value.messages == [{"message": "Bad Request", "detail": "Failed to convert 'timestamp'"}]


def test_order_and_supply_type():
    fees, supply = read(FeesFilterSet, "order=DESC"), read(SupplyFilterSet, "q=Total_Coins&Q=x")
    fees.validate()
    supply.validate()

    assert (fees.value("order"), supply.value("q")) == ("desc", "totalcoins")


def test_node_criteria():
    criteria = read(NodeFilterSet, "file.id=EQ:0.0.101&node.id=gt:1&node.id=ne:3&node.id=&order=desc").criteria()

    assert criteria.option("file.id") == Comparison("eq", 101)
    assert criteria["node.id"] == (Comparison("gt", 1), Comparison("ne", 3))
    assert (criteria.order, criteria.limit, criteria.paged_params) == ("desc", 10, ("node.id",))
    assert read(NodeFilterSet, "limit=26").criteria().limit == 25


def test_nodes_refuse_as_their_request_object_binds():
    with pytest.raises(InvalidArgument) as error:
        read(NodeFilterSet, "limit=0&node.id=x").validate()

    assert error.value.messages == ["Invalid parameter: node.id"]


def test_fee_estimate_query():
    query = read(FeeEstimateFilterSet, "mode=s-t_a-te&high_volume_throttle=%230x")
    with pytest.raises(DetailedError):
        query.validate()
    query = read(FeeEstimateFilterSet, "mode=state&high_volume_throttle=0x10")

    assert (query.state_mode, query.throttle) == (True, 16)


# --- /network/registered-nodes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "comparison"),
    [
        ("5", Comparison("eq", 5)),
        ("EQ:5", Comparison("eq", 5)),
        ("gTe:0", Comparison("gte", 0)),
        ("ne:7", Comparison("ne", 7)),
        ("lt:+3", Comparison("lt", 3)),
        ("-0", Comparison("eq", 0)),
        # Java's split drops the empty parts ending the value.
        ("gt:5:", Comparison("gt", 5)),
        ("5::", Comparison("eq", 5)),
        (str(MAX_LONG), Comparison("eq", MAX_LONG)),
    ],
)
def test_number_ranges(text, comparison):
    assert parse_number_range(text) == comparison


@pytest.mark.parametrize(
    "text",
    ["invalid", "-1", "eq:-1", "gte:-1", "lt:invalid", "eq:abc", ".1", "9223372036854775808", "a:1", "eq:1:2",
     ":1", ":", "eq:", "unknown:1", " 1", "1.0"],
)
def test_number_ranges_that_do_not_convert(text):
    with pytest.raises(ValueError):
        parse_number_range(text)


@pytest.mark.parametrize(
    ("text", "node_type"),
    [
        ("BLOCK_NODE", RegisteredNodeType.BLOCK_NODE),
        ("bLoCk_NoDe", RegisteredNodeType.BLOCK_NODE),
        ("general_service", RegisteredNodeType.GENERAL_SERVICE),
        ("Mirror-Node", RegisteredNodeType.MIRROR_NODE),
        (" rpcrelay ", RegisteredNodeType.RPC_RELAY),
        ("unknown", RegisteredNodeType.UNKNOWN),
    ],
)
def test_registered_node_types_bind_leniently(text, node_type):
    assert parse_registered_node_type(text) is node_type


@pytest.mark.parametrize("text", ["invalid", "BLOCK", "1", "___"])
def test_registered_node_types_that_do_not_bind(text):
    with pytest.raises(ValueError):
        parse_registered_node_type(text)


def registered_nodes_criteria(query_string: str):
    return read(RegisteredNodeFilterSet, query_string).criteria()


def test_registered_node_defaults():
    criteria = registered_nodes_criteria("")

    assert criteria["registerednode.id"] == (Comparison("gte", 0), Comparison("lte", MAX_LONG))
    assert criteria.columns == {"registerednode.id": ("registered_node_id", True)}
    assert (criteria.order, criteria.limit, criteria.option("type")) == ("asc", 25, None)
    assert criteria.paged_params == ("registerednode.id",)


@pytest.mark.parametrize(
    ("query_string", "bounds"),
    [
        ("registerednode.id=7", (7, 7)),
        ("registerednode.id=eq:7", (7, 7)),
        ("registerednode.id=gt:3&registerednode.id=lt:9", (4, 8)),
        ("registerednode.id=gte:3&registerednode.id=lte:9", (3, 9)),
        ("registerednode.id=lt:9&registerednode.id=lt:5", (0, 4)),
        ("registerednode.id=gt:4&registerednode.id=gt:2", (5, MAX_LONG)),
        ("registerednode.id=lte:4&registerednode.id=lt:4", (0, 3)),
        ("registerednode.id=ne:4", (0, MAX_LONG)),
        ("registerednode.id=gt:4&registerednode.id=", (5, MAX_LONG)),
        # A first value that is blank leaves the parameter out, whatever follows.
        ("registerednode.id=&registerednode.id=abc&registerednode.id=1&registerednode.id=2", (0, MAX_LONG)),
        ("registerednode.id=%20&registerednode.id=3", (0, MAX_LONG)),
        # As a Java long, one past the largest long wraps around and bounds nothing.
        (f"registerednode.id=gt:{MAX_LONG}", (0, MAX_LONG)),
    ],
)
def test_registered_node_id_comparisons_resolve_to_one_range(query_string, bounds):
    lower, upper = registered_nodes_criteria(query_string)["registerednode.id"]

    assert (lower.value, upper.value) == bounds


def test_registered_node_options():
    criteria = registered_nodes_criteria("type=mirror_node&order=DESC&limit=%2B100&unknown=1&Limit=x")

    assert (criteria.option("type"), criteria.order, criteria.limit) == (RegisteredNodeType.MIRROR_NODE, "desc", 100)
    assert read(RegisteredNodeFilterSet, "limit=0x10").criteria().limit == 16
    assert read(RegisteredNodeFilterSet, "limit=&order=").criteria().limit == 25


@pytest.mark.parametrize(
    ("query_string", "names"),
    [
        ("limit=0", ["limit"]),
        ("limit=101", ["limit"]),
        ("limit=-1", ["limit"]),
        ("limit=ten", ["limit"]),
        ("limit=2147483648", ["limit"]),
        ("order=up", ["order"]),
        ("order=a-s-c", ["order"]),
        ("type=invalid", ["type"]),
        ("registerednode.id=x", ["registerednode.id"]),
        ("registerednode.id=1&registerednode.id=2&registerednode.id=3", ["registerednode.id"]),
        ("registerednode.id=gt:1&registerednode.id=&registerednode.id=lt:9", ["registerednode.id"]),
        # Values that do not convert first, in the request object's order; then those out of bounds.
        ("type=x&order=x&registerednode.id=x&limit=x", ["limit", "order", "registerednode.id", "type"]),
        ("limit=0&type=x", ["type", "limit"]),
        ("registerednode.id=1&registerednode.id=2&registerednode.id=3&limit=101", ["limit", "registerednode.id"]),
        ("registerednode.id=x&registerednode.id=2&registerednode.id=3&limit=101", ["registerednode.id", "limit"]),
    ],
)
def test_registered_nodes_refuse_values_that_do_not_bind(query_string, names):
    with pytest.raises(InvalidArgument) as error:
        read(RegisteredNodeFilterSet, query_string).validate()

    assert error.value.messages == [f"Invalid parameter: {name}" for name in names]


@pytest.mark.parametrize(
    ("query_string", "detail"),
    [
        ("limit=1&limit=2", "Only a single instance is supported for limit"),
        ("order=x&type=x&type=y", "Only a single instance is supported for type"),
        ("registerednode.id=eq:1&registerednode.id=2", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=1&registerednode.id=lt:3", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=gte:1&registerednode.id=eq:2", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=1&registerednode.id=", "The 'eq' operator cannot be combined with other operators"),
        ("registerednode.id=gt:10&registerednode.id=lt:5", "Invalid range: lower bound exceeds upper bound"),
        ("registerednode.id=gt:10&registerednode.id=lt:10", "Invalid range: lower bound exceeds upper bound"),
        ("registerednode.id=lt:0", "Invalid range: lower bound exceeds upper bound"),
    ],
)
def test_registered_nodes_refuse_as_the_service_does(query_string, detail):
    with pytest.raises(DetailedError) as error:
        read(RegisteredNodeFilterSet, query_string).validate()

    assert error.value.messages == [{"message": "Bad Request", "detail": detail}]
