import pytest

from apps.common.codecs import format_timestamp, parse_timestamp
from apps.common.pagination import Anchor, link_header, next_link

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

