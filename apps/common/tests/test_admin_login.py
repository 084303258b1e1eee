"""Admin login throttling: failures lock out the address, and the username from any address."""

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)


def attempt(client, username: str, password: str, address: str = "192.0.2.1"):
    return client.post(
        LOGIN, {"username": username, "password": password, "next": "/admin/"}, REMOTE_ADDR=address
    )


def fail(client, times: int, *, username: str = "root", address: str = "192.0.2.1") -> list[int]:
    return [attempt(client, username, "wrong", address).status_code for _ in range(times)]


def test_right_password_logs_in(client, superuser):
    response = attempt(client, "root", PASSWORD)

    assert (response.status_code, response["Location"]) == (302, "/admin/")


def test_right_password_works_after_fewer_failures_than_the_limit(client, superuser):
    fail(client, settings.AXES_FAILURE_LIMIT - 1)

    assert attempt(client, "root", PASSWORD).status_code == 302


def test_right_password_is_refused_after_the_limit(client, superuser):
    statuses = fail(client, settings.AXES_FAILURE_LIMIT)

    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    response = attempt(client, "root", PASSWORD)

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302


def test_username_is_locked_from_every_address(client, superuser):
    for number in range(settings.AXES_FAILURE_LIMIT):
        fail(client, 1, address=f"198.51.100.{number + 1}")

    assert attempt(client, "root", PASSWORD, address="203.0.113.9").status_code == 429


def test_address_is_locked_for_every_username(client, superuser):
    for number in range(settings.AXES_FAILURE_LIMIT):
        fail(client, 1, username=f"guess{number}")

    assert attempt(client, "root", PASSWORD).status_code == 429


def test_other_users_and_addresses_are_unaffected(client, django_user_model, superuser):
    django_user_model.objects.create_superuser("other", "other@example.com", PASSWORD)
    fail(client, settings.AXES_FAILURE_LIMIT)

    assert attempt(client, "other", PASSWORD, address="203.0.113.9").status_code == 302


def test_lockout_expires_after_the_cooloff(client, superuser, settings):
    fail(client, settings.AXES_FAILURE_LIMIT)
    settings.AXES_COOLOFF_TIME = 0  # hours; as if the cool-off had passed

    assert attempt(client, "root", PASSWORD).status_code == 302
