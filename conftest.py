import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import client as test_client

from apps.devtools.conformance import MirrorClientHandler
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


@pytest.fixture(autouse=True, scope="session")
def server_request_path_in_test_clients():
    """Every test client serves a request as the server does: `/api/` requests take the API
    middleware chain (apps/common/server/handlers.py)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(test_client, "ClientHandler", MirrorClientHandler)
        yield


@pytest.fixture
def connection_kept_open():
    """For a test calling the WSGI application itself, as Django's test client does: closing
    the connection after a request would end the test's transaction and its rows. Restores
    the receivers it took off, and only those (apps/common/apps.py takes some off for good)."""
    taken = [signal for signal in (request_started, request_finished) if signal.disconnect(close_old_connections)]
    yield
    for signal in taken:
        signal.connect(close_old_connections)
