import pytest

from apps.status import snapshots

pytest_plugins = ["apps.common.tests.production_server"]


@pytest.fixture(autouse=True)
def status_snapshot_per_request(settings):
    """Each test starts as a new process would, and reads the status page on every
    request unless it tests the snapshot's age."""
    settings.STATUS_SNAPSHOT_MAX_AGE = 0
    snapshots.forget()
    yield
    snapshots.forget()
