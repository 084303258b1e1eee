"""Settings of the Ledger Query Service.

Everything a deployment changes comes from the environment:
- DATABASE_URL: any PostgreSQL, e.g. a mirror node database built by the
  upstream importer; without it an embedded PostgreSQL starts by itself.
- MIRROR_SECRET_KEY, MIRROR_DEBUG, MIRROR_ALLOWED_HOSTS.
- MIRROR_REDIS_URL: Redis for the list-route cache, shared by every process
  (default: local memory per process).
- MIRROR_LIST_CACHE_TTL: `results_key=seconds,...` overriding the time-to-live
  of a route's list-route cache (0 = off); see apps/common/list_cache.py.
"""

import os
from pathlib import Path

import dj_database_url

from mirror.embedded_postgres import embedded_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get("MIRROR_SECRET_KEY", "insecure-development-key-change-me")
DEBUG = os.environ.get("MIRROR_DEBUG", "false").lower() == "true"
ALLOWED_HOSTS = os.environ.get("MIRROR_ALLOWED_HOSTS", "*").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "apps.common",
    "apps.accounts",
    "apps.blocks",
    "apps.contracts",
    "apps.network",
    "apps.schedules",
    "apps.status",
    "apps.tokens",
    "apps.topics",
    "apps.transactions",
]

# The Site* middleware are Django's, skipped on API requests (see apps.common.middleware.site_only).
MIDDLEWARE = [
    "apps.common.middleware.MirrorApiMiddleware",
    "apps.common.middleware.SiteSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "apps.common.middleware.SiteCsrfViewMiddleware",
    "apps.common.middleware.SiteAuthenticationMiddleware",
    "apps.common.middleware.SiteMessageMiddleware",
    "apps.common.middleware.SiteXFrameOptionsMiddleware",
]

ROOT_URLCONF = "mirror.urls"
WSGI_APPLICATION = "mirror.wsgi.application"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# No health check: it is one more round trip (`SELECT 1`) at the start of every
# request. A connection that died is closed after the one request it fails (503).
# Server-side binding lets psycopg prepare a statement run 5 times on a connection:
# the hot queries are then neither parsed nor planned again.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or embedded_database_url(),
        conn_max_age=600,
        conn_health_checks=False,
    )
}
DATABASES["default"]["OPTIONS"] = {
    **DATABASES["default"].get("OPTIONS", {}),
    "server_side_binding": True,
    "prepare_threshold": 5,
}
DATABASES["default"]["TEST"] = {"NAME": os.environ.get("MIRROR_TEST_DATABASE", "test_mirror")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # The list-route cache (apps/common/list_cache.py).
    "lists": (
        {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": os.environ["MIRROR_REDIS_URL"]}
        if os.environ.get("MIRROR_REDIS_URL")
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "mirror-lists",
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    ),
}

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["apps.common.api.renderers.MirrorJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "apps.common.api.exceptions.mirror_exception_handler",
}

# The upstream's `hiero.mirror.rest` settings that change what the API answers.
MIRROR = {
    "LIMIT_DEFAULT": 25,
    "LIMIT_MAX": 100,
    "MAX_REPEATED_QUERY_PARAMETERS": 100,
    "TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS": 50,
    "TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT": 1000,
    "MAX_TRANSACTIONS_TIMESTAMP_RANGE_NS": 60 * 24 * 3600 * 10**9,
    "DELEGATION_ADDRESS": True,
    # Basic-auth users with their own page-size maximum: [{"username", "password", "limit"}].
    "USERS": [],
    "SHARD": 0,
    "REALM": 0,
    # results_key -> seconds the list-route cache keeps that route's answers (0: off).
    "LIST_CACHE_TTL": {
        name: int(seconds)
        for name, _, seconds in (
            item.partition("=") for item in os.environ.get("MIRROR_LIST_CACHE_TTL", "").split(",") if item
        )
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}
