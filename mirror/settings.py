"""Settings of the Ledger Query Service.

Everything a deployment changes comes from the environment. The upstream mirror node's
properties that this service honours are read under the upstream's names
(HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX, HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT, ...): the
table of them, with our defaults, is apps/common/configuration.py. The others:
- DATABASE_URL: any PostgreSQL, e.g. a mirror node database built by the
  upstream importer; without it an embedded PostgreSQL starts by itself.
- MIRROR_SECRET_KEY (required with DATABASE_URL; the demo has a fixed one),
  MIRROR_DEBUG, MIRROR_ALLOWED_HOSTS (comma-separated; default any host, logged
  as a warning with DATABASE_URL).
- The upstream's db.pool.connectionTimeout (default 3 s) and db.pool.statementTimeout
  (default 20 s, 0 = none): past either a request answers 503, as it does when the
  database answers nothing for their sum.
- MIRROR_DB_PROBE_AFTER (seconds, default 0.05), MIRROR_DB_PROBE_TIMEOUT (0.25) and
  MIRROR_DB_PROBE_RETRY (0.2): under the server, a round trip unanswered for PROBE_AFTER
  has the process probe the database; a probe unanswered for PROBE_TIMEOUT makes it
  unresponsive, and requests needing it answer 503 at once until a probe, retried every
  PROBE_RETRY, is answered (apps/common/database/watch.py).
- MIRROR_REQUEST_BODY_TIMEOUT (seconds, default 5): a request body not received whole
  within it is answered 408, and the worker thread waiting on it is freed
  (apps/common/server/request_body.py).
- MIRROR_THREADS (default 1) and MIRROR_SIDE_THREADS (default 1; 0: none, every wait on a
  read's thread): a server worker's threads for reads, and for requests waiting on their
  body or a contract executor (apps/common/server/lanes.py, scripts/run-server).
- HTTPS deployments: MIRROR_SECURE_SSL_REDIRECT, MIRROR_SECURE_PROXY_SSL_HEADER
  (trust the proxy's X-Forwarded-Proto), MIRROR_SECURE_HSTS_SECONDS,
  MIRROR_SECURE_HSTS_INCLUDE_SUBDOMAINS, MIRROR_SECURE_HSTS_PRELOAD,
  MIRROR_SECURE_COOKIES (booleans are "true"/"false").
- MIRROR_REDIS_URL: Redis for the list-route cache, shared by every process
  (default: local memory per process). Redis bounds it: give it a `maxmemory` and an
  LRU `maxmemory-policy` (every entry has a time-to-live, so `volatile-lru` will do).
- MIRROR_LIST_CACHE_MAX_BYTES: bytes of answers the local-memory list-route cache keeps
  in each process (default 64 MiB): the least recently used go first, and an answer over
  an eighth of it is not kept (apps/common/server/bounded_cache.py).
- MIRROR_LIST_CACHE_TTL: `results_key=seconds,...` overriding the time-to-live
  of a route's list-route cache (0 = off); see apps/common/server/list_cache.py.
- MIRROR_STATUS_PAGE_NAME, MIRROR_STATUS_PAGE_URL: the status page `migrate` creates
  when there is none; MIRROR_STATUS_SNAPSHOT_MAX_AGE: seconds each process reuses its
  reading of the live checks (the status page itself is read again on an edit).
- MIRROR_STATUS_CACHE_DIR: where django-cachalot keeps the status page's queries and edit
  stamp, shared by every process of the host (default `.data/status-cache`); with
  MIRROR_REDIS_URL they are kept in Redis instead (apps/status/caching.py).
- MIRROR_ADMIN_LOGIN_FAILURES (5) and MIRROR_ADMIN_LOGIN_COOLOFF_MINUTES (15): the admin
  login refuses an address, and a username, after that many failed attempts, for that long.
- MIRROR_READINESS_MAX_BLOCK_AGE: seconds; `/health/readiness` answers 503 once the newest
  block is older (unset or 0: the database is checked, not the block's age).
- MIRROR_METRICS=true: Prometheus metrics at `/metrics`; MIRROR_ACCESS_LOG=true: one JSON
  line per request on stdout (apps/common/observability.py).
- MIRROR_ADMIN_DATABASE_URL: the database as the role the admin site connects as, to read
  and write Django's own tables (users, sessions, login attempts, the status page); DATABASE_URL
  is then the API's, which only reads (apps/common/database/roles.py). Unset: DATABASE_URL's role
  serves both, on one connection.
- MIRROR_DATABASE_REPLICAS: comma-separated URLs of streaming replicas of DATABASE_URL: API
  requests read them, each request on one, around those that fail or lag more than
  MIRROR_REPLICA_MAX_LAG seconds (default 30); everything else uses DATABASE_URL
  (apps/common/database/replicas.py).
- MIRROR_DATABASE_ROLE, MIRROR_ADMIN_DATABASE_ROLE: the roles the API and the admin connect as
  on the embedded database; `mirror.wsgi` (the server) sets `mirror_api` and `mirror_admin`,
  which `migrate` creates (apps/common/database/roles.py). Unset: the owner, as management commands.
- MIRROR_WEB3_EXECUTORS: processes that run contract calls and opcode traces under the
  server, machine-wide (default half the cores, at least 1; 0 = in the workers); a call
  finding none free answers 429 (apps/contracts/evm/pool.py). `scripts/run-server` starts
  them and sets MIRROR_WEB3_EXECUTOR_DIR, their sockets' directory.
"""

import logging
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from apps.common.configuration import read_settings
from mirror.embedded_postgres import embedded_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get("DATABASE_URL")
# The upstream's properties this service honours (apps/common/configuration.py); not a
# setting itself: its values are spread over those below.
upstream = read_settings(os.environ)


def env_flag(name: str) -> bool:
    return os.environ.get(name, "false").lower() == "true"


def secret_key() -> str:
    if key := os.environ.get("MIRROR_SECRET_KEY"):
        return key
    if DATABASE_URL:
        raise ImproperlyConfigured(
            "MIRROR_SECRET_KEY is not set: a deployment on DATABASE_URL needs its own long random secret key."
        )
    return "insecure-demo-key-for-the-embedded-database-only"


def allowed_hosts() -> list[str]:
    hosts = os.environ.get("MIRROR_ALLOWED_HOSTS", "*").split(",")
    if DATABASE_URL and "*" in hosts:
        logging.getLogger("mirror.settings").warning(
            "MIRROR_ALLOWED_HOSTS allows any Host header; set it to the names this service answers to."
        )
    return hosts


SECRET_KEY = secret_key()
DEBUG = env_flag("MIRROR_DEBUG")
ALLOWED_HOSTS = allowed_hosts()

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_SSL_REDIRECT = env_flag("MIRROR_SECURE_SSL_REDIRECT")
if env_flag("MIRROR_SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = int(os.environ.get("MIRROR_SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("MIRROR_SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("MIRROR_SECURE_HSTS_PRELOAD")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_flag("MIRROR_SECURE_COOKIES")

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
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "apps.common",
    "apps.accounts",
    "apps.blocks",
    "apps.contracts",
    "apps.hooks",
    "apps.network",
    "apps.schedules",
    "apps.status",
    "apps.tokens",
    "apps.topics",
    "apps.transactions",
    "apps.devtools",
    "axes",
    "cachalot",
]

# The Site* middleware are Django's, skipped on API requests (see apps.common.server.middleware.site_only).
MIDDLEWARE = [
    # First, so it times and counts every answer, even those of the middleware below.
    "apps.common.observability.ObservabilityMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Next: the admin's static files are answered before anything else runs.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "apps.common.server.middleware.MirrorApiMiddleware",
    "apps.common.server.middleware.SiteSessionMiddleware",
    "apps.common.server.middleware.SiteCommonMiddleware",
    "apps.common.server.middleware.SiteCsrfViewMiddleware",
    "apps.common.server.middleware.SiteAuthenticationMiddleware",
    "apps.common.server.middleware.SiteMessageMiddleware",
    "apps.common.server.middleware.SitePagePolicyMiddleware",
    "apps.common.server.pages.DatabaseOutageMiddleware",
    # Last, as django-axes requires.
    "axes.middleware.AxesMiddleware",
]

# The chain an `/api/` request takes (apps/common/server/handlers.py): the middleware above that act
# on API requests, in the same order; the others let them pass untouched.
API_MIDDLEWARE = [
    "apps.common.observability.ObservabilityMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.common.server.middleware.MirrorApiMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Admin login throttling: by address and, separately, by username (a guess spread over many
# addresses is throttled too); attempts are kept in the database, shared by every worker.
AXES_FAILURE_LIMIT = int(os.environ.get("MIRROR_ADMIN_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("MIRROR_ADMIN_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
# The lockout page says how long the lock lasts and how to clear it.
AXES_LOCKOUT_CALLABLE = "apps.common.admin.lockout.lockout_response"

# `check --deploy` looks for Django's CSRF and frame-options middleware by name; their
# Site* subclasses above are installed and run on every non-API request.
SILENCED_SYSTEM_CHECKS = ["security.W002", "security.W003"]

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
        DATABASE_URL or embedded_database_url(),
        conn_max_age=600,
        conn_health_checks=False,
        engine="apps.common.database.postgresql",
    )
}


# The server's read-only role on the embedded database (apps/common/database/roles.py).
if (database_role := os.environ.get("MIRROR_DATABASE_ROLE")) and not DATABASE_URL:
    DATABASES["default"].update(USER=database_role, PASSWORD="")

DATABASE_CONNECT_TIMEOUT = upstream["DATABASE_CONNECT_TIMEOUT"]
DATABASE_STATEMENT_TIMEOUT = upstream["DATABASE_STATEMENT_TIMEOUT"]
# A server that stops answering altogether cancels nothing: past its statement
# timeout and the time a cancellation takes to arrive, a connection gives up
# waiting for an answer (apps/common/database/connections.py).
DATABASE_ROUND_TRIP_TIMEOUT = (
    DATABASE_STATEMENT_TIMEOUT + DATABASE_CONNECT_TIMEOUT if DATABASE_STATEMENT_TIMEOUT else None
)
# A round trip unanswered this long has the server process's database watch probe the
# database; a probe unanswered this long makes it unresponsive: requests answer 503 at once
# until a probe, retried this often, is answered (apps/common/database/watch.py).
DATABASE_PROBE_AFTER = float(os.environ.get("MIRROR_DB_PROBE_AFTER", "0.05"))
DATABASE_PROBE_TIMEOUT = float(os.environ.get("MIRROR_DB_PROBE_TIMEOUT", "0.25"))
DATABASE_PROBE_RETRY = float(os.environ.get("MIRROR_DB_PROBE_RETRY", "0.2"))

# Seconds a request's body may take to arrive whole, then 408 (apps/common/server/request_body.py).
REQUEST_BODY_TIMEOUT = float(os.environ.get("MIRROR_REQUEST_BODY_TIMEOUT", "5"))
# A server worker's threads (apps/common/server/lanes.py, scripts/run-server): MIRROR_THREADS for
# reads, MIRROR_SIDE_THREADS more for requests waiting on their body or a contract executor.
READ_THREADS = int(os.environ.get("MIRROR_THREADS", "1"))
SIDE_THREADS = int(os.environ.get("MIRROR_SIDE_THREADS", "1"))


def with_database_timeouts(options: dict) -> dict:
    """A database that stops answering must cost a request a 503, not a worker:
    libpq gives up connecting, and the server cancels a statement, past these."""
    options = {**options, "connect_timeout": DATABASE_CONNECT_TIMEOUT}
    if DATABASE_STATEMENT_TIMEOUT:
        statement_timeout = f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT * 1000:.0f}"
        options["options"] = " ".join(filter(None, [options.get("options"), statement_timeout]))
    return options


DATABASES["default"]["OPTIONS"] = with_database_timeouts(
    {**DATABASES["default"].get("OPTIONS", {}), "server_side_binding": True, "prepare_threshold": 5}
)
DATABASES["default"]["TEST"] = {"NAME": os.environ.get("MIRROR_TEST_DATABASE", "test_mirror")}

# The admin's connection: Django's own tables, as a role of their own (apps/common/database/roles.py).
DATABASES["admin"] = {**DATABASES["default"], "TEST": {"MIRROR": "default"}}
if admin_database_url := os.environ.get("MIRROR_ADMIN_DATABASE_URL"):
    admin_database = dj_database_url.parse(admin_database_url)
    DATABASES["admin"].update(
        {key: admin_database[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT")},
        OPTIONS={**DATABASES["default"]["OPTIONS"], **admin_database.get("OPTIONS", {})},
    )
elif (admin_database_role := os.environ.get("MIRROR_ADMIN_DATABASE_ROLE")) and not DATABASE_URL:
    DATABASES["admin"].update(USER=admin_database_role, PASSWORD="")
# One alias per replica, as the API's connection but to the replica (apps/common/database/replicas.py).
for replica_index, replica_url in enumerate(filter(None, os.environ.get("MIRROR_DATABASE_REPLICAS", "").split(","))):
    replica_database = dj_database_url.parse(replica_url.strip())
    DATABASES[f"replica_{replica_index}"] = {
        **DATABASES["default"],
        **{key: replica_database[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT")},
        "OPTIONS": {**DATABASES["default"]["OPTIONS"], **replica_database.get("OPTIONS", {})},
        "TEST": {"MIRROR": "default"},
    }
REPLICA_MAX_LAG = float(os.environ.get("MIRROR_REPLICA_MAX_LAG", "30"))

# As the API's role, the admin's connection would separate nothing: the API's serves both.
DATABASE_ROUTERS = (
    ["apps.common.database.roles.AdminRouter"]
    if any(DATABASES["admin"][key] != DATABASES["default"][key] for key in ("NAME", "USER", "HOST", "PORT"))
    else []
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "static/"
# Served by WhiteNoise straight from the apps' static directories, in every mode: no
# `collectstatic` step, no STATIC_ROOT.
WHITENOISE_USE_FINDERS = True

# A Redis that stops answering costs a request at most these (seconds): the caches on it then
# serve uncached (apps/common/server/list_cache.py, apps/status/caching.py).
REDIS_TIMEOUTS = {"SOCKET_CONNECT_TIMEOUT": 0.1, "SOCKET_TIMEOUT": 0.25}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # The list-route cache (apps/common/server/list_cache.py).
    "lists": (
        {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": os.environ["MIRROR_REDIS_URL"],
            "OPTIONS": REDIS_TIMEOUTS,
        }
        if os.environ.get("MIRROR_REDIS_URL")
        else {
            "BACKEND": "apps.common.server.bounded_cache.ByteBoundedCache",
            "LOCATION": "mirror-lists",
            "OPTIONS": (
                {"MAX_BYTES": int(os.environ["MIRROR_LIST_CACHE_MAX_BYTES"])}
                if os.environ.get("MIRROR_LIST_CACHE_MAX_BYTES")
                else {}
            ),
        }
    ),
    # django-cachalot's, for the status page's tables only (apps/status/caching.py): shared by
    # every process, so an edit in one invalidates the others' reads.
    "status": (
        {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": os.environ["MIRROR_REDIS_URL"],
            "KEY_PREFIX": "status",
            "OPTIONS": REDIS_TIMEOUTS,
        }
        if os.environ.get("MIRROR_REDIS_URL")
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ.get("MIRROR_STATUS_CACHE_DIR", str(BASE_DIR / ".data" / "status-cache")),
            "OPTIONS": {"MAX_ENTRIES": 1000},
        }
    ),
}

READINESS_MAX_BLOCK_AGE = float(os.environ.get("MIRROR_READINESS_MAX_BLOCK_AGE") or 0)
METRICS_ENABLED = env_flag("MIRROR_METRICS")
ACCESS_LOG_ENABLED = env_flag("MIRROR_ACCESS_LOG")
# The file where the workers of one production server publish their load (apps/common/server/balancing.py);
# scripts/run-server sets it when it starts more than one worker.
WORKER_BOARD = os.environ.get("MIRROR_WORKER_BOARD")

# Server-Sent Events (apps/streams): served on MIRROR_STREAM_BIND by every worker process
# (unset: not served); the main port redirects the stream paths to MIRROR_STREAM_URL (default:
# the request's host with the stream port). Limits are per process.
STREAM_BIND = os.environ.get("MIRROR_STREAM_BIND")
STREAM_URL = os.environ.get("MIRROR_STREAM_URL")
STREAMS = {
    "interval": float(os.environ.get("MIRROR_STREAM_POLL_INTERVAL", "0.5")),
    "heartbeat": float(os.environ.get("MIRROR_STREAM_HEARTBEAT", "15")),
    "buffer": int(os.environ.get("MIRROR_STREAM_BUFFER", "1000")),
    "per_client": int(os.environ.get("MIRROR_STREAMS_PER_CLIENT", "20")),
    "total": int(os.environ.get("MIRROR_STREAMS_MAX", "10000")),
    "write_timeout": float(os.environ.get("MIRROR_STREAM_WRITE_TIMEOUT", "30")),
}

STATUS_PAGE_NAME = os.environ.get("MIRROR_STATUS_PAGE_NAME", "Mirror node")
STATUS_PAGE_URL = os.environ.get("MIRROR_STATUS_PAGE_URL", "http://localhost:8000")
STATUS_SNAPSHOT_MAX_AGE = float(os.environ.get("MIRROR_STATUS_SNAPSHOT_MAX_AGE", "5"))

# django-cachalot caches the status routes' reads of the status page's tables, and nothing else:
# the mirror's tables are written by the importer, which cachalot cannot see (apps/status/caching.py).
CACHALOT_CACHE = "status"
CACHALOT_DATABASES = ["default"]
CACHALOT_ADDITIONAL_SUPPORTED_DATABASES = ["apps.common.database.postgresql"]
CACHALOT_ONLY_CACHABLE_APPS = ["status"]
CACHALOT_QUERY_KEYGEN = "apps.status.caching.query_cache_key"
CACHALOT_TABLE_KEYGEN = "apps.status.caching.table_cache_key"
# The status tables are written through the ORM only; not inspecting every raw statement for
# writes keeps cachalot off the mirror routes' path.
CACHALOT_INVALIDATE_RAW = False
# A stamp gone reads as an edit. On Redis, shared by every host, a day's time-to-live only lets a
# `volatile-lru` Redis evict them. Without it the cache is one host's, so the stamps expire as the
# live checks' reading does: another host's edit shows within that age, as it would on Redis at once.
CACHALOT_TIMEOUT = 24 * 3600 if os.environ.get("MIRROR_REDIS_URL") else max(1.0, STATUS_SNAPSHOT_MAX_AGE)

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["apps.common.api.renderers.MirrorJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.common.api.negotiation.JSONWhateverTheAcceptHeader",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "apps.common.api.exceptions.mirror_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "apps.common.api.openapi.MirrorAutoSchema",
}

# Our OpenAPI document (`/api/v1/docs/openapi.yml`) and its Swagger UI, served without a CDN.
SPECTACULAR_SETTINGS = {
    "TITLE": "Ledger Query Service",
    "DESCRIPTION": (
        "Read-only REST API over the Hiero mirror node's tables (`/api/v1`, answering as the upstream mirror "
        "node's REST API does), and a Statuspage-style status API (`/api/v2`).\n\n"
        "**Comparisons.** A parameter that compares takes an operator before its value, `name=op:value`: "
        "`eq` (equal, the default when none is written), `ne` (not equal), `gt` (greater than), `gte` (greater "
        "than or equal), `lt` (less than) or `lte` (less than or equal); each parameter says which it takes. "
        "Repeating a parameter adds a condition: `timestamp=gte:1700000000&timestamp=lt:1700003600` is a range. "
        "Entity ids are written `shard.realm.num` (`0.0.1001`), timestamps `seconds.nanos`.\n\n"
        "**Pages.** A list answers one page of results and `links.next`, the link to the next page (also sent "
        "as a `Link` header); each operation states its page sizes, its order and how often a parameter may be "
        "repeated. A client with a page-size maximum of its own (HTTP Basic) may ask for larger pages where a "
        "larger `limit` is read as the maximum.\n\n"
        "**Errors.** A query the route cannot read answers 400 with `{\"_status\": {\"messages\": [...]}}`, "
        "naming each bad parameter; the routes the upstream serves from its Java service ignore a parameter "
        "they do not read, the others refuse it."
    ),
    "VERSION": "1",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v[12]",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "PREPROCESSING_HOOKS": [
        "apps.common.api.openapi.api_paths_without_optional_slash",
        "apps.common.api.openapi.api_paths_named_as_the_reference",
    ],
    # Enums stay inline, where our schemas declare them.
    "POSTPROCESSING_HOOKS": [],
    "CAMELIZE_NAMES": True,
    # The document's text is declared for users (`apps.common.api.openapi`); docstrings are for developers.
    "DISABLE_DOCSTRING_DESCRIPTIONS": True,
    # `check --deploy` stays about settings; `test_openapi` generates the document.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
}

# The upstream's settings that change what the API answers: limits, users, shard and realm,
# headers, ... (apps/common/configuration.py names each).
MIRROR = {
    **upstream["MIRROR"],
    # results_key -> seconds the list-route cache keeps that route's answers (0: off).
    "LIST_CACHE_TTL": {
        name: int(seconds)
        for name, _, seconds in (
            item.partition("=") for item in os.environ.get("MIRROR_LIST_CACHE_TTL", "").split(",") if item
        )
    },
}

# POST /contracts/call and opcode traces (apps/contracts/evm): the upstream web3 service's limits.
WEB3_EXECUTORS = int(os.environ.get("MIRROR_WEB3_EXECUTORS", max(1, (os.cpu_count() or 1) // 2)))
# Gas a second one executor runs (py-evm, plain opcodes): what the gas limit is sized to.
WEB3_EXECUTOR_GAS_PER_SECOND = 3_000_000
# The upstream's web3 settings: the gas limit, the wall time one request may execute for
# (estimates included; then 503), the token buckets (per process, as the upstream's per
# instance; 0 = no limit) and the estimate's search (apps/common/configuration.py).
WEB3 = {
    **upstream["WEB3"],
    "GAS_PER_SECOND": (
        upstream["WEB3"]["GAS_PER_SECOND"]
        if upstream["WEB3"]["GAS_PER_SECOND"] is not None
        else max(1, WEB3_EXECUTORS) * WEB3_EXECUTOR_GAS_PER_SECOND
    ),
    # The execution pool (apps/contracts/evm/pool.py); without its directory, jobs run in-process.
    "EXECUTORS": WEB3_EXECUTORS,
    "EXECUTOR_DIR": os.environ.get("MIRROR_WEB3_EXECUTOR_DIR", ""),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"bare": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "access": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "bare"},
    },
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR"},
        "apps.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
    },
}
