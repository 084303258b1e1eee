import itertools

import pytest

from apps.common.query.comparisons import Comparison
from apps.common.query.keyset import (
    JAVA_LENIENT_RULES,
    JAVA_RULES,
    NODE_RULES,
    Bound,
    Keyset,
    KeysetError,
    keyset_page,
)
from apps.tokens.models import Nft
from apps.tokens.tests.account_factories import create_nft


def bound(param: str, *texts: str, rules=NODE_RULES, column: str | None = None) -> Bound:
    comparisons = [Comparison(*text.split(":")) if ":" in text else Comparison("eq", text) for text in texts]
    comparisons = [Comparison(c.operator, int(c.value)) for c in comparisons]
    return Bound.of(param, column or param, comparisons, rules)


def checked(param: str, *texts: str, rules=NODE_RULES) -> Keyset:
    return Keyset((bound(param, *texts, rules=rules),), rules)


def test_bound_normalizes_exclusive_bounds():
    assert (bound("a", "gt:5", "lt:9").lowest, bound("a", "gt:5", "lt:9").highest) == (6, 8)
    assert (bound("a", "gte:5", "lte:9").lowest, bound("a", "gte:5", "lte:9").highest) == (5, 9)
    assert (bound("a", "7").lowest, bound("a", "7").highest) == (7, 7)
    assert bound("a").is_empty and not bound("a", "ne:1", rules=JAVA_LENIENT_RULES).is_empty


@pytest.mark.parametrize(
    "texts, rules, message",
    [
        (("1", "2"), NODE_RULES, "Only one equal (eq) operator is allowed for a"),
        (("gt:1", "gte:2"), NODE_RULES, "Only one gt/gte operator is allowed for a"),
        (("lt:1", "lte:2"), NODE_RULES, "Only one lt/lte operator is allowed for a"),
        (("ne:1",), NODE_RULES, "Not equal (ne) operator is not supported for a"),
        (("1", "lt:2"), NODE_RULES, "Can't support both range and equal for a"),
        (("1", "2"), JAVA_RULES, "Only one range operator from [EQ] is allowed for the given parameter for a"),
        (("gt:1", "gt:2"), JAVA_RULES, "Only one range operator from [GT, GTE] is allowed for the given parameter for a"),
        (("lt:1", "lt:2"), JAVA_RULES, "Only one range operator from [LT, LTE] is allowed for the given parameter for a"),
        (("ne:1",), JAVA_RULES, "Unsupported range operator ne for a"),
        (("gt:4", "lt:5"), JAVA_RULES, "Invalid range provided for a"),
        (("gte:5", "lte:4"), JAVA_LENIENT_RULES, "Invalid range provided for a"),
    ],
)
def test_bound_rules(texts, rules, message):
    with pytest.raises(KeysetError) as error:
        checked("a", *texts, rules=rules)

    assert str(error.value) == message


def test_node_rules_accept_an_empty_range():
    assert checked("a", "gt:4", "lt:5").bounds[0].lowest == 5


def test_later_columns_of_lenient_rules_accept_an_empty_range():
    keyset = Keyset((bound("p", "1", rules=JAVA_LENIENT_RULES), bound("s", "gte:5", "lte:4")), JAVA_LENIENT_RULES)

    assert keyset.bounds[1].lowest == 5


def test_lenient_rules_keep_the_last_value_and_pass_ne():
    lenient = bound("a", "gt:1", "gt:3", "ne:7", rules=JAVA_LENIENT_RULES.for_later_columns)

    assert (lenient.lowest, lenient.excluded) == (4, (7,))


@pytest.mark.parametrize(
    "primary, secondary, rules, message",
    [
        ((), ("1",), NODE_RULES, "s without a p parameter filter"),
        (("gt:1",), ("gt:1",), NODE_RULES, "p must have gte or eq operator"),
        (("lte:9",), ("gte:1",), NODE_RULES, "p must have gte or eq operator"),
        (("lt:9",), ("lt:1",), NODE_RULES, "p must have lte or eq operator"),
        ((), ("1",), JAVA_RULES, "s parameter must have p present"),
        (("gt:1",), ("gt:1",), JAVA_RULES, "Requires the presence of an gte or eq p parameter"),
        (("gte:1",), ("lt:1",), JAVA_RULES, "Requires the presence of an lte or eq p parameter"),
    ],
)
def test_keyset_dependencies(primary, secondary, rules, message):
    with pytest.raises(KeysetError) as error:
        Keyset((bound("p", *primary, rules=rules), bound("s", *secondary, rules=rules)), rules)

    assert str(error.value) == message


def test_pinned_primary_allows_any_secondary():
    keyset = Keyset((bound("p", "5"), bound("s", "gt:1", "lt:9")))

    assert len(keyset.parts()) == 1
    assert not keyset.is_exact
    assert Keyset((bound("p", "5"), bound("s", "2"))).is_exact


def test_anchors_are_inclusive_except_last_and_before_a_pinned_column():
    free = Keyset((bound("p", "gte:1"), bound("s")))
    pinned = Keyset((bound("p", "gte:1"), bound("s", "3")))

    assert [(a.param, a.inclusive) for a in free.anchors((str, str))] == [("p", True), ("s", False)]
    assert [(a.param, a.inclusive) for a in pinned.anchors((str, str))] == [("p", False), ("s", False)]


TOKENS = (10, 20, 30)
SERIALS = (1, 2, 3)


@pytest.fixture
def grid(db):
    for token, serial in itertools.product(TOKENS, SERIALS):
        create_nft(token, serial)


def page(keyset: Keyset, *, order: str = "asc", limit: int = 100) -> list[tuple[int, int]]:
    prefix = "-" if order == "desc" else ""
    ordered = Nft.objects.order_by(prefix + "token_id", prefix + "serial_number").values_list(
        "token_id", "serial_number"
    )
    return list(keyset_page(ordered, keyset, limit))


def lexicographic(lower: tuple | None, upper: tuple | None) -> list[tuple[int, int]]:
    def within(row):
        return (lower is None or row[: len(lower)] >= lower) and (upper is None or row[: len(upper)] <= upper)

    return [row for row in itertools.product(TOKENS, SERIALS) if within(row)]


@pytest.mark.parametrize("rules", [NODE_RULES, JAVA_RULES])
@pytest.mark.parametrize(
    "token, serial, lower, upper",
    [
        (("gte:10",), ("gt:2",), (10, 3), None),
        (("gte:20",), ("gte:2",), (20, 2), None),
        (("lte:20",), ("lt:2",), None, (20, 1)),
        (("gte:10", "lte:30"), ("gt:1", "lt:3"), (10, 2), (30, 2)),
        (("gte:10", "lte:30"), ("gte:3",), (10, 3), (30,)),
        (("gte:20", "lte:30"), ("gte:3", "lte:3"), (20, 3), (30, 3)),
        (("gt:10", "lt:30"), (), (11,), (29,)),
        (("20",), ("gte:2",), (20, 2), (20,)),
        ((), (), None, None),
    ],
)
def test_ranges_are_lexicographic(grid, rules, token, serial, lower, upper):
    keyset = Keyset((bound("token.id", *token, column="token_id"), bound("sn", *serial, column="serial_number")), rules)

    assert page(keyset) == lexicographic(lower, upper)
    assert page(keyset, order="desc") == lexicographic(lower, upper)[::-1]


def test_pages_of_a_split_range_are_limited_and_ordered(grid):
    keyset = Keyset(
        (bound("token.id", "gte:10", "lte:30", column="token_id"), bound("sn", "gt:1", "lt:3", column="serial_number"))
    )

    assert len(keyset.parts()) == 3
    assert page(keyset, limit=3) == [(10, 2), (10, 3), (20, 1)]
    assert page(keyset, order="desc", limit=2) == [(30, 2), (30, 1)]


def test_degenerate_split_follows_the_upstream_services(grid):
    """Both edges on the same token: Node unions the edges (with duplicates), Java reads it as `eq`."""
    for rules, expected in (
        (NODE_RULES, [(20, 1), (20, 2), (20, 2), (20, 3)]),
        (JAVA_RULES, [(20, 2)]),
    ):
        keyset = Keyset(
            (
                bound("token.id", "gte:20", "lte:20", rules=rules, column="token_id"),
                bound("sn", "gte:2", "lte:2", rules=rules, column="serial_number"),
            ),
            rules,
        )
        assert sorted(page(keyset)) == expected


def test_an_exclusive_primary_bound_is_not_narrowed_by_later_columns(grid):
    """Java, no dependency checks: `gt:10` reads as token > 10 whatever the serial bound."""
    keyset = Keyset(
        (
            bound("token.id", "gt:10", "lt:30", rules=JAVA_LENIENT_RULES, column="token_id"),
            bound("sn", "gte:3", "lte:1", rules=JAVA_LENIENT_RULES.for_later_columns, column="serial_number"),
        ),
        JAVA_LENIENT_RULES,
    )

    assert page(keyset) == [(20, 1), (20, 2), (20, 3)]


def test_java_checks_a_later_range_only_under_an_open_primary():
    closed = (bound("p", "gte:1", "lte:9", rules=JAVA_RULES), bound("s", "gte:5", "lte:4", rules=JAVA_RULES))
    open_ = (bound("p", "gte:1", rules=JAVA_RULES), bound("s", "gte:5", "lte:4", rules=JAVA_RULES))

    Keyset(closed, JAVA_RULES)
    with pytest.raises(KeysetError) as error:
        Keyset(open_, JAVA_RULES)
    assert str(error.value) == "Invalid range provided for s"


def test_java_open_primary_bounds_are_zero_and_the_int64_maximum():
    with pytest.raises(KeysetError) as error:
        checked("p", "lt:0", rules=JAVA_RULES)

    assert str(error.value) == "Invalid range provided for p"


def test_java_reports_the_upper_dependency_first():
    with pytest.raises(KeysetError) as error:
        Keyset((bound("p", "gt:1", rules=JAVA_RULES), bound("s", "gt:1", "lt:5", rules=JAVA_RULES)), JAVA_RULES)

    assert str(error.value) == "Requires the presence of an lte or eq p parameter"
