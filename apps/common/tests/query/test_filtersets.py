import importlib
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import override_settings

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.errors import InvalidArgument, MirrorApiError
from apps.common.ledger.codecs import parse_positive_long
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import OperatorFilter
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pages import narrow
from apps.common.query.strict import StrictDialect


class RecordFileFilterSet(ListFilterSet):
    size = OperatorFilter(field_name="size", parser=parse_positive_long)
    block_number = OperatorFilter(param="block.number", field_name="index", parser=parse_positive_long)

    ordering_fields = ("consensus_end",)


def filterset(params: dict, **kwargs) -> RecordFileFilterSet:
    return RecordFileFilterSet(params, **kwargs)


def messages_of(params: dict) -> list[str]:
    with pytest.raises(InvalidArgument) as error:
        filterset(params).validate()
    return error.value.messages


def test_validate_accepts_known_parameters():
    assert filterset({"size": ["gt:1", "lt:5"], "limit": ["2"], "order": ["desc"]}).validate() is None


def test_validate_accepts_no_parameters():
    assert filterset({}).validate() is None


def test_unknown_parameter():
    assert messages_of({"foo": ["1"]}) == ["Unknown query parameter: foo"]


def test_unknown_parameters_in_query_order():
    assert messages_of({"zeta": ["1"], "alpha": ["1", "2"]}) == [
        "Unknown query parameter: zeta",
        "Unknown query parameter: alpha",
    ]


def test_parameter_is_known_by_its_public_name_only():
    assert messages_of({"block_number": ["1"]}) == ["Unknown query parameter: block_number"]


def test_invalid_parameter_once_per_bad_value_in_query_order():
    params = {"limit": ["x", "2", "y"], "order": ["up"], "size": ["1", "gt:z"], "block.number": ["-1"]}

    assert messages_of(params) == [
        "Invalid parameter: limit",
        "Invalid parameter: limit",
        "Invalid parameter: order",
        "Invalid parameter: size",
        "Invalid parameter: block.number",
    ]


def test_blank_value_is_invalid():
    assert messages_of({"size": [""]}) == ["Invalid parameter: size"]


def test_messages_come_as_invalid_values_then_unknown_names():
    params = {"foo": ["1"], "limit": ["x"], "bar": ["1"], "order": ["sideways"], "size": ["1", "2", "3"]}

    assert messages_of(params) == [
        "Invalid parameter: limit",
        "Invalid parameter: order",
        "Unknown query parameter: foo",
        "Unknown query parameter: bar",
    ]


def test_criteria_validates_first():
    with pytest.raises(InvalidArgument):
        filterset({"foo": ["1"]}).criteria()


def test_criteria_hold_each_comparison_parameter_and_the_columns_the_page_machinery_compares():
    criteria = filterset({"block.number": ["gt:5", "lt:9"], "limit": ["3"], "order": ["desc"]}).criteria(scope=(7,))

    assert criteria["block.number"] == (Comparison("gt", 5), Comparison("lt", 9))
    assert criteria["size"] == ()
    assert criteria.columns == {"size": ("size", True), "block.number": ("index", True)}
    assert (criteria.limit, criteria.order, criteria.order_by, criteria.scope) == (3, "desc", ("consensus_end",), (7,))
    assert criteria.query == {"block.number": ["gt:5", "lt:9"], "limit": ["3"], "order": ["desc"]}


def test_limit_defaults_to_configured_default():
    candidate = filterset({})
    candidate.validate()

    assert candidate.limit_value == settings.MIRROR["LIMIT_DEFAULT"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["1"], 1),
        (["100"], 100),
        (["101"], 100),
        (["9223372036854775807"], 100),
        (["5", "3"], 3),
        (["3", "500"], 100),
    ],
)
def test_limit_is_last_value_capped_at_maximum(values, expected):
    candidate = filterset({"limit": values})
    candidate.validate()

    assert candidate.limit_value == expected


@pytest.mark.parametrize("value", ["0", "-1", "", "1.5", "abc", "9223372036854775808", "zz:5", "eq:0", "a:b:5"])
def test_limit_rejects(value):
    assert messages_of({"limit": [value]}) == ["Invalid parameter: limit"]


def test_limit_default_and_maximum_follow_settings():
    with override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 7, "LIMIT_MAX": 9}):
        default, capped = filterset({}), filterset({"limit": ["50"]})
        default.validate()
        capped.validate()

        assert (default.limit_value, capped.limit_value) == (7, 9)


def test_authenticated_user_maximum_replaces_configured_maximum():
    request = SimpleNamespace(mirror_limit_max=250)
    capped, allowed = filterset({"limit": ["1000"]}, request=request), filterset({"limit": ["200"]}, request=request)
    capped.validate()
    allowed.validate()

    assert (capped.limit_value, allowed.limit_value) == (250, 200)


def test_request_without_user_maximum_uses_configured_maximum():
    candidate = filterset({"limit": ["1000"]}, request=SimpleNamespace(mirror_limit_max=None))
    candidate.validate()

    assert candidate.limit_value == settings.MIRROR["LIMIT_MAX"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], "asc"),
        (["desc"], "desc"),
        (["DESC"], "desc"),
        (["Asc"], "asc"),
        (["asc", "desc"], "desc"),
        (["ne:desc"], "desc"),
        (["eq:DESC"], "desc"),
    ],
)
def test_order_value(values, expected):
    candidate = filterset({"order": values} if values else {})
    candidate.validate()

    assert candidate.order_value == expected


@pytest.mark.parametrize("operator", ["eq", "ne", "gt", "gte", "lt", "lte"])
def test_an_operator_before_limit_and_order_is_validated_and_dropped(operator):
    # As upstream, which splits the operator off before validating the value.
    candidate = filterset({"limit": [f"{operator}:7"], "order": [f"{operator}:desc"]})
    candidate.validate()

    assert (candidate.limit_value, candidate.order_value) == (7, "desc")
    assert messages_of({"order": ["zz:desc"]}) == ["Invalid parameter: order"]


class BareOrderFilterSet(RecordFileFilterSet):
    bare_order_only = True
    default_order = "desc"


@pytest.mark.parametrize(
    ("values", "expected"), [(["asc"], "asc"), (["asc", "asc"], "desc"), (["eq:asc"], "desc"), (["ASC"], "asc")]
)
def test_bare_order_only_takes_the_default_for_a_repeated_or_prefixed_order(values, expected):
    candidate = BareOrderFilterSet({"order": values})
    candidate.validate()

    assert candidate.order_value == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("order", "expected"), [("asc", [10, 20, 30]), ("desc", [30, 20, 10])])
def test_queryset_is_ordered_by_ordering_fields_in_requested_direction(order, expected):
    create_record_files(record_file(2, 20), record_file(1, 30), record_file(3, 10))

    rows = narrow(RecordFile.objects.all(), filterset({"order": [order]}).criteria())

    assert [row.consensus_end for row in rows] == expected


def test_query_filter_set_rejects_every_parameter():
    with pytest.raises(InvalidArgument) as error:
        QueryFilterSet({"limit": ["1"], "order": ["asc"]}).validate()

    assert error.value.messages == ["Unknown query parameter: limit", "Unknown query parameter: order"]


class CountingFilterSet(RecordFileFilterSet):
    def validate(self) -> None:
        super().validate()
        self.checks = getattr(self, "checks", 0) + 1
        if self.params["size"] == ["13"]:
            raise InvalidArgument("unlucky size")


def test_a_query_that_passed_validation_is_not_checked_again():
    counted = CountingFilterSet({"size": ["2"]})

    counted.validate()
    counted.validate()

    assert counted.checks == 1


def test_a_query_that_failed_validation_fails_every_time():
    counted = CountingFilterSet({"size": ["13"]})

    for _ in range(2):
        with pytest.raises(InvalidArgument):
            counted.validate()

    assert counted.checks == 2


def every_filterset() -> list[type[QueryFilterSet]]:
    # A route's FilterSets are imported by its views, which the URLconf imports.
    importlib.import_module(settings.ROOT_URLCONF)
    found, pending = [], [QueryFilterSet]
    while pending:
        found.extend(subclasses := pending.pop().__subclasses__())
        pending.extend(subclasses)
    # A class deriving from two FilterSets is found once through each.
    return [cls for cls in dict.fromkeys(found) if cls.__module__.startswith("apps.") and ".tests." not in cls.__module__]


@pytest.mark.parametrize(
    ("filterset_class", "param"),
    [(cls, param) for cls in every_filterset() for param in cls.base_filters],
    ids=lambda value: value if isinstance(value, str) else value.__qualname__,
)
def test_a_nul_character_in_any_parameter_of_any_route_is_that_parameter_invalid(filterset_class, param):
    with pytest.raises(MirrorApiError) as error:
        filterset_class({param: ["abc\x00"]}).validate()

    # A route of the strict dialect words it as it words any value that does not convert.
    dialect = filterset_class.dialect
    invalid = dialect.conversion_error(param) if isinstance(dialect, StrictDialect) else InvalidArgument.for_params(param)
    assert error.value.messages == invalid.messages
