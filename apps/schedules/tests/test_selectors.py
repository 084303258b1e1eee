import pytest

from apps.schedules import selectors
from apps.schedules.tests.factories import SECOND, create_schedule, create_signature

pytestmark = pytest.mark.django_db

T = 1_700_000_000 * SECOND


def test_page_gets_entities_and_signatures_in_two_reads(django_assert_num_queries):
    create_schedule(2000, T, entity={"memo": "first"})
    create_schedule(2001, T + 1)
    create_signature(2000, T + 2, b"\x02")
    create_signature(2000, T + 1, b"\x01")
    create_signature(2001, T + 3, b"\x03")
    page = list(selectors.schedule_queryset().order_by("schedule_id"))

    with django_assert_num_queries(2):
        schedules = selectors.with_entities_and_signatures(page)

    assert [schedule["memo"] for schedule in schedules] == ["first", None]
    assert [schedule["deleted"] for schedule in schedules] == [False, None]
    assert [[bytes(s["public_key_prefix"]) for s in schedule["signatures"]] for schedule in schedules] == [
        [b"\x01", b"\x02"],
        [b"\x03"],
    ]


def test_schedule_get():
    create_schedule(2000, T, entity={})

    assert selectors.schedule_get(schedule_id=2000)["schedule_id"] == 2000
    assert selectors.schedule_get(schedule_id=2001) is None


@pytest.mark.parametrize("entity", [{"memo": "first", "deleted": True}, None])
def test_schedule_get_is_the_page_reading_in_one_read(django_assert_num_queries, entity):
    create_schedule(2000, T, entity=entity)
    create_signature(2000, T + 2, b"\x02")
    create_signature(2000, T + 1, b"\x01")
    create_signature(2001, T + 3, b"\x03")
    (page,) = selectors.with_entities_and_signatures(list(selectors.schedule_queryset().filter(schedule_id=2000)))

    with django_assert_num_queries(1):
        schedule = selectors.schedule_get(schedule_id=2000)

    signatures = schedule.pop("signatures")
    assert schedule == {name: value for name, value in page.items() if name != "signatures"}
    assert [(s["consensus_timestamp"], bytes(s["public_key_prefix"]), bytes(s["signature"]), s["type"]) for s in signatures] == [
        (s["consensus_timestamp"], bytes(s["public_key_prefix"]), bytes(s["signature"]), s["type"]) for s in page["signatures"]
    ]


def test_schedule_get_without_signatures():
    create_schedule(2000, T, entity={})

    assert selectors.schedule_get(schedule_id=2000)["signatures"] == []


def schedule_row(**overrides) -> dict:
    row = {"executed_timestamp": None, "deleted": False, "expiration_time": None, "consensus_timestamp": T}
    return {**row, **overrides}


@pytest.mark.parametrize(
    ("row", "now", "final"),
    [
        (schedule_row(), T, False),
        (schedule_row(executed_timestamp=T + 1), T, True),
        (schedule_row(deleted=True), T, True),
        (schedule_row(deleted=None), T, False),
        (schedule_row(), T + selectors.IMPLICIT_EXPIRY_NS, True),
        (schedule_row(expiration_time=T + 10), T + 10 + selectors.EXPIRY_GRACE_NS - 1, False),
        (schedule_row(expiration_time=T + 10), T + 10 + selectors.EXPIRY_GRACE_NS, True),
    ],
)
def test_is_final(row, now, final):
    assert selectors.is_final(row, now=now) is final
