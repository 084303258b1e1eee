import os
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.roles import API_ROLE
from apps.common.tests.production_server import PROJECT_DIR, database_url

MIRROR_TABLE_WRITES = [
    "insert into record_file (consensus_end) values (1)",
    "update record_file set count = 0",
    "delete from record_file",
    "truncate record_file",
    "alter table record_file add column extra int",
    "drop table record_file",
    "create table intruder (id int)",
]


@pytest.fixture
def api_role_connection(db):
    """A connection to the test database as the server makes one: as the API role."""
    params = connection.get_connection_params()
    params = {key: value for key, value in params.items() if key not in ("cursor_factory", "context", "password")}
    with psycopg.connect(**{**params, "user": API_ROLE}, autocommit=True) as api_connection:
        yield api_connection


@pytest.mark.parametrize("statement", MIRROR_TABLE_WRITES)
def test_the_api_role_cannot_change_the_mirror(api_role_connection, statement):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        api_role_connection.execute(statement)


def test_the_api_role_reads_the_mirror_and_writes_the_services_own_tables(api_role_connection):
    create_record_files(record_file(1, 100))
    with api_role_connection.cursor() as cursor:
        cursor.execute("select count(*) from record_file")
        # The fixture's row is in the test's transaction, which this connection does not see.
        assert cursor.fetchone() == (0,)
        cursor.execute("insert into django_session values ('probe', '', now())")
        cursor.execute(
            "insert into auth_user (password, is_superuser, username, first_name, last_name, email,"
            " is_staff, is_active, date_joined) values ('', false, 'probe', '', '', '', false, true, now())"
        )
        cursor.execute("delete from auth_user where username = 'probe'")
        cursor.execute("delete from django_session where session_key = 'probe'")


def test_the_server_connects_to_the_embedded_database_as_the_api_role():
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "MIRROR_DATABASE_ROLE")}
    probe = "import mirror.wsgi; from django.db import connection; print(connection.settings_dict['USER'])"

    served = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT_DIR, env=env, capture_output=True, text=True)

    assert served.stdout.strip() == API_ROLE, served.stderr


def test_the_server_answers_as_the_api_role(start_production_server):
    url = database_url({**connection.settings_dict, "USER": API_ROLE, "PASSWORD": ""})
    server = start_production_server(url)

    assert server.get_when_served("/api/v1/blocks").status == 200
    assert server.get("/admin/login/").status == 200
