"""Validating the query of the contract routes, without HTTP."""

import pytest

from apps.common.errors import InvalidArgument
from apps.common.query.comparisons import Comparison
from apps.contracts.filtersets import (
    AllContractLogFilterSet,
    ContractLogFilterSet,
    parse_log_index,
    parse_topic,
)
from apps.contracts.selectors.logs import KeyBound


def criteria(query: dict[str, list[str]], filterset_class=ContractLogFilterSet):
    return filterset_class(query).criteria()


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("0x0a", b"\x0a"),
        ("000a", b"\x0a"),
        ("a", b"\x0a"),
        ("0x00", b""),
        ("ABC", b"\x0a\xbc"),
        ("f" * 64, b"\xff" * 32),
    ],
)
def test_a_topic_is_read_as_stored_without_leading_zeros(text, stored):
    assert parse_topic(text) == stored


@pytest.mark.parametrize("text", ["", "0x", "0xqq", "f" * 65, "0x0x1"])
def test_a_bad_topic_is_rejected(text):
    with pytest.raises(ValueError):
        parse_topic(text)


def test_a_key_bound_takes_one_condition_of_each_kind():
    bound = KeyBound("index")
    assert bound.is_empty and not bound.has_range
    bound.add(Comparison("gte", 1))
    bound.add(Comparison("lt", 5))
    assert (bound.lower.value, bound.upper.value, bound.has_range) == (1, 5, True)
    with pytest.raises(InvalidArgument) as raised:
        bound.add(Comparison("gt", 2))
    assert raised.value.messages == ["Only one gt/gte operator is allowed for index"]


def test_a_gte_lte_pair_on_one_timestamp_becomes_an_equality():
    found = criteria({"timestamp": ["gte:1.5", "lte:1.500000000"]})
    assert found.timestamp.equal == Comparison("eq", 1_500_000_000)
    assert not found.timestamp.has_range


def test_other_timestamp_pairs_stay_ranges():
    found = criteria({"timestamp": ["gte:1", "lte:2"]})
    assert (found.timestamp.lower.value, found.timestamp.upper.value) == (1_000_000_000, 2_000_000_000)


def test_criteria_carry_topics_order_and_limit():
    found = criteria({"timestamp": ["5"], "topic0": ["0a", "0x000a", "0b"], "order": ["asc"], "limit": ["3"]})
    assert found.topics == {"topic0": [b"\x0a", b"\x0b"]}
    assert (found.order, found.limit) == ("asc", 3)


def test_the_default_order_is_descending():
    assert criteria({}).order == "desc"


def test_transaction_hash_belongs_to_the_all_contracts_route():
    filterset = AllContractLogFilterSet({"transaction.hash": ["0x" + "ab" * 48]})
    filterset.validate()
    assert filterset.transaction_hash_value() == bytes.fromhex("ab" * 48)
    with pytest.raises(InvalidArgument) as raised:
        ContractLogFilterSet({"transaction.hash": ["0x" + "ab" * 48]}).validate()
    assert raised.value.messages == ["Unknown query parameter: transaction.hash"]


@pytest.mark.parametrize(("text", "expected"), [("0", 0), ("7", 7), ("1e3", 1000.0), ("1.5", 1.5), ("0x10", 16.0)])
def test_a_log_index_is_read_as_the_upstream_validates_it(text, expected):
    assert parse_log_index(text) == expected


@pytest.mark.parametrize("text", ["-1", "abc", "", "1e", "\u0661"])
def test_a_log_index_that_is_no_number_is_invalid(text):
    with pytest.raises(ValueError):
        parse_log_index(text)


@pytest.mark.parametrize("index", ["1e3", "1.5", str(2**31), "9" * 20])
def test_an_index_that_is_no_int_is_refused_after_the_keyset_rules(index):
    # The bound rules first (no timestamp), as the upstream; then the value itself.
    with pytest.raises(InvalidArgument) as first:
        criteria({"index": [index]})
    assert first.value.messages == ["timestamp must have eq operator"]
    with pytest.raises(InvalidArgument) as then:
        criteria({"index": [index], "timestamp": ["1700000000.000000001"]})
    assert then.value.messages == ["Invalid parameter: index"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"index": ["0", "3"], "timestamp": ["lte:1700000000", "ne:1600000000"]}, "Only one equal (eq) operator is allowed for index"),
        ({"timestamp": ["lte:1700000000", "ne:1600000000"], "index": ["0", "3"]}, "Not equal (ne) operator is not supported for timestamp"),
    ],
)
def test_the_keyset_operators_are_checked_in_the_order_the_query_names_them(query, message):
    with pytest.raises(InvalidArgument) as error:
        criteria(query)
    assert error.value.messages == [message]
