from types import SimpleNamespace

import pytest

from apps.common.ledger.codecs import format_timestamp, parse_timestamp
from apps.common.query.pagination import Anchor, link_header, next_link, page_link
from apps.common.query.strict import StrictParams

PATH = "/api/v1/blocks"
NUMBER = Anchor("block.number", "index")
LAST_ROW = {"index": 18, "consensus_end": 1_500_000_000, "serial_number": 7}


def link(params: dict, order: str, anchors=(NUMBER,), row=LAST_ROW) -> str | None:
    return next_link(PATH, params, order, anchors, row)


def test_ascending_appends_gt_anchor():
    assert link({"limit": ["2"], "order": ["asc"]}, "asc") == "/api/v1/blocks?limit=2&order=asc&block.number=gt:18"


def test_descending_appends_lt_anchor():
    assert link({"limit": ["2"]}, "desc") == "/api/v1/blocks?limit=2&block.number=lt:18"


def test_no_params_gives_only_the_anchor():
    assert link({}, "desc") == "/api/v1/blocks?block.number=lt:18"


def test_trailing_slash_of_path_is_dropped():
    assert next_link(PATH + "/", {}, "asc", (NUMBER,), LAST_ROW) == "/api/v1/blocks?block.number=gt:18"


@pytest.mark.parametrize(
    ("values", "order", "expected"),
    [
        (["gt:1", "lt:100"], "asc", "block.number=lt:100&block.number=gt:18"),
        (["gte:1", "lt:100"], "asc", "block.number=lt:100&block.number=gt:18"),
        (["lt:100", "gt:1"], "desc", "block.number=gt:1&block.number=lt:18"),
        (["gt:1", "lte:100"], "desc", "block.number=gt:1&block.number=lt:18"),
        (["gt:1", "gte:2", "lt:100"], "asc", "block.number=lt:100&block.number=gt:18"),
    ],
)
def test_same_direction_bound_is_replaced_and_opposite_bound_kept(values, order, expected):
    assert link({"block.number": values, "limit": ["2"]}, order) == f"/api/v1/blocks?{expected}&limit=2"


@pytest.mark.parametrize(
    ("values", "order", "expected"),
    [
        (["lt:100"], "asc", "block.number=lt:100&block.number=gt:18"),
        (["gt:1"], "desc", "block.number=gt:1&block.number=lt:18"),
        (["gte:1"], "desc", "block.number=gte:1&block.number=lt:18"),
    ],
)
def test_opposite_bound_alone_is_kept_and_gains_the_anchor(values, order, expected):
    assert link({"block.number": values, "limit": ["2"]}, order) == f"/api/v1/blocks?{expected}&limit=2"


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_equality_only_parameter_is_kept_without_anchor(order):
    assert link({"block.number": ["18"], "limit": ["1"]}, order) == "/api/v1/blocks?block.number=18&limit=1"


def test_only_a_leading_range_value_gains_the_anchor():
    # The upstream tests its `^[gl]te?:` pattern against the values joined by commas,
    # so only the first value decides.
    leading_equality = {"block.number": ["eq:18", "lt:100"], "limit": ["1"]}
    leading_range = {"block.number": ["lt:100", "eq:18"], "limit": ["1"]}

    assert link(leading_equality, "asc") == "/api/v1/blocks?block.number=eq:18&block.number=lt:100&limit=1"
    assert (
        link(leading_range, "asc")
        == "/api/v1/blocks?block.number=lt:100&block.number=eq:18&block.number=gt:18&limit=1"
    )


@pytest.mark.parametrize(
    ("value", "order"), [("gt:1", "asc"), ("gte:1", "asc"), ("lt:100", "desc"), ("lte:100", "desc")]
)
def test_single_same_direction_value_is_replaced_and_moved_last(value, order):
    operator = "gt" if order == "asc" else "lt"

    assert (
        link({"block.number": [value], "limit": ["2"], "order": [order]}, order)
        == f"/api/v1/blocks?limit=2&order={order}&block.number={operator}:18"
    )


@pytest.mark.parametrize(
    ("values", "order"),
    [
        (["lt:19"], "asc"),
        (["lte:18"], "asc"),
        (["gt:17"], "desc"),
        (["gte:18"], "desc"),
        (["gt:1", "lt:19"], "asc"),
    ],
)
def test_empty_next_range_gives_no_link(values, order):
    assert link({"block.number": values}, order) is None


@pytest.mark.parametrize(
    ("values", "order", "expected"),
    [
        (["lt:20"], "asc", "block.number=lt:20&block.number=gt:18"),
        (["lte:19"], "asc", "block.number=lte:19&block.number=gt:18"),
        (["gt:16"], "desc", "block.number=gt:16&block.number=lt:18"),
        (["gte:17"], "desc", "block.number=gte:17&block.number=lt:18"),
    ],
)
def test_range_with_one_value_left_still_gives_link(values, order, expected):
    assert link({"block.number": values}, order) == f"/api/v1/blocks?{expected}"


def test_inclusive_anchor_uses_gte_and_lte():
    timestamp = Anchor("timestamp", "consensus_end", format=format_timestamp, parse=parse_timestamp, inclusive=True)
    anchors = (timestamp, Anchor("block.number", "index"))

    assert link({"limit": ["1"]}, "asc", anchors) == (
        "/api/v1/blocks?limit=1&timestamp=gte:1.500000000&block.number=gt:18"
    )
    assert link({"limit": ["1"]}, "desc", anchors) == (
        "/api/v1/blocks?limit=1&timestamp=lte:1.500000000&block.number=lt:18"
    )


def test_inclusive_anchor_at_the_edge_of_the_range_still_gives_link():
    timestamp = Anchor("timestamp", "consensus_end", format=format_timestamp, parse=parse_timestamp, inclusive=True)

    assert link({"timestamp": ["lte:1.5"]}, "asc", (timestamp,)) == (
        "/api/v1/blocks?timestamp=lte:1.5&timestamp=gte:1.500000000"
    )


def test_anchor_formats_the_value_of_its_column():
    anchor = Anchor(
        "serialnumber", "serial_number", format=lambda value: f"0x{value:02x}", parse=lambda text: int(text, 16)
    )

    assert link({}, "asc", (anchor,)) == "/api/v1/blocks?serialnumber=gt:0x07"


def test_values_are_not_url_encoded_and_keep_their_order():
    params = {"account.id": ["0.0.1", "gte:0.0.2"], "memo": ["a b&c"]}

    assert link(params, "asc") == "/api/v1/blocks?account.id=0.0.1&account.id=gte:0.0.2&memo=a b&c&block.number=gt:18"


def test_input_params_are_left_unchanged():
    params = {"block.number": ["gt:1"], "limit": ["2"]}

    link(params, "asc")

    assert params == {"block.number": ["gt:1"], "limit": ["2"]}


def test_the_link_header_percent_encodes_what_a_header_cannot_carry():
    assert link_header("/api/v1/tokens?name=a b\né&limit=1") == '</api/v1/tokens?name=a%20b%0A%C3%A9&limit=1>; rel="next"'
    assert link_header("/api/v1/blocks?limit=1&timestamp=lt:1.000000002") == (
        '</api/v1/blocks?limit=1&timestamp=lt:1.000000002>; rel="next"'
    )



#
# The strict dialect's links (`strict_next_link`), chosen by criteria that name their paged parameters
#

STRICT_PATH = "/api/v1/accounts/1/allowances/nfts"
ACCOUNT = Anchor("account.id", "account")
TOKEN = Anchor("token.id", "token")
STRICT_ROW = {"account": "0.0.7", "token": "0.0.9"}


def strict_link(query_string: str, order: str = "asc", *, count: int = 2, anchors=(ACCOUNT, TOKEN), row=STRICT_ROW):
    criteria = SimpleNamespace(
        query=StrictParams(query_string),
        order=order,
        limit=2,
        anchors=anchors,
        paged_params=("account.id", "token.id", "serialnumber"),
    )
    return page_link(STRICT_PATH, criteria, [row] * count)


def test_strict_bounds_of_a_paged_parameter_that_is_no_anchor_are_dropped():
    assert strict_link("serialnumber=gt:0&serialnumber=lt:9&limit=2") == (
        f"{STRICT_PATH}?serialnumber=lt:9&limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )


def test_strict_no_link_for_a_short_page():
    assert strict_link("limit=2", count=1) is None


def test_strict_link_replaces_same_direction_bounds_and_appends_new_keys():
    assert strict_link("account.id=gte:1&account.id=lte:9&limit=2") == (
        f"{STRICT_PATH}?account.id=lte:9&account.id=gte:0.0.7&limit=2&token.id=gt:0.0.9"
    )
    assert strict_link("account.id=gte:1&limit=2", "desc") == (
        f"{STRICT_PATH}?account.id=gte:1&account.id=lte:0.0.7&limit=2&token.id=lt:0.0.9"
    )


def test_strict_a_comma_list_value_counts_as_its_first_operator():
    # As the Java service binds one value into a list: `gt:1,lt:9` bounds upwards first.
    assert strict_link("account.id=gt:1,lt:9&limit=2") == f"{STRICT_PATH}?limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
    assert strict_link("account.id=lt:9,gt:1&limit=2") == (
        f"{STRICT_PATH}?account.id=lt:9,gt:1&account.id=gte:0.0.7&limit=2&token.id=gt:0.0.9"
    )


def test_strict_pinned_keys_get_no_bound_and_make_the_previous_exclusive():
    assert strict_link("token.id=5&limit=2") == f"{STRICT_PATH}?token.id=5&limit=2&account.id=gt:0.0.7"
    assert strict_link("account.id=eq:7&limit=2") == f"{STRICT_PATH}?account.id=eq:7&limit=2&token.id=gt:0.0.9"


def test_strict_no_link_past_the_end_of_a_plain_number_range():
    serial = (Anchor("serialnumber", "serial"),)

    assert strict_link("serialnumber=lt:6&limit=2", anchors=serial, row={"serial": 5}) is None
    assert strict_link("serialnumber=lt:7&limit=2", anchors=serial, row={"serial": 5}) == (
        f"{STRICT_PATH}?serialnumber=lt:7&serialnumber=gt:5&limit=2"
    )


def test_strict_entity_id_bounds_do_not_count_for_the_empty_range_check():
    assert strict_link("account.id=lte:5&limit=2", row={"account": "0.0.6", "token": "0.0.1"}) == (
        f"{STRICT_PATH}?account.id=lte:5&account.id=gte:0.0.6&limit=2&token.id=gt:0.0.1"
    )


def test_strict_a_value_that_is_no_range_bound_pins_its_parameter():
    assert strict_link("token.id=ne:3&limit=2") == f"{STRICT_PATH}?token.id=ne:3&limit=2&account.id=gt:0.0.7"


def test_strict_link_values_are_url_encoded():
    assert strict_link("key=a b&limit=2") == (
        f"{STRICT_PATH}?key=a%20b&limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )


def test_strict_link_repeats_only_the_java_linked_parameters_and_no_control_characters():
    assert strict_link("note=x&Limit=3&limit=2&timestamp=gt:1%0A&owner=true") == (
        f"{STRICT_PATH}?limit=2&owner=true&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )


def test_strict_link_keeps_the_order_the_query_was_sent_in():
    assert strict_link("account.id=gt:1&limit=2&account.id=lt:9") == (
        f"{STRICT_PATH}?limit=2&account.id=lt:9&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )


def test_strict_anchor_whose_last_value_formats_to_none_gives_no_bound():
    serial = Anchor("serialnumber", "serial", format=lambda serial: str(serial) if serial else None)

    assert strict_link("serialnumber=gt:1&limit=2", anchors=(ACCOUNT, TOKEN, serial), row={**STRICT_ROW, "serial": 0}) == (
        f"{STRICT_PATH}?limit=2&account.id=gte:0.0.7&token.id=gt:0.0.9"
    )
