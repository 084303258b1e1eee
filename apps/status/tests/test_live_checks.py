from datetime import timedelta

import pytest
from django.db import connection

from apps.status.live_checks import (
    LiveState,
    MirrorReading,
    effective_state,
    live_state,
    read_mirror,
)
from apps.status.models import Component, ComponentStatus, LiveCheck

pytestmark = pytest.mark.django_db


def reading(now, *, block_age: timedelta | None = None, reachable: bool = True) -> MirrorReading:
    newest = None if block_age is None else now - block_age
    return MirrorReading(taken_at=now, database_reachable=reachable, newest_block_at=newest)


def test_read_mirror_takes_the_newest_block(now, make_block):
    make_block(now - timedelta(seconds=90))
    make_block(now - timedelta(seconds=4))

    assert read_mirror() == reading(now, block_age=timedelta(seconds=4))


def test_read_mirror_without_blocks(now):
    assert read_mirror() == reading(now)


def test_read_mirror_when_the_database_cannot_be_read(now, no_page, make_block):
    make_block(now)
    with connection.cursor() as cursor:
        # Rolled back with the test's transaction.
        cursor.execute("alter table record_file rename to record_file_elsewhere")

    assert read_mirror() == reading(now, reachable=False)
    assert Component.objects.count() == 0, "the failed read must leave the transaction usable"


@pytest.mark.parametrize(
    ("age", "status", "since_age"),
    [
        (timedelta(seconds=0), ComponentStatus.OPERATIONAL, timedelta(seconds=0)),
        (
            timedelta(seconds=59, microseconds=999999),
            ComponentStatus.OPERATIONAL,
            timedelta(seconds=59, microseconds=999999),
        ),
        (timedelta(seconds=60), ComponentStatus.DEGRADED_PERFORMANCE, timedelta(0)),
        (timedelta(seconds=299), ComponentStatus.DEGRADED_PERFORMANCE, timedelta(seconds=239)),
        (timedelta(seconds=300), ComponentStatus.MAJOR_OUTAGE, timedelta(0)),
        (timedelta(hours=2), ComponentStatus.MAJOR_OUTAGE, timedelta(hours=2) - timedelta(seconds=300)),
    ],
)
def test_freshness_turns_degraded_then_down_as_the_newest_block_ages(now, age, status, since_age):
    assert live_state(LiveCheck.MIRROR_FRESHNESS, reading(now, block_age=age)) == LiveState(
        status, now - since_age
    )


def test_freshness_thresholds_are_settings(now, settings):
    settings.STATUS_FRESHNESS_DEGRADED_AFTER = 10
    settings.STATUS_FRESHNESS_OUTAGE_AFTER = 30

    assert live_state(LiveCheck.MIRROR_FRESHNESS, reading(now, block_age=timedelta(seconds=12))).status == (
        ComponentStatus.DEGRADED_PERFORMANCE
    )
    assert live_state(LiveCheck.MIRROR_FRESHNESS, reading(now, block_age=timedelta(seconds=30))).status == (
        ComponentStatus.MAJOR_OUTAGE
    )


def test_a_block_from_the_future_counts_as_fresh_now(now):
    assert live_state(LiveCheck.MIRROR_FRESHNESS, reading(now, block_age=-timedelta(seconds=5))) == LiveState(
        ComponentStatus.OPERATIONAL, now
    )


def test_freshness_without_any_block_is_an_outage(now):
    assert live_state(LiveCheck.MIRROR_FRESHNESS, reading(now)) == LiveState(
        ComponentStatus.MAJOR_OUTAGE, now
    )


@pytest.mark.parametrize("check", [LiveCheck.MIRROR_FRESHNESS, LiveCheck.DATABASE])
def test_an_unreachable_database_is_an_outage(now, check):
    assert live_state(check, reading(now, reachable=False)) == LiveState(ComponentStatus.MAJOR_OUTAGE, now)


def test_a_reachable_database_is_operational_however_old_the_blocks(now):
    state = live_state(LiveCheck.DATABASE, reading(now, block_age=timedelta(days=1)))

    assert state == LiveState(ComponentStatus.OPERATIONAL, now)


def test_a_hand_set_component_shows_its_own_status(now, make_component):
    component = make_component("Hedera Mainnet | Network Uptime", status=ComponentStatus.PARTIAL_OUTAGE)

    assert effective_state(component, None) == (ComponentStatus.PARTIAL_OUTAGE, now)


def test_a_live_component_shows_its_check(now, make_component):
    component = make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)

    status, updated_at = effective_state(
        component, reading(now + timedelta(minutes=2), block_age=timedelta(seconds=61))
    )

    assert (status, updated_at) == (
        ComponentStatus.DEGRADED_PERFORMANCE,
        now + timedelta(minutes=2, seconds=-1),
    )


def test_a_live_component_keeps_its_later_edit_time(now, make_component):
    component = make_component("Mirror Node REST API Public Mainnet", live_check=LiveCheck.MIRROR_FRESHNESS)

    assert effective_state(component, reading(now, block_age=timedelta(minutes=1, seconds=30))) == (
        ComponentStatus.DEGRADED_PERFORMANCE,
        now,
    )


def test_maintenance_set_by_hand_mutes_the_live_check(now, make_component):
    component = make_component(
        "Mirror Node REST API Public Mainnet",
        live_check=LiveCheck.MIRROR_FRESHNESS,
        status=ComponentStatus.UNDER_MAINTENANCE,
    )

    assert effective_state(component, reading(now, reachable=False)) == (
        ComponentStatus.UNDER_MAINTENANCE,
        now,
    )
