"""The upstream's properties read from the environment (apps/common/configuration.py): each honoured
variable sets its setting and changes what the service answers, a value that does not read stops
the start, and the variables not honoured are named in one warning when a process starts."""

import base64
import logging
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from apps.accounts.tests.factories import create_entity, create_token_account
from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.configuration import (
    HONOURED,
    PROPERTIES,
    Duration,
    environment_variable,
    markdown_table,
    read_settings,
    unread_variables,
    warn_about_unread,
)
from apps.common.ledger.codecs import encode_entity_id
from apps.common.tests.test_deploy_settings import DEPLOYMENT, manage
from apps.topics.tests.factories import create_topic
from apps.transactions.tests.factories import create_transaction

SECOND = 10**9
MINUTE = 60 * SECOND
T = 1_700_000_000 * SECOND

# One case per honoured property: its variable, a value, the setting it lands in, and as what.
READ_CASES = [
    ("HIERO_MIRROR_COMMON_REALM", "2", "MIRROR.REALM", 2),
    ("HIERO_MIRROR_COMMON_SHARD", "1", "MIRROR.SHARD", 1),
    ("HIERO_MIRROR_REST_CHAINID", "0x12A", "MIRROR.CHAIN_ID", "0x12a"),
    ("HIERO_MIRROR_REST_DB_POOL_CONNECTIONTIMEOUT", "1500", "DATABASE_CONNECT_TIMEOUT", 2),
    ("HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT", "2500", "DATABASE_STATEMENT_TIMEOUT", 2.5),
    ("HIERO_MIRROR_REST_QUERY_MAXREPEATEDQUERYPARAMETERS", "8", "MIRROR.MAX_REPEATED_QUERY_PARAMETERS", 8),
    (
        "HIERO_MIRROR_REST_QUERY_MAXSCHEDULEDTRANSACTIONCONSENSUSTIMESTAMPRANGE",
        "1h",
        "MIRROR.MAX_SCHEDULED_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE",
        Duration("1h", 60 * MINUTE),
    ),
    (
        "HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGE",
        "1h30m",
        "MIRROR.MAX_TIMESTAMP_RANGE",
        Duration("1h30m", 90 * MINUTE),
    ),
    (
        "HIERO_MIRROR_REST_QUERY_MAXTRANSACTIONCONSENSUSTIMESTAMPRANGE",
        "90s",
        "MIRROR.MAX_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE",
        Duration("90s", 90 * SECOND),
    ),
    (
        "HIERO_MIRROR_REST_QUERY_MAXVALIDSTARTTIMESTAMPDRIFT",
        "500",
        "MIRROR.MAX_VALID_START_TIMESTAMP_DRIFT",
        Duration("500", SECOND // 2),
    ),
    ("HIERO_MIRROR_REST_RESPONSE_ENABLEDELEGATIONADDRESS", "false", "MIRROR.DELEGATION_ADDRESS", False),
    (
        "HIERO_MIRROR_REST_RESPONSE_HEADERS_DEFAULT",
        '{"X-Served-By": "mirror"}',
        "MIRROR.RESPONSE_HEADERS_DEFAULT",
        {"cache-control": "public, max-age=1", "x-served-by": "mirror"},
    ),
    (
        "HIERO_MIRROR_REST_RESPONSE_HEADERS_PATH",
        '{"/api/v1/tokens/:tokenId": {"Cache-Control": "public, max-age=7"}}',
        "MIRROR.RESPONSE_HEADERS_PATH",
        {"api/v1/tokens/*": {"cache-control": "public, max-age=7"}},
    ),
    ("HIERO_MIRROR_REST_RESPONSE_LIMIT_DEFAULT", "5", "MIRROR.LIMIT_DEFAULT", 5),
    ("HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX", "50", "MIRROR.LIMIT_MAX", 50),
    (
        "HIERO_MIRROR_REST_RESPONSE_LIMIT_TOKENBALANCE_MULTIPLEACCOUNTS",
        "3",
        "MIRROR.TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS",
        3,
    ),
    (
        "HIERO_MIRROR_REST_RESPONSE_LIMIT_TOKENBALANCE_SINGLEACCOUNT",
        "4",
        "MIRROR.TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT",
        4,
    ),
    (
        "HIERO_MIRROR_REST_USERS",
        '[{"username": "u", "password": "p", "limit": 500}]',
        "MIRROR.USERS",
        [{"username": "u", "password": "p", "limit": 500}],
    ),
    (
        "HIERO_MIRROR_RESTJAVA_RESPONSE_HEADERS_DEFAULTS",
        '{"cache-control": "public, max-age=2"}',
        "MIRROR.JAVA_RESPONSE_HEADERS_DEFAULT",
        {"cache-control": "public, max-age=2"},
    ),
    (
        "HIERO_MIRROR_RESTJAVA_RESPONSE_HEADERS_PATH",
        '{"[/api/v1/topics/{id}]": {"cache-control": "no-store"}}',
        "MIRROR.JAVA_RESPONSE_HEADERS_PATH",
        {"api/v1/topics/*": {"cache-control": "no-store"}},
    ),
    ("HIERO_MIRROR_WEB3_EVM_ESTIMATEGASITERATIONTHRESHOLDPERCENT", "0.25", "WEB3.ESTIMATE_THRESHOLD_PERCENT", 25.0),
    ("HIERO_MIRROR_WEB3_EVM_MAXGAS", "1000000", "WEB3.MAX_GAS_LIMIT", 1_000_000),
    ("HIERO_MIRROR_WEB3_EVM_MAXGASESTIMATERETRIESCOUNT", "5", "WEB3.ESTIMATE_MAX_ITERATIONS", 5),
    ("HIERO_MIRROR_WEB3_REQUESTTIMEOUT", "2500", "WEB3.TIMEOUT_SECONDS", 2.5),
    ("HIERO_MIRROR_WEB3_REQUESTTIMEOUT", "3s", "WEB3.TIMEOUT_SECONDS", 3.0),
    ("HIERO_MIRROR_WEB3_THROTTLE_GASPERSECOND", "0", "WEB3.GAS_PER_SECOND", 0),
    ("HIERO_MIRROR_WEB3_THROTTLE_OPCODEREQUESTSPERSECOND", "5", "WEB3.OPCODE_REQUESTS_PER_SECOND", 5),
    ("HIERO_MIRROR_WEB3_THROTTLE_REQUESTSPERSECOND", "7", "WEB3.REQUESTS_PER_SECOND", 7),
]


def setting(values: dict, path: str):
    for key in path.split("."):
        values = values[key]
    return values


def setting_paths(values: dict, prefix: str = ""):
    for key, value in values.items():
        if prefix == "" and isinstance(value, dict):
            yield from setting_paths(value, f"{key}.")
        else:
            yield prefix + key


def configured(**variables: str):
    """The settings of a process started with `variables` set, as far as the upstream's properties go."""
    upstream = read_settings(variables)
    web3 = {key: value for key, value in upstream["WEB3"].items() if value is not None}
    return override_settings(
        MIRROR={**settings.MIRROR, **upstream["MIRROR"]},
        WEB3={**settings.WEB3, **web3},
        DATABASE_CONNECT_TIMEOUT=upstream["DATABASE_CONNECT_TIMEOUT"],
        DATABASE_STATEMENT_TIMEOUT=upstream["DATABASE_STATEMENT_TIMEOUT"],
    )


# --- Reading the environment ---


def test_the_variable_is_the_property_in_springs_relaxed_form():
    assert (
        environment_variable("hiero.mirror.rest.response.limit.tokenBalance.multipleAccounts")
        == "HIERO_MIRROR_REST_RESPONSE_LIMIT_TOKENBALANCE_MULTIPLEACCOUNTS"
    )
    assert (
        environment_variable("hiero.mirror.rest-java.fee.refresh-interval")
        == "HIERO_MIRROR_RESTJAVA_FEE_REFRESHINTERVAL"
    )
    assert environment_variable("hiero.mirror.rest.redis.*") == "HIERO_MIRROR_REST_REDIS_*"


def test_without_the_environment_the_settings_are_the_defaults():
    values = read_settings({})

    assert values["MIRROR"]["LIMIT_DEFAULT"] == 25
    assert values["MIRROR"]["LIMIT_MAX"] == 100
    assert values["MIRROR"]["MAX_TIMESTAMP_RANGE"] == Duration("7d", 7 * 24 * 60 * MINUTE)
    assert values["MIRROR"]["MAX_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE"] == Duration("35m", 35 * MINUTE)
    assert values["MIRROR"]["DELEGATION_ADDRESS"] is True
    assert values["MIRROR"]["RESPONSE_HEADERS_DEFAULT"] == {"cache-control": "public, max-age=1"}
    assert values["MIRROR"]["USERS"] == []
    assert (values["DATABASE_CONNECT_TIMEOUT"], values["DATABASE_STATEMENT_TIMEOUT"]) == (3, 20.0)
    assert values["WEB3"]["TIMEOUT_SECONDS"] == 10.0
    assert values["WEB3"]["ESTIMATE_THRESHOLD_PERCENT"] == 10.0
    # Sized to the machine's contract executors by mirror/settings.py.
    assert values["WEB3"]["GAS_PER_SECOND"] is None
    assert set(setting_paths(values)) == {entry.setting for entry in HONOURED}


def test_every_honoured_property_has_a_read_case():
    assert {variable for variable, *_ in READ_CASES} == {entry.variable for entry in HONOURED}


@pytest.mark.parametrize(("variable", "text", "path", "expected"), READ_CASES)
def test_each_honoured_variable_sets_its_setting(variable, text, path, expected):
    assert setting(read_settings({variable: text}), path) == expected
    assert setting(read_settings({}), path) != expected


def test_the_deprecated_hedera_prefix_is_read_and_the_hiero_one_wins():
    deprecated = read_settings({"HEDERA_MIRROR_REST_RESPONSE_LIMIT_MAX": "7"})
    both = read_settings({"HEDERA_MIRROR_REST_RESPONSE_LIMIT_MAX": "7", "HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX": "9"})

    assert (deprecated["MIRROR"]["LIMIT_MAX"], both["MIRROR"]["LIMIT_MAX"]) == (7, 9)


@pytest.mark.parametrize(
    ("variable", "text", "requirement"),
    [
        ("HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX", "0", "a whole number of at least 1"),
        ("HIERO_MIRROR_REST_RESPONSE_LIMIT_DEFAULT", "ten", "a whole number of at least 1"),
        ("HEDERA_MIRROR_REST_RESPONSE_LIMIT_MAX", "1.5", "a whole number of at least 1"),
        ("HIERO_MIRROR_COMMON_SHARD", "1024", "a whole number from 0 to 1023"),
        ("HIERO_MIRROR_COMMON_REALM", "-1", "a whole number from 0 to 65535"),
        ("HIERO_MIRROR_REST_RESPONSE_ENABLEDELEGATIONADDRESS", "yes", "true or false"),
        (
            "HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGE",
            "7 days",
            "a duration such as 7d, 35m, 1s or 500ms (a bare number is milliseconds)",
        ),
        ("HIERO_MIRROR_REST_QUERY_MAXVALIDSTARTTIMESTAMPDRIFT", "0s", "a duration longer than zero"),
        ("HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT", "1.5", "a whole number of milliseconds, 0 for none"),
        ("HIERO_MIRROR_REST_DB_POOL_CONNECTIONTIMEOUT", "0", "a whole number of milliseconds above 0"),
        ("HIERO_MIRROR_REST_CHAINID", "296", "a hexadecimal number starting with 0x, such as 0x128"),
        (
            "HIERO_MIRROR_REST_USERS",
            '{"username": "u"}',
            'a JSON array of users, such as [{"username": "u", "password": "p", "limit": 1000}]',
        ),
        (
            "HIERO_MIRROR_REST_USERS",
            '[{"username": "u"}]',
            'a JSON array of users, such as [{"username": "u", "password": "p", "limit": 1000}]; '
            "users[0] has no password",
        ),
        (
            "HIERO_MIRROR_REST_USERS",
            '[{"username": "u", "password": "p", "limit": 0}]',
            'a JSON array of users, such as [{"username": "u", "password": "p", "limit": 1000}]; '
            "users[0].limit must be a positive whole number",
        ),
        (
            "HIERO_MIRROR_REST_USERS",
            '[{"username": "u", "password": "p"}, {"username": "u", "password": "q"}]',
            'a JSON array of users, such as [{"username": "u", "password": "p", "limit": 1000}], '
            "each username once; repeated: u",
        ),
        (
            "HIERO_MIRROR_REST_RESPONSE_HEADERS_DEFAULT",
            '{"cache-control": 5}',
            'a JSON object of header names and values, such as {"cache-control": "public, max-age=5"}',
        ),
        (
            "HIERO_MIRROR_RESTJAVA_RESPONSE_HEADERS_PATH",
            '["/api/v1/topics/{id}"]',
            'a JSON object of routes and their headers, such as {"/api/v1/accounts": '
            '{"cache-control": "public, max-age=5"}}',
        ),
        ("HIERO_MIRROR_WEB3_EVM_ESTIMATEGASITERATIONTHRESHOLDPERCENT", "10", "a fraction from 0 to 1, such as 0.10"),
        (
            "HIERO_MIRROR_WEB3_REQUESTTIMEOUT",
            "soon",
            "a duration such as 7d, 35m, 1s or 500ms (a bare number is milliseconds)",
        ),
    ],
)
def test_a_value_that_does_not_read_stops_the_start_naming_its_variable(variable, text, requirement):
    with pytest.raises(ImproperlyConfigured) as raised:
        read_settings({variable: text})

    assert str(raised.value) == f"{variable}={text!r} is invalid: it must be {requirement}."


def test_our_former_name_of_an_upstream_property_stops_the_start_naming_the_upstream_variable():
    with pytest.raises(ImproperlyConfigured) as raised:
        read_settings({"MIRROR_DB_STATEMENT_TIMEOUT": "5"})

    assert str(raised.value) == (
        "MIRROR_DB_STATEMENT_TIMEOUT is no longer read: set HIERO_MIRROR_REST_DB_POOL_STATEMENTTIMEOUT"
        " (ms; 0: none), the upstream's hiero.mirror.rest.db.pool.statementTimeout."
    )


def test_a_bad_value_stops_manage_py_with_the_message():
    result = manage("check", **DEPLOYMENT, HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="0")

    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX='0' is invalid: it must be a whole number"
        " of at least 1." in result.stderr
    )


# --- Properties not honoured ---

UNREAD_ENVIRONMENT = {
    "HIERO_MIRROR_REST_REDIS_URI": "redis://cache:6379",
    "HIERO_MIRROR_WEB3_EVM_NETWORK": "MAINNET",
    "HEDERA_MIRROR_RESTJAVA_DB_HOST": "db",
    "HIERO_MIRROR_COMMON_NETWORK": "MAINNET",
    "hiero_mirror_rest_response_limit_max": "5",
    # Read: not named.
    "HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX": "5",
    "HEDERA_MIRROR_REST_RESPONSE_LIMIT_DEFAULT": "5",
    # Other components' settings: not ours to judge.
    "HIERO_MIRROR_IMPORTER_DB_HOST": "db",
    "HIERO_MIRROR_GRPC_PORT": "5600",
}


def test_the_unread_variables_are_those_of_the_upstreams_api_namespaces_this_service_does_not_read():
    assert unread_variables(UNREAD_ENVIRONMENT) == [
        "HEDERA_MIRROR_RESTJAVA_DB_HOST",
        "HIERO_MIRROR_COMMON_NETWORK",
        "HIERO_MIRROR_REST_REDIS_URI",
        "HIERO_MIRROR_WEB3_EVM_NETWORK",
        "hiero_mirror_rest_response_limit_max",
    ]


def test_the_unread_variables_are_named_in_one_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="apps.common.configuration"):
        warn_about_unread(UNREAD_ENVIRONMENT)
        warn_about_unread({"HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX": "5", "PATH": "/bin"})

    assert [(record.levelname, record.getMessage()) for record in caplog.records] == [
        (
            "WARNING",
            "Upstream settings this service does not honour are ignored: HEDERA_MIRROR_RESTJAVA_DB_HOST, "
            "HIERO_MIRROR_COMMON_NETWORK, HIERO_MIRROR_REST_REDIS_URI, HIERO_MIRROR_WEB3_EVM_NETWORK, "
            "hiero_mirror_rest_response_limit_max (see the configuration table in README.md).",
        )
    ]


def test_a_starting_process_warns_once_of_the_unread_variables():
    result = manage(
        "check",
        **DEPLOYMENT,
        HIERO_MIRROR_REST_PORT="5551",
        HIERO_MIRROR_REST_REDIS_URI="redis://cache:6379",
        HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="50",
    )

    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "does not honour" in line]
    assert warnings == [
        "Upstream settings this service does not honour are ignored: HIERO_MIRROR_REST_PORT, "
        "HIERO_MIRROR_REST_REDIS_URI (see the configuration table in README.md)."
    ]


def test_a_process_with_only_honoured_variables_warns_of_nothing():
    result = manage("check", **DEPLOYMENT, HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="50")

    assert result.returncode == 0, result.stderr
    assert "does not honour" not in result.stderr


# --- The README's table ---


def test_the_table_has_a_row_for_each_property_and_reads_each_honoured_variable_once():
    rows = markdown_table().splitlines()[2:]

    assert len(rows) == len(PROPERTIES)
    for entry, row in zip(PROPERTIES, rows):
        assert row.startswith(f"| `{entry.name}` | `{entry.variable}` |")
        assert row.endswith("| yes |") if entry.honoured else re.search(r"\| no: .+ \|$", row)
    assert markdown_table().count("`HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX`") == 1
    assert "| `hiero.mirror.rest.response.limit.max` | `HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX` | `100` | yes |" in rows


# --- What the service answers ---


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, T + number * SECOND) for number in range(10, 14)))


def block_numbers(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [block["number"] for block in response.json()["blocks"]]


@pytest.mark.django_db
def test_the_limits_follow_the_environment(client, blocks):
    with configured(HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="2"):
        capped = client.get("/api/v1/blocks?limit=3")
    with configured(HIERO_MIRROR_REST_RESPONSE_LIMIT_DEFAULT="3"):
        by_default = client.get("/api/v1/blocks")

    assert block_numbers(capped) == [13, 12]
    assert block_numbers(by_default) == [13, 12, 11]


@pytest.mark.django_db
def test_repeated_parameters_follow_the_environment(client, blocks):
    with configured(HIERO_MIRROR_REST_QUERY_MAXREPEATEDQUERYPARAMETERS="2"):
        response = client.get("/api/v1/blocks?block.number=gt:1&block.number=gt:2&block.number=gt:3")

    assert response.status_code == 400
    assert response.json() == {
        "_status": {"messages": [{"message": "Array limit exceeded. Only 2 elements allowed in an array."}]}
    }


@pytest.mark.django_db
def test_basic_auth_users_come_from_the_environment(client, blocks):
    users = '[{"username": "alice", "password": "pw", "limit": 3}]'
    header = "Basic " + base64.b64encode(b"alice:pw").decode()

    with configured(HIERO_MIRROR_REST_USERS=users, HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="2"):
        authenticated = client.get("/api/v1/blocks?limit=3", headers={"Authorization": header})
        anonymous = client.get("/api/v1/blocks?limit=3")

    assert (block_numbers(authenticated), block_numbers(anonymous)) == ([13, 12, 11], [13, 12])


@pytest.mark.django_db
def test_default_headers_follow_the_environment_where_a_route_declares_none(client, blocks):
    with configured(HIERO_MIRROR_REST_RESPONSE_HEADERS_DEFAULT='{"cache-control": "public, max-age=3", "x-a": "b"}'):
        listed = client.get("/api/v1/blocks")
        one = client.get("/api/v1/blocks/10")
        refused = client.get("/api/v1/blocks?limit=x")

    assert (listed["Cache-Control"], listed["X-A"]) == ("public, max-age=3", "b")
    assert (one["Cache-Control"], one["X-A"]) == ("public, max-age=600", "b")
    assert refused.status_code == 400
    assert "Cache-Control" not in refused and "X-A" not in refused


@pytest.mark.django_db
def test_a_routes_headers_follow_the_environment(client, blocks):
    headers = '{"/api/v1/blocks/:hashOrNumber": {"cache-control": "public, max-age=30"}}'

    with configured(HIERO_MIRROR_REST_RESPONSE_HEADERS_PATH=headers):
        one = client.get("/api/v1/blocks/10")
        listed = client.get("/api/v1/blocks")

    assert (one["Cache-Control"], listed["Cache-Control"]) == ("public, max-age=30", "public, max-age=1")


@pytest.mark.django_db
def test_a_kept_list_lives_as_long_as_its_configured_max_age(client):
    headers = '{"/api/v1/tokens": {"cache-control": "public, max-age=4"}}'

    by_default = client.get("/api/v1/tokens")
    with configured(HIERO_MIRROR_REST_RESPONSE_HEADERS_PATH=headers):
        # Another query: the answer above is kept, and would be served again.
        response = client.get("/api/v1/tokens?limit=2")

    assert (by_default["Cache-Control"], by_default.keep_for.seconds) == ("public, max-age=10", 10)
    assert (response["Cache-Control"], response.keep_for.seconds) == ("public, max-age=4", 4)


@pytest.mark.django_db
def test_the_java_services_routes_follow_its_own_headers(client):
    create_topic(7, entity={})
    java_headers = '{"[/api/v1/topics/{id}]": {"cache-control": "public, max-age=9"}}'
    node_headers = '{"/api/v1/topics/:topicId": {"cache-control": "public, max-age=8"}}'

    with configured(HIERO_MIRROR_RESTJAVA_RESPONSE_HEADERS_PATH=java_headers):
        configured_here = client.get("/api/v1/topics/0.0.7")
    with configured(HIERO_MIRROR_REST_RESPONSE_HEADERS_PATH=node_headers):
        configured_for_node = client.get("/api/v1/topics/0.0.7")

    assert configured_here.status_code == 200, configured_here.content
    assert configured_here["Cache-Control"] == "public, max-age=9"
    assert configured_for_node["Cache-Control"] == "public, max-age=5"


@pytest.mark.django_db
def test_shard_and_realm_follow_the_environment(client):
    create_entity(encode_entity_id(1, 2, 1001))

    with configured(HIERO_MIRROR_COMMON_SHARD="1", HIERO_MIRROR_COMMON_REALM="2"):
        response = client.get("/api/v1/accounts/1001?transactions=false")

    assert response.status_code == 200, response.content
    assert response.json()["account"] == "1.2.1001"
    assert client.get("/api/v1/accounts/1001?transactions=false").status_code == 404


@pytest.mark.django_db
def test_delegation_addresses_and_token_balance_limits_follow_the_environment(client):
    create_entity(3, delegation_address=bytes(20))
    for token in (5000, 5001, 5002):
        create_token_account(3, token, 10)

    listed_by_default = client.get("/api/v1/accounts?account.id=3").json()["accounts"][0]
    one_by_default = client.get("/api/v1/accounts/0.0.3?transactions=false").json()
    with configured(
        HIERO_MIRROR_REST_RESPONSE_ENABLEDELEGATIONADDRESS="false",
        HIERO_MIRROR_REST_RESPONSE_LIMIT_TOKENBALANCE_MULTIPLEACCOUNTS="1",
        HIERO_MIRROR_REST_RESPONSE_LIMIT_TOKENBALANCE_SINGLEACCOUNT="2",
    ):
        # Another query: the list answered above is kept, and would be served again.
        listed = client.get("/api/v1/accounts?account.id=0.0.3").json()["accounts"][0]
        one = client.get("/api/v1/accounts/0.0.3?transactions=false").json()

    assert "delegation_address" in listed_by_default and "delegation_address" not in listed
    assert (len(listed_by_default["balance"]["tokens"]), len(listed["balance"]["tokens"])) == (3, 1)
    assert (len(one_by_default["balance"]["tokens"]), len(one["balance"]["tokens"])) == (3, 2)


def transaction_count(client, payer: int, valid_start: int) -> int:
    response = client.get(f"/api/v1/transactions/0.0.{payer}-{valid_start // SECOND}-{valid_start % SECOND:09d}")
    return len(response.json()["transactions"]) if response.status_code == 200 else 0


@pytest.mark.django_db
def test_a_transaction_ids_consensus_window_follows_the_environment(client):
    create_transaction(T + 60 * SECOND, 10, valid_start_ns=T)
    create_transaction(T - SECOND // 2, 11, valid_start_ns=T)

    assert (transaction_count(client, 10, T), transaction_count(client, 11, T)) == (1, 1)
    with configured(
        HIERO_MIRROR_REST_QUERY_MAXTRANSACTIONCONSENSUSTIMESTAMPRANGE="30s",
        HIERO_MIRROR_REST_QUERY_MAXVALIDSTARTTIMESTAMPDRIFT="100ms",
    ):
        assert (transaction_count(client, 10, T), transaction_count(client, 11, T)) == (0, 0)


@pytest.mark.django_db
def test_a_scheduled_transactions_window_follows_the_environment(client):
    create_transaction(T + 1, 10, valid_start_ns=T, type=42)
    create_transaction(T + 40 * MINUTE, 10, valid_start_ns=T, scheduled=True, nonce=0)

    assert transaction_count(client, 10, T) == 2
    with configured(HIERO_MIRROR_REST_QUERY_MAXSCHEDULEDTRANSACTIONCONSENSUSTIMESTAMPRANGE="30m"):
        assert transaction_count(client, 10, T) == 1


@pytest.mark.django_db
def test_the_timestamp_range_of_a_topic_search_follows_the_environment(client):
    two_hours = "/api/v1/contracts/results/logs?topic0=0a&timestamp=gte:1639010151&timestamp=lte:1639017351"

    allowed = client.get(two_hours)
    with configured(HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGE="1h"):
        refused = client.get(two_hours)

    assert allowed.status_code == 200, allowed.content
    assert refused.status_code == 400
    assert refused.json()["_status"]["messages"][0]["message"] == (
        "Cannot search topics without a valid timestamp range: "
        "Timestamp range by the lower and upper bounds must be positive and within 1h"
    )


@pytest.mark.django_db
def test_a_calls_gas_limit_follows_the_environment(client):
    body = {"to": "0x" + "00" * 19 + "01", "gas": 200_000}

    with configured(HIERO_MIRROR_WEB3_EVM_MAXGAS="100000"):
        response = client.post("/api/v1/contracts/call", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "_status": {
            "messages": [
                {"message": "Bad Request", "detail": "gas field must be less than or equal to 100000", "data": ""}
            ]
        }
    }


@pytest.mark.django_db(transaction=True)
def test_a_server_started_with_upstream_variables_answers_by_them(start_production_server):
    create_record_files(*(record_file(number, T + number * SECOND) for number in range(10, 14)))
    server = start_production_server(
        HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX="2",
        HIERO_MIRROR_REST_RESPONSE_HEADERS_PATH='{"/api/v1/blocks": {"cache-control": "public, max-age=6"}}',
        HIERO_MIRROR_REST_STATEPROOF_ENABLED="true",
    )

    answer = server.get("/api/v1/blocks?limit=5")

    assert answer.status == 200
    assert [block["number"] for block in answer.json()["blocks"]] == [13, 12]
    assert answer.headers["cache-control"] == "public, max-age=6"
    assert "ignored: HIERO_MIRROR_REST_STATEPROOF_ENABLED (see" in server.log_path.read_text()


def test_the_readme_holds_the_table_as_the_module_renders_it():
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()

    assert readme.count(markdown_table()) == 1
