"""Every admin detail page fits a 1280 px wide window.

Headless Chromium (Debian's, which `scripts/ensure-chromium` installs) renders the detail page
of a row of each of the project's models the admin registers, over the demo ledger, and nothing may be wider than
its box: neither the page (a horizontal scroll bar) nor any element that clips or scrolls
sideways (a long hex value cut off). Without Chromium the test fails: it is never skipped.
"""

import shutil
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.admin.utils import quote
from django.test import RequestFactory
from django.urls import reverse
from playwright.sync_api import sync_playwright

from apps.common.database.fixtures import empty_mirror_tables, load_fixture_files
from apps.common.tests.admin_pages import LOGIN, PASSWORD, USERNAME
from apps.network.models import RegisteredNodeType
from apps.network.tests.factories import create_registered_node
from apps.status.models import IncidentStatus
from apps.status.services import incident_open, maintenance_schedule

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_LEDGER = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"
WINDOW = {"width": 1280, "height": 900}
# No network beyond the test's own server, no first-run or background work.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Elements wider than their box that clip or scroll their content sideways; the page itself
# first. Screen-reader text is clipped on purpose.
OVERFLOWING = """() => {
    const root = document.documentElement;
    const found = root.scrollWidth > root.clientWidth ? [`the page (${root.scrollWidth} > ${root.clientWidth})`] : [];
    for (const element of document.querySelectorAll("body *")) {
        if (element.closest(".visually-hidden")) continue;
        if (getComputedStyle(element).overflowX === "visible") continue;
        if (element.scrollWidth > element.clientWidth + 1) {
            const name = [element.tagName.toLowerCase(), ...element.classList].join(".");
            found.push(`${name} (${element.scrollWidth} > ${element.clientWidth})`);
        }
    }
    return found;
}"""
# The project's models: the mirror's and the status page's, not Django's users or django-axes' logs.
MODELS = sorted(
    (model for model in admin.site._registry if model.__module__.startswith("apps.")),
    key=lambda model: model._meta.label_lower,
)


class Chromium:
    """Headless Chromium, driven from a thread of its own: Playwright's synchronous API runs an
    event loop in the thread that calls it, and Django refuses database work in such a thread."""

    def __init__(self, executable: str):
        self._thread = ThreadPoolExecutor(max_workers=1)
        self._playwright = self._run(lambda: sync_playwright().start())
        self._browser = self._run(lambda: self._playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS))

    def _run(self, work):
        return self._thread.submit(work).result()

    def overflowing(self, server_url: str, path: str, screenshot: Path) -> list[str]:
        """What is wider than its box on the page at `path`, seen by a superuser logged in
        through the login form; the page's screenshot goes to `screenshot`."""

        def render():
            context = self._browser.new_context(viewport=WINDOW)
            try:
                window = context.new_page()
                window.goto(server_url + LOGIN)
                window.fill("#id_username", USERNAME)
                window.fill("#id_password", PASSWORD)
                window.click("input[type=submit]")
                window.wait_for_url(f"{server_url}/admin/")
                answer = window.goto(server_url + path)
                assert answer.ok, f"{path} answered {answer.status}"
                window.screenshot(path=screenshot, full_page=True)
                return window.evaluate(OVERFLOWING)
            finally:
                context.close()

        return self._run(render)

    def close(self):
        self._run(self._browser.close)
        self._run(self._playwright.stop)
        self._thread.shutdown()


@pytest.fixture(scope="module")
def chromium():
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: run scripts/ensure-chromium (Debian's chromium package)")
    browser = Chromium(executable)
    yield browser
    browser.close()


@pytest.fixture
def every_model_has_a_row(django_user_model):
    """The demo ledger, a registered node (the demo has none), and an incident and a maintenance on
    the status page `migrate` (and each flush) creates; the admin's superuser."""
    empty_mirror_tables()
    load_fixture_files([DEMO_LEDGER])
    create_registered_node(
        1, RegisteredNodeType.BLOCK_NODE, RegisteredNodeType.MIRROR_NODE, description="demo block and mirror node"
    )
    incident_open(name="Slow answers", status=IncidentStatus.INVESTIGATING, body="Lists answer slowly.")
    start = datetime.now(UTC) + timedelta(days=1)
    maintenance_schedule(name="Upgrade", body="The database upgrades.", scheduled_for=start,
                         scheduled_until=start + timedelta(hours=1))
    django_user_model.objects.create_superuser(USERNAME, f"{USERNAME}@example.com", PASSWORD)
    yield
    empty_mirror_tables()


def detail_url(model) -> str:
    model_admin = admin.site.get_model_admin(model)
    row = model_admin.get_queryset(RequestFactory().get("/")).order_by("pk").first()
    assert row is not None, f"no {model._meta.label} row to show"
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[quote(row.pk)])


@pytest.mark.parametrize("model", MODELS, ids=[model._meta.label_lower for model in MODELS])
def test_a_detail_page_fits_the_window(chromium, live_server, every_model_has_a_row, model, tmp_path):
    url = detail_url(model)
    screenshot = tmp_path / f"{model._meta.label_lower}.png"

    overflowing = chromium.overflowing(live_server.url, url, screenshot)

    assert overflowing == [], f"{url} is wider than {WINDOW['width']} px (see {screenshot}): {overflowing}"


def test_an_nft_page_fits_the_window(chromium, live_server, every_model_has_a_row, tmp_path):
    url = reverse("admin:tokens_token_nft", args=[1008, 1])
    screenshot = tmp_path / "nft.png"

    overflowing = chromium.overflowing(live_server.url, url, screenshot)

    assert overflowing == [], f"{url} is wider than {WINDOW['width']} px (see {screenshot}): {overflowing}"
