import tempfile
from datetime import UTC, datetime

import pytest

from apps.blocks.models import RecordFile
from apps.common.clock import frozen_at
from apps.status.models import Component, Page
from apps.status.timestamps import nanos_from_datetime

NOW = datetime(2025, 3, 4, 15, 21, 7, 512000, tzinfo=UTC)
# The eight routes of the status API.
STATUS_ROUTES = [
    "/api/v2/summary.json",
    "/api/v2/status.json",
    "/api/v2/components.json",
    "/api/v2/incidents.json",
    "/api/v2/incidents/unresolved.json",
    "/api/v2/scheduled-maintenances.json",
    "/api/v2/scheduled-maintenances/upcoming.json",
    "/api/v2/scheduled-maintenances/active.json",
]


@pytest.fixture(scope="session")
def status_cache_dir():
    with tempfile.TemporaryDirectory(prefix="mirror-status-cache-") as directory:
        yield directory


@pytest.fixture(autouse=True)
def status_cache_of_this_run(settings, status_cache_dir):
    """The status cache in a directory of this run's: any other test run clears the default
    one before each of its tests, which these tests would see as edits."""
    settings.CACHES = {
        **settings.CACHES,
        "status": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": status_cache_dir,
        },
    }


@pytest.fixture
def no_page(db):
    """No page: the one `migrate` created is removed, for tests that author their own."""
    Component.objects.all().delete()
    Page.objects.all().delete()


@pytest.fixture
def now():
    """The service clock, frozen."""
    with frozen_at(nanos_from_datetime(NOW)):
        yield NOW


@pytest.fixture
def page(no_page, now):
    return Page.objects.create(id="mhrzb3d64wsj", name="Hedera", url="https://status.hedera.com")


@pytest.fixture
def make_component(no_page, now):
    def make(name: str, **fields) -> Component:
        return Component.objects.create(name=name, **fields)

    return make


@pytest.fixture
def make_block(db):
    def make(at: datetime) -> RecordFile:
        consensus_end = nanos_from_datetime(at)
        return RecordFile.objects.create(
            name=f"{at:%Y-%m-%dT%H_%M_%S.%fZ}.rcd.gz",
            load_start=0,
            load_end=0,
            hash="a" * 96,
            prev_hash="b" * 96,
            consensus_start=consensus_end - 1_000_000_000,
            consensus_end=consensus_end,
            count=1,
            digest_algorithm=0,
            version=6,
            file_hash="c" * 96,
            index=RecordFile.objects.count(),
            sidecar_count=0,
        )

    return make
