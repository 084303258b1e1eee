import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from apps.status.models import (
    Component,
    ComponentStatus,
    LiveCheck,
    Maintenance,
    Page,
    new_id,
)

pytestmark = pytest.mark.django_db


def test_ids_are_statuspage_like():
    ids = {new_id() for _ in range(100)}

    assert len(ids) == 100
    assert all(re.fullmatch(r"[a-z0-9]{12}", each) for each in ids)


def test_there_is_one_page(page):
    second = Page(name="Other", url="https://status.example.com")

    with pytest.raises(ValidationError, match="one status page"):
        second.full_clean()
    with pytest.raises(IntegrityError):
        second.save()


def test_the_time_zone_is_an_iana_name(no_page):
    with pytest.raises(ValidationError) as refusal:
        Page(name="Hedera", url="https://status.hedera.com", time_zone="Mars/Olympus").full_clean()

    assert list(refusal.value.message_dict) == ["time_zone"]
    Page(name="Hedera", url="https://status.hedera.com", time_zone="America/Tijuana").full_clean()


def refusal_fields(component: Component) -> list[str]:
    with pytest.raises(ValidationError) as refusal:
        component.full_clean()
    return sorted(refusal.value.message_dict)


def test_groups_do_not_nest(make_component):
    mainnet = make_component("Mainnet", is_group=True)

    assert refusal_fields(Component(name="Nested", is_group=True, group=mainnet)) == ["group"]


def test_a_component_sits_in_a_group_only(make_component):
    uptime = make_component("Mainnet uptime")

    assert refusal_fields(Component(name="Under a leaf", group=uptime)) == ["group"]


def test_a_group_follows_no_live_check(db):
    assert refusal_fields(Component(name="Mainnet", is_group=True, live_check=LiveCheck.DATABASE)) == [
        "live_check"
    ]


def test_a_group_holding_components_stays_a_group(make_component):
    mainnet = make_component("Mainnet", is_group=True)
    make_component("Mainnet uptime", group=mainnet)
    mainnet.is_group = False

    assert refusal_fields(mainnet) == ["is_group"]


@pytest.mark.parametrize("status", ComponentStatus.values)
def test_a_live_component_is_set_by_hand_to_operational_or_maintenance_only(db, status):
    component = Component(name="Mirror Node REST API", live_check=LiveCheck.MIRROR_FRESHNESS, status=status)

    if status in ("operational", "under_maintenance"):
        component.full_clean()
    else:
        assert refusal_fields(component) == ["status"]


def test_positions_start_at_1(db):
    assert refusal_fields(Component(name="Zeroth", position=0)) == ["position"]


def test_a_maintenance_ends_after_it_starts(now):
    maintenance = Maintenance(name="Backwards", status="scheduled", scheduled_for=now, scheduled_until=now)

    assert "scheduled_until" in refusal_fields(maintenance)
