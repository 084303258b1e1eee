import http.client
import os
import re
import subprocess
import sys
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from apps.blocks.models import RecordFile
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.database.roles import ADMIN_DATABASE, ADMIN_ROLE, API_ROLE, AdminRouter
from apps.common.tests.production_server import PROJECT_DIR, Answer, database_url
from apps.status.models import Incident, Page

MIRROR_TABLE_WRITES = [
    "insert into record_file (consensus_end) values (1)",
    "update record_file set count = 0",
    "delete from record_file",
    "truncate record_file",
    "alter table record_file add column extra int",
    "drop table record_file",
    "create table intruder (id int)",
]
DJANGO_TABLES_HIDDEN_FROM_THE_API = [
    "auth_user",
    "auth_group",
    "auth_permission",
    "django_session",
    "django_admin_log",
    "django_content_type",
    "django_migrations",
    "axes_accessattempt",
    "axes_accesslog",
]
STATUS_TABLES = ["status_page", "status_component", "status_incident", "status_incidentupdate"]
PASSWORD = "correct horse battery staple"
# Separate connections in the tests of the router: committed rows are all they share.
BOTH_CONNECTIONS = pytest.mark.django_db(transaction=True, databases=["default", ADMIN_DATABASE])


def connect_as(role: str) -> psycopg.Connection:
    """A connection to the test database as the server makes one: as `role`, with no password."""
    params = connection.get_connection_params()
    params = {key: value for key, value in params.items() if key not in ("cursor_factory", "context", "password")}
    return psycopg.connect(**{**params, "user": role}, autocommit=True)


@pytest.fixture
def api_role_connection(db):
    with connect_as(API_ROLE) as api_connection:
        yield api_connection


@pytest.fixture
def admin_role_connection(db):
    with connect_as(ADMIN_ROLE) as admin_connection:
        yield admin_connection


def public_tables() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "select quote_ident(relname) from pg_class where relnamespace = 'public'::regnamespace"
            " and relkind in ('r', 'p') order by relname"
        )
        return [table for (table,) in cursor.fetchall()]


@pytest.mark.parametrize("statement", MIRROR_TABLE_WRITES)
def test_the_api_role_cannot_change_the_mirror(api_role_connection, statement):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        api_role_connection.execute(statement)


def test_the_api_role_writes_no_table(api_role_connection):
    tables = public_tables()
    assert {"record_file", "auth_user", "django_session", "status_incident"} <= set(tables)

    for table in tables:
        for statement in (
            f"insert into {table} default values",
            f"update {table} set {_first_column(table)} = null",
            f"delete from {table}",
            f"truncate {table}",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                api_role_connection.execute(statement)


@pytest.mark.parametrize("table", DJANGO_TABLES_HIDDEN_FROM_THE_API)
def test_the_api_role_cannot_read_djangos_tables(api_role_connection, table):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        api_role_connection.execute(f"select * from {table} limit 1")


def test_the_api_role_can_neither_add_an_admin_nor_read_a_password_hash(api_role_connection):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        api_role_connection.execute(
            "insert into auth_user (password, is_superuser, username, first_name, last_name, email,"
            " is_staff, is_active, date_joined) values ('', true, 'intruder', '', '', '', true, true, now())"
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        api_role_connection.execute("select password from auth_user")


@pytest.mark.parametrize("table", ["record_file", "entity", *STATUS_TABLES])
def test_the_api_role_reads_the_mirror_and_the_status_page(api_role_connection, table):
    assert api_role_connection.execute(f"select count(*) from {table}").fetchone() is not None


def test_the_admin_role_writes_djangos_tables(admin_role_connection):
    with admin_role_connection.transaction(force_rollback=True):
        admin_role_connection.execute(
            "insert into auth_user (password, is_superuser, username, first_name, last_name, email,"
            " is_staff, is_active, date_joined) values ('', false, 'probe', '', '', '', true, true, now())"
        )
        admin_role_connection.execute("insert into django_session values ('probe', '', now())")
        admin_role_connection.execute(
            "insert into axes_accessattempt (username, ip_address, user_agent, http_accept, path_info,"
            " attempt_time, get_data, post_data, failures_since_start) values"
            " ('probe', '192.0.2.1', '', '', '/admin/login/', now(), '', '', 1)"
        )
        admin_role_connection.execute("update status_component set description = description")
        admin_role_connection.execute("delete from django_session where session_key = 'probe'")


@pytest.mark.parametrize("table", ["record_file", "entity", "transaction"])
def test_the_admin_role_cannot_read_the_mirror(admin_role_connection, table):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        admin_role_connection.execute(f"select * from {table} limit 1")


def test_the_router_sends_djangos_tables_to_the_admins_connection():
    router = AdminRouter()

    assert router.db_for_read(get_user_model()) == router.db_for_write(get_user_model()) == ADMIN_DATABASE
    assert router.db_for_read(Incident) == router.db_for_write(Page) == ADMIN_DATABASE
    assert router.db_for_read(RecordFile) is None
    assert router.allow_migrate("default", "auth") and not router.allow_migrate(ADMIN_DATABASE, "auth")


def test_the_server_connects_to_the_embedded_database_as_the_two_roles():
    env = {
        name: value
        for name, value in os.environ.items()
        if name
        not in ("DATABASE_URL", "MIRROR_ADMIN_DATABASE_URL", "MIRROR_DATABASE_ROLE", "MIRROR_ADMIN_DATABASE_ROLE")
    }
    probe = (
        "import mirror.wsgi; from django.conf import settings; from django.db import connections;"
        " print(connections['default'].settings_dict['USER'], connections['admin'].settings_dict['USER'],"
        " settings.DATABASE_ROUTERS)"
    )

    served = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT_DIR, env=env, capture_output=True, text=True)

    assert served.stdout.strip() == f"{API_ROLE} {ADMIN_ROLE} ['apps.common.database.roles.AdminRouter']", served.stderr


@pytest.fixture
def admin_connection_apart(settings):
    """Django's own tables on the admin's connection, as under the server; none open yet."""
    settings.DATABASE_ROUTERS = ["apps.common.database.roles.AdminRouter"]
    connections[ADMIN_DATABASE].close()


@BOTH_CONNECTIONS
def test_an_api_request_opens_no_admin_connection(client, admin_connection_apart):
    create_record_files(record_file(1, 100))

    for target in ["/api/v1/blocks", "/api/v1/accounts", "/api/v2/summary.json", "/health/readiness", "/"]:
        assert client.get(target).status_code == 200, target

    assert connections[ADMIN_DATABASE].connection is None
    assert client.get("/api/v2/summary.json").json()["page"]["name"] == Page.objects.get().name


@BOTH_CONNECTIONS
def test_the_admin_writes_on_its_own_connection(client, admin_connection_apart):
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    assert connections[ADMIN_DATABASE].connection is not None
    connections[ADMIN_DATABASE].close()

    assert client.post("/admin/login/", {"username": "root", "password": "wrong"}).status_code == 200
    assert client.post("/admin/login/", {"username": "root", "password": PASSWORD}).status_code == 302
    added = client.post("/admin/status/incident/add/", incident_form())

    assert added.status_code == 302, added.content
    assert connections[ADMIN_DATABASE].connection is not None
    incidents = client.get("/api/v2/incidents.json").json()["incidents"]
    assert [incident["name"] for incident in incidents] == ["Elevated REST API latency"]


def test_the_server_serves_the_api_as_its_role_and_the_admin_as_its_own(start_production_server, transactional_db):
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    server = start_production_server(
        database_url({**connection.settings_dict, "USER": API_ROLE, "PASSWORD": ""}),
        MIRROR_ADMIN_DATABASE_URL=database_url({**connection.settings_dict, "USER": ADMIN_ROLE, "PASSWORD": ""}),
        MIRROR_STATUS_SNAPSHOT_MAX_AGE="0",
    )

    for target in ["/api/v1/blocks", "/api/v1/accounts", "/api/v2/summary.json", "/health/readiness"]:
        assert server.get_when_served(target).status == 200, target
    assert API_ROLE in backends() and ADMIN_ROLE not in backends()

    browser = Browser(server.port)
    login_page = browser.request("GET", "/admin/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', login_page.body).group(1).decode()
    refused = browser.request("POST", "/admin/login/", {"username": "root", "password": "wrong"}, token)
    logged_in = browser.request("POST", "/admin/login/", {"username": "root", "password": PASSWORD}, token)
    assert (refused.status, logged_in.status) == (200, 302)
    added = browser.request("POST", "/admin/status/incident/add/", incident_form(), browser.cookies["csrftoken"])

    assert added.status == 302, added.body
    # One a thread of the worker that served an admin page.
    assert backends()[ADMIN_ROLE] >= 1
    incidents = server.get("/api/v2/incidents.json").json()["incidents"]
    assert [incident["name"] for incident in incidents] == ["Elevated REST API latency"]


def incident_form() -> dict:
    return {
        "name": "Elevated REST API latency",
        "impact": "",
        "started_at_0": "2025-03-04",
        "started_at_1": "15:05:01",
        "update_status": "investigating",
        "update_body": "We are looking into it.",
        "component_status": "",
        "updates-TOTAL_FORMS": "0",
        "updates-INITIAL_FORMS": "0",
        "updates-MIN_NUM_FORMS": "0",
        "updates-MAX_NUM_FORMS": "1000",
    }


def backends() -> dict[str, int]:
    """The server's connections to the test database, by role."""
    with connection.cursor() as cursor:
        cursor.execute(
            "select usename, count(*) from pg_stat_activity where datname = current_database()"
            " and usename = any(%s) group by usename",
            [[API_ROLE, ADMIN_ROLE]],
        )
        return dict(cursor.fetchall())


class Browser:
    """An HTTP client keeping the cookies the server sets, as the admin's pages need."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, target: str, fields: dict | None = None, csrf_token: str = ""):
        headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        if fields is not None:
            headers |= {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf_token}
        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        client.request(method, target, body=None if fields is None else urlencode(fields), headers=headers)
        try:
            response = client.getresponse()
            received = SimpleCookie()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                received.load(cookie)
            self.cookies |= {name: morsel.value for name, morsel in received.items()}
            return Answer(response.status, dict(response.getheaders()), response.read())
        finally:
            client.close()


def _first_column(table: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "select quote_ident(attname) from pg_attribute where attrelid = %s::regclass and attnum > 0"
            " and not attisdropped order by attnum limit 1",
            [table],
        )
        return cursor.fetchone()[0]
