from contextlib import ExitStack

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import client as test_client

from apps.common.interrupts import sigterm_as_interrupt
from apps.devtools.conformance import MirrorClientHandler
from apps.status import snapshots

pytest_plugins = [
    "apps.common.tests.production_server",
    "apps.common.tests.redis_server",
    "apps.common.tests.replicas",
]


def pytest_configure(config):
    """A SIGTERM ends the run as Ctrl-C does: the fixtures are torn down, so the servers and
    clusters the tests started are stopped and their files deleted (pytest's own answer to
    SIGTERM is to die at once)."""
    interruptible = ExitStack()
    interruptible.enter_context(sigterm_as_interrupt())
    config.add_cleanup(interruptible.close)


# The skip reasons of the tests that need the material beside the project (`../shared`): the
# conformance cases and the upstream's reference document.
SHARED_MATERIAL_SKIPS = ("no conformance cases at", "no reference OpenAPI document at")


def pytest_terminal_summary(terminalreporter):
    """A run without the shared material says so loudly at its end: its conformance checks did not run."""
    reasons = [
        reason
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple)
        and (reason := report.longrepr[2].removeprefix("Skipped: ")).startswith(SHARED_MATERIAL_SKIPS)
    ]
    if not reasons:
        return
    terminalreporter.write_sep("!", "CONFORMANCE NOT CHECKED", red=True, bold=True)
    terminalreporter.write_line(
        f"{len(reasons)} tests were skipped: the upstream's conformance cases or reference document are absent.",
        red=True, bold=True,
    )
    for reason in sorted(set(reasons)):
        terminalreporter.write_line(f"  {reason}", red=True)
    terminalreporter.write_line(
        "Place them in ../shared (or set MIRROR_CONFORMANCE_CASES) to check the answers against the upstream's.",
        red=True, bold=True,
    )


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
