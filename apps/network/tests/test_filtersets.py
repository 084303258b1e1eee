"""The network routes' FilterSets, read in the strict dialect, without HTTP."""

import pytest

from apps.common.errors import DetailedError, InvalidArgument
from apps.common.query.comparisons import Comparison
from apps.network.filtersets import (
    FeeEstimateFilterSet,
    FeesFilterSet,
    NodeFilterSet,
    SupplyFilterSet,
    TimestampBound,
    TimestampFilterSet,
)

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
