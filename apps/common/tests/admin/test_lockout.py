"""The page of a login locked after too many failures."""

from datetime import timedelta

import pytest

from apps.common.tests.admin_pages import LOGIN

pytestmark = pytest.mark.django_db

ADDRESS = "192.0.2.7"


def lock_out(client, settings, username: str = "root"):
    """The answer to the attempt that crosses the failure limit."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(LOGIN, {"username": username, "password": "wrong"}, REMOTE_ADDR=ADDRESS)
    return client.post(LOGIN, {"username": username, "password": "wrong"}, REMOTE_ADDR=ADDRESS)


def test_the_lockout_page_says_how_long_the_lock_lasts_and_how_to_clear_it(client, settings):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=40)

    response = lock_out(client, settings)

    assert response.status_code == 429
    content = " ".join(response.content.decode().split())
    assert "The lock lasts <strong>40 minutes</strong> from the last failed attempt" in content
    assert f"After {settings.AXES_FAILURE_LIMIT} failed attempts" in content
    assert "<code>python manage.py axes_reset_username root</code>" in content
    assert f"<code>python manage.py axes_reset_ip {ADDRESS}</code>" in content
    assert "<code>python manage.py axes_reset</code>" in content


def test_the_lockout_page_reads_the_configured_cool_off(client, settings):
    settings.AXES_COOLOFF_TIME = timedelta(hours=2)

    assert "<strong>2 hours</strong>" in " ".join(lock_out(client, settings).content.decode().split())


def test_a_lock_without_a_cool_off_lasts_until_it_is_cleared(client, settings):
    settings.AXES_COOLOFF_TIME = None

    content = lock_out(client, settings).content.decode()

    assert "The lock lasts until an operator clears it." in content
    assert "axes_reset_username root" in content
