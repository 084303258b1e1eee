"""Settings of a deployment (DATABASE_URL), each read in a fresh process as a deployment reads them."""

import os
import subprocess
import sys

from apps.common.tests.production_server import PROJECT_DIR

DATABASE_URL = "postgres://mirror@127.0.0.1:1/mirror"
PRODUCTION_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "MIRROR_SECRET_KEY": "k7#Qz!v2Lr9@wX4pT8&nB1$yF6^hJ3*dS0(mG5)cV-aE=uR_oI+",
    "MIRROR_ALLOWED_HOSTS": "mirror.example.com",
    "MIRROR_SECURE_SSL_REDIRECT": "true",
    "MIRROR_SECURE_PROXY_SSL_HEADER": "true",
    "MIRROR_SECURE_HSTS_SECONDS": "31536000",
    "MIRROR_SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "MIRROR_SECURE_HSTS_PRELOAD": "true",
    "MIRROR_SECURE_COOKIES": "true",
}

DEPLOYMENT = {"DATABASE_URL": DATABASE_URL, "MIRROR_SECRET_KEY": "secret", "MIRROR_ALLOWED_HOSTS": "localhost"}
PRINT_TIMEOUTS = (
    "from django.conf import settings; options = settings.DATABASES['default']['OPTIONS']; "
    "print(options['connect_timeout'], options.get('options'), settings.DATABASE_ROUND_TRIP_TIMEOUT)"
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    own = ("MIRROR_", "DATABASE_URL", "HIERO_MIRROR_", "HEDERA_MIRROR_")
    clean = {name: value for name, value in os.environ.items() if not name.startswith(own)}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)

    assert result.returncode == 0, result.stderr
    # The two silenced checks look for CSRF and frame-options middleware by name: see
    # test_site_middleware_stands_in_for_the_silenced_checks.
    assert "System check identified no issues (2 silenced)." in result.stdout
    assert result.stderr == ""


def test_site_middleware_stands_in_for_the_silenced_checks():
    from django.conf import settings
    from django.middleware.clickjacking import XFrameOptionsMiddleware
    from django.middleware.csrf import CsrfViewMiddleware
    from django.utils.module_loading import import_string

    assert settings.SILENCED_SYSTEM_CHECKS == ["security.W002", "security.W003"]
    installed = [import_string(path) for path in settings.MIDDLEWARE]
    assert any(issubclass(cls, CsrfViewMiddleware) for cls in installed)
    assert any(issubclass(cls, XFrameOptionsMiddleware) for cls in installed)


def test_deployment_without_secret_key_refuses_to_start():
    env = {name: value for name, value in PRODUCTION_ENV.items() if name != "MIRROR_SECRET_KEY"}

    result = manage("check", **env)

    assert result.returncode != 0
    assert "ImproperlyConfigured: MIRROR_SECRET_KEY is not set" in result.stderr


def test_deployment_allowing_any_host_is_warned_about():
    env = {name: value for name, value in PRODUCTION_ENV.items() if name != "MIRROR_ALLOWED_HOSTS"}

    result = manage("check", **env)

    assert result.returncode == 0, result.stderr
    assert "MIRROR_ALLOWED_HOSTS allows any Host header" in result.stderr


def test_demo_needs_no_secret_key_and_allows_any_host():
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.ALLOWED_HOSTS, bool(settings.SECRET_KEY))",
    )

    assert result.stdout == "['*'] True\n", result.stderr
    assert result.stderr == ""


def test_database_timeouts_default_to_3_s_to_connect_20_s_a_statement_23_s_a_round_trip():
    result = manage("shell", "--no-imports", "-c", PRINT_TIMEOUTS, **DEPLOYMENT)

    assert result.stdout == "3 -c statement_timeout=20000 23.0\n", result.stderr


def test_database_timeouts_come_from_the_environment():
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        PRINT_TIMEOUTS,
        **{**DEPLOYMENT, "DATABASE_URL": DATABASE_URL + "?options=-c%20work_mem%3D8MB"},
        HIERO_MIRROR_REST_DB_POOL_CONNECTIONTIMEOUT="7000",
        HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT="1500",
    )

    assert result.stdout == "7 -c work_mem=8MB -c statement_timeout=1500 8.5\n", result.stderr


def test_statement_timeout_zero_is_none():
    result = manage(
        "shell", "--no-imports", "-c", PRINT_TIMEOUTS, **DEPLOYMENT, HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT="0"
    )

    assert result.stdout == "3 None None\n", result.stderr


PRINT_LIST_CACHE = "from django.core.cache import caches; print(type(caches['lists']).__name__, caches['lists'].max_bytes)"


def test_the_list_cache_keeps_64_mib_a_process_unless_the_environment_says_otherwise():
    default = manage("shell", "--no-imports", "-c", PRINT_LIST_CACHE, **DEPLOYMENT)
    configured = manage(
        "shell", "--no-imports", "-c", PRINT_LIST_CACHE, **DEPLOYMENT, MIRROR_LIST_CACHE_MAX_BYTES="1048576"
    )

    assert default.stdout == f"ByteBoundedCache {64 * 2**20}\n", default.stderr
    assert configured.stdout == "ByteBoundedCache 1048576\n", configured.stderr
