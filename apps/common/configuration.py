"""The upstream's configuration properties, read from the environment under the upstream's names.

An operator moving from the upstream mirror node keeps the properties it set: each is an
environment variable named as Spring's relaxed binding names it, and as the upstream's REST
API reads it (`hiero.mirror.rest.response.limit.max` is `HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX`:
upper case, dots become underscores, dashes go). The upstream's older `HEDERA_MIRROR_` prefix
is read too, as the upstream does, when the `HIERO_MIRROR_` variable is not set.

`PROPERTIES` is the one table: which upstream property sets which of our settings, its
default here, and how its value is read. `mirror/settings.py` takes the values from
`read_settings`; a value that does not read fails the start with a message naming the
variable. Properties we do not honour are listed for the README (`markdown_table`); any
variable of the upstream's REST, Java REST, web3 or common namespaces that this service does
not read is named in one warning when the process starts (`warn_once_about_unread`).

Values take the form the upstream takes: numbers, `true`/`false`, durations (`7d`, `35m`,
`1s`, a bare number being milliseconds), milliseconds where the upstream counts them.
Properties that are lists or maps upstream (`users`, `response.headers.path`) are JSON.
"""

import json
import logging
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache

from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger(__name__)

# The upstream's Cache-Control of a route that names none.
DEFAULT_CACHE_CONTROL = "public, max-age=1"
PREFIX = "HIERO_MIRROR_"
DEPRECATED_PREFIX = "HEDERA_MIRROR_"
# The upstream components whose settings would change what this service answers.
NAMESPACES = tuple(
    prefix + component
    for prefix in (PREFIX, DEPRECATED_PREFIX)
    for component in ("COMMON_", "REST_", "RESTJAVA_", "WEB3_")
)


@dataclass(frozen=True)
class Duration:
    """A duration as the operator wrote it (the upstream quotes it in some messages) and in nanoseconds."""

    text: str
    nanoseconds: int

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Property:
    """One upstream property. `setting` is where its value goes in our settings (`MIRROR.LIMIT_MAX`
    is `settings.MIRROR["LIMIT_MAX"]`); without one it is not honoured, and `name` may end in `.*`
    for a family of them. `default` is written as the variable would be; None leaves the default
    to `mirror/settings.py`. `note` is what the README says beside the default (its unit), or why
    the property is not honoured."""

    name: str
    setting: str | None = None
    default: str | None = None
    parse: Callable[[str], object] | None = None
    note: str = ""

    @property
    def honoured(self) -> bool:
        return self.setting is not None

    @property
    def variable(self) -> str:
        return environment_variable(self.name)


def environment_variable(name: str, prefix: str = PREFIX) -> str:
    """`hiero.mirror.rest.response.limit.max` -> `HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX`; a family
    `hiero.mirror.rest.redis.*` -> `HIERO_MIRROR_REST_REDIS_*`."""
    variable = name.replace("-", "").replace(".", "_").upper()
    return prefix + variable.removeprefix(PREFIX)


# --- Readers: text in, value out, or ValueError saying what the value must be ---


def whole_number(minimum: int = 0, maximum: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?\d+", text.strip()) or not (
            minimum <= int(text) and (maximum is None or int(text) <= maximum)
        ):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"of at least {minimum}"
            raise ValueError(f"a whole number {bound}")
        return int(text)

    return parse


def boolean(text: str) -> bool:
    if text.strip().lower() not in ("true", "false"):
        raise ValueError("true or false")
    return text.strip().lower() == "true"


_DURATION_UNITS_NS = {
    "ns": 1,
    "us": 10**3,
    "µs": 10**3,
    "ms": 10**6,
    "s": 10**9,
    "m": 60 * 10**9,
    "h": 3600 * 10**9,
    "d": 86400 * 10**9,
    "w": 7 * 86400 * 10**9,
}
_DURATION_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ns|us|µs|ms|s|m|h|d|w)")


def duration(text: str) -> Duration:
    """`60d`, `35m`, `1h30m`, `1.5s`, or a bare number of milliseconds, as the upstream reads them."""
    stripped = text.strip()
    if re.fullmatch(r"\d+", stripped):
        nanoseconds = int(stripped) * _DURATION_UNITS_NS["ms"]
    elif stripped and re.fullmatch(f"(?:{_DURATION_PART.pattern})+\\s*", stripped):
        nanoseconds = int(
            sum(Decimal(number) * _DURATION_UNITS_NS[unit] for number, unit in _DURATION_PART.findall(stripped))
        )
    else:
        raise ValueError("a duration such as 7d, 35m, 1s or 500ms (a bare number is milliseconds)")
    if nanoseconds <= 0:
        raise ValueError("a duration longer than zero")
    return Duration(stripped, nanoseconds)


def duration_seconds(text: str) -> float:
    return duration(text).nanoseconds / 10**9


def milliseconds_as_seconds(*, zero_allowed: bool) -> Callable[[str], float]:
    """Milliseconds, as the upstream's database timeouts are counted, to our seconds."""
    read = whole_number(0 if zero_allowed else 1)

    def parse(text: str) -> float:
        try:
            return read(text) / 1000
        except ValueError:
            raise ValueError(
                f"a whole number of milliseconds{', 0 for none' if zero_allowed else ' above 0'}"
            ) from None

    return parse


def whole_seconds_from_milliseconds(text: str) -> int:
    """libpq waits whole seconds to connect: a part of one counts as one."""
    return math.ceil(milliseconds_as_seconds(zero_allowed=False)(text))


def fraction_as_percent(text: str) -> float:
    """The upstream's fraction (`0.10`) as our percentage (10)."""
    try:
        fraction = Decimal(text.strip())
    except InvalidOperation:
        fraction = Decimal(-1)
    if not fraction.is_finite() or not 0 <= fraction <= 1:
        raise ValueError("a fraction from 0 to 1, such as 0.10")
    return float(fraction * 100)


def chain_id(text: str) -> str:
    if not re.fullmatch(r"0x[0-9a-fA-F]+", text.strip()):
        raise ValueError("a hexadecimal number starting with 0x, such as 0x128")
    return text.strip().lower()


def _json(text: str, expected: type, description: str):
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, expected):
        raise ValueError(description)
    return value


def users(text: str) -> list[dict]:
    """HTTP Basic users with their own page-size maximum, checked as the upstream checks them."""
    shape = 'a JSON array of users, such as [{"username": "u", "password": "p", "limit": 1000}]'
    entries = _json(text, list, shape)
    for index, user in enumerate(entries):
        if not isinstance(user, dict):
            raise ValueError(shape)
        for field in ("username", "password"):
            if not isinstance(user.get(field), str) or not user[field]:
                raise ValueError(f"{shape}; users[{index}] has no {field}")
        limit = user.get("limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0):
            raise ValueError(f"{shape}; users[{index}].limit must be a positive whole number")
    names = [user["username"] for user in entries]
    if duplicates := sorted({name for name in names if names.count(name) > 1}):
        raise ValueError(f"{shape}, each username once; repeated: {', '.join(duplicates)}")
    return entries


def _headers(value: object, description: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(header, str) for header in value.values()):
        raise ValueError(description)
    return {name.lower(): header for name, header in value.items()}


def headers(text: str) -> dict[str, str]:
    """A map of header names to values, e.g. {"cache-control": "public, max-age=5"}."""
    description = 'a JSON object of header names and values, such as {"cache-control": "public, max-age=5"}'
    return _headers(_json(text, dict, description), description)


def default_headers(text: str) -> dict[str, str]:
    """Headers over the upstream's default Cache-Control, as its YAML merges them."""
    return {"cache-control": DEFAULT_CACHE_CONTROL, **headers(text)}


def headers_by_route(text: str) -> dict[str, dict[str, str]]:
    """Headers per route, keyed as the upstream keys them (`/api/v1/accounts/:idOrAliasOrEvmAddress`,
    `/api/v1/topics/{id}`), to headers keyed by the route's shape (see `route_shape`)."""
    description = 'a JSON object of routes and their headers, such as {"/api/v1/accounts": {"cache-control": "public, max-age=5"}}'
    routes = _json(text, dict, description)
    return {route_shape(route): _headers(route_headers, description) for route, route_headers in routes.items()}


def route_shape(route: str) -> str:
    """A route with its parameters as `*`: the upstream's `/api/v1/tokens/:tokenId` (Express) and
    `[/api/v1/topics/{id}]` (Spring, bracketed in its YAML) read `api/v1/tokens/*`, `api/v1/topics/*`."""
    route = route.strip().removeprefix("[").removesuffix("]").strip("/")
    return "/".join(
        "*" if segment.startswith(":") or re.fullmatch(r"\{\w+\}", segment) else segment for segment in route.split("/")
    )


# --- The table ---

PROPERTIES: tuple[Property, ...] = (
    Property("hiero.mirror.common.realm", "MIRROR.REALM", "0", whole_number(0, 2**16 - 1)),
    Property("hiero.mirror.common.shard", "MIRROR.SHARD", "0", whole_number(0, 2**10 - 1)),
    Property("hiero.mirror.rest.cache.*", note="no such caches here; the list-route cache is `MIRROR_LIST_CACHE_TTL`"),
    Property("hiero.mirror.rest.chainId", "MIRROR.CHAIN_ID", "0x128", chain_id),
    Property(
        "hiero.mirror.rest.db.pool.connectionTimeout",
        "DATABASE_CONNECT_TIMEOUT",
        "3000",
        whole_seconds_from_milliseconds,
        note="ms, rounded up to whole seconds",
    ),
    Property(
        "hiero.mirror.rest.db.pool.statementTimeout",
        "DATABASE_STATEMENT_TIMEOUT",
        "20000",
        milliseconds_as_seconds(zero_allowed=True),
        note="ms; 0: none",
    ),
    Property("hiero.mirror.rest.db.*", note="the database is `DATABASE_URL`; one connection per server thread"),
    Property("hiero.mirror.rest.log.*", note="one JSON line per request with `MIRROR_ACCESS_LOG`"),
    Property("hiero.mirror.rest.metrics.*", note="Prometheus metrics at `/metrics` with `MIRROR_METRICS`"),
    Property("hiero.mirror.rest.network.*", note="fixed at the upstream's defaults"),
    Property("hiero.mirror.rest.openapi.*", note="our document is at `/api/v1/docs/openapi.yml`"),
    Property("hiero.mirror.rest.port", note="`MIRROR_BIND`"),
    Property("hiero.mirror.rest.query.bindTimestampRange", note="ranges are never bound (the default)"),
    Property("hiero.mirror.rest.query.maxAccountBalanceConcurrency", note="one statement per request"),
    Property("hiero.mirror.rest.query.maxFileAttempts", note="not used here"),
    Property("hiero.mirror.rest.query.maxRecordFileCloseInterval", note="not used here"),
    Property(
        "hiero.mirror.rest.query.maxRepeatedQueryParameters",
        "MIRROR.MAX_REPEATED_QUERY_PARAMETERS",
        "100",
        whole_number(1),
    ),
    Property(
        "hiero.mirror.rest.query.maxScheduledTransactionConsensusTimestampRange",
        "MIRROR.MAX_SCHEDULED_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE",
        "89285m",
        duration,
    ),
    Property("hiero.mirror.rest.query.maxTimestampRange", "MIRROR.MAX_TIMESTAMP_RANGE", "7d", duration),
    Property(
        "hiero.mirror.rest.query.maxTransactionConsensusTimestampRange",
        "MIRROR.MAX_TRANSACTION_CONSENSUS_TIMESTAMP_RANGE",
        "35m",
        duration,
    ),
    Property(
        "hiero.mirror.rest.query.maxTransactionsTimestampRange", note="it bounds only ranges `bindTimestampRange` binds"
    ),
    Property(
        "hiero.mirror.rest.query.maxValidStartTimestampDrift", "MIRROR.MAX_VALID_START_TIMESTAMP_DRIFT", "1s", duration
    ),
    Property("hiero.mirror.rest.query.strictTimestampParam", note="always strict (the default)"),
    Property("hiero.mirror.rest.query.syntheticContractIdResults", note="fixed at the default, false"),
    Property("hiero.mirror.rest.query.syntheticContractResults", note="fixed at the default, true"),
    Property("hiero.mirror.rest.query.topicMessageLookup", note="never (the default)"),
    Property("hiero.mirror.rest.query.transactions.precedingTransactionTypes", note="fixed at the default, 11 and 15"),
    Property("hiero.mirror.rest.redis.*", note="the list-route cache's Redis is `MIRROR_REDIS_URL`"),
    Property("hiero.mirror.rest.response.compression", note="answers are not compressed"),
    Property("hiero.mirror.rest.response.enableDelegationAddress", "MIRROR.DELEGATION_ADDRESS", "true", boolean),
    Property(
        "hiero.mirror.rest.response.headers.default",
        "MIRROR.RESPONSE_HEADERS_DEFAULT",
        json.dumps({"cache-control": DEFAULT_CACHE_CONTROL}),
        default_headers,
        note="JSON, merged over the default",
    ),
    Property(
        "hiero.mirror.rest.response.headers.path",
        "MIRROR.RESPONSE_HEADERS_PATH",
        "{}",
        headers_by_route,
        note="JSON, merged over each route's upstream default",
    ),
    Property("hiero.mirror.rest.response.includeHostInLink", note="links are relative (the default)"),
    Property("hiero.mirror.rest.response.limit.default", "MIRROR.LIMIT_DEFAULT", "25", whole_number(1)),
    Property("hiero.mirror.rest.response.limit.max", "MIRROR.LIMIT_MAX", "100", whole_number(1)),
    Property(
        "hiero.mirror.rest.response.limit.tokenBalance.multipleAccounts",
        "MIRROR.TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS",
        "50",
        whole_number(1),
    ),
    Property(
        "hiero.mirror.rest.response.limit.tokenBalance.singleAccount",
        "MIRROR.TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT",
        "1000",
        whole_number(1),
    ),
    Property("hiero.mirror.rest.stateproof.*", note="the state proof route is not served"),
    Property("hiero.mirror.rest.users", "MIRROR.USERS", "[]", users, note="JSON"),
    Property("hiero.mirror.restJava.db.*", note="the database is `DATABASE_URL`, with the REST statement timeout"),
    Property("hiero.mirror.restJava.fee.*", note="the fee schedule is read when it changes"),
    Property("hiero.mirror.restJava.network.*", note="fixed at the upstream's defaults"),
    Property(
        "hiero.mirror.restJava.response.headers.defaults",
        "MIRROR.JAVA_RESPONSE_HEADERS_DEFAULT",
        json.dumps({"cache-control": DEFAULT_CACHE_CONTROL}),
        default_headers,
        note="JSON, merged over the default",
    ),
    Property(
        "hiero.mirror.restJava.response.headers.path",
        "MIRROR.JAVA_RESPONSE_HEADERS_PATH",
        "{}",
        headers_by_route,
        note="JSON, merged over each route's upstream default",
    ),
    Property("hiero.mirror.web3.cache.*", note="no such caches here"),
    Property("hiero.mirror.web3.db.*", note="the database is `DATABASE_URL`, with the REST statement timeout"),
    Property(
        "hiero.mirror.web3.evm.estimateGasIterationThresholdPercent",
        "WEB3.ESTIMATE_THRESHOLD_PERCENT",
        "0.10",
        fraction_as_percent,
        note="a fraction",
    ),
    Property("hiero.mirror.web3.evm.maxGas", "WEB3.MAX_GAS_LIMIT", "15000000", whole_number(1)),
    Property("hiero.mirror.web3.evm.maxGasEstimateRetriesCount", "WEB3.ESTIMATE_MAX_ITERATIONS", "20", whole_number(0)),
    Property("hiero.mirror.web3.evm.*", note="our EVM has no such settings"),
    Property("hiero.mirror.web3.opcode.*", note="opcode traces are always served"),
    Property(
        "hiero.mirror.web3.requestTimeout", "WEB3.TIMEOUT_SECONDS", "10000", duration_seconds, note="ms, or a duration"
    ),
    Property(
        "hiero.mirror.web3.throttle.gasPerSecond",
        "WEB3.GAS_PER_SECOND",
        None,
        whole_number(0),
        note="3000000 per contract executor; 0: no limit",
    ),
    Property(
        "hiero.mirror.web3.throttle.gasLimitRefundPercent", note="all unused gas is given back (the default, 100)"
    ),
    Property(
        "hiero.mirror.web3.throttle.opcodeRequestsPerSecond",
        "WEB3.OPCODE_REQUESTS_PER_SECOND",
        "1",
        whole_number(0),
        note="0: no limit",
    ),
    Property("hiero.mirror.web3.throttle.request.*", note="no request filters"),
    Property(
        "hiero.mirror.web3.throttle.requestsPerSecond",
        "WEB3.REQUESTS_PER_SECOND",
        "500",
        whole_number(0),
        note="0: no limit",
    ),
    Property("hiero.mirror.web3.*", note="the other web3 settings do not apply here"),
)
HONOURED = tuple(entry for entry in PROPERTIES if entry.honoured)

# Our own names for what the upstream names now: a deployment still setting one is told the new name.
REPLACED = {
    "MIRROR_DB_CONNECT_TIMEOUT": "hiero.mirror.rest.db.pool.connectionTimeout",
    "MIRROR_DB_STATEMENT_TIMEOUT": "hiero.mirror.rest.db.pool.statementTimeout",
    "MIRROR_USERS": "hiero.mirror.rest.users",
    "MIRROR_WEB3_GAS_PER_SECOND": "hiero.mirror.web3.throttle.gasPerSecond",
    "MIRROR_WEB3_MAX_GAS_LIMIT": "hiero.mirror.web3.evm.maxGas",
    "MIRROR_WEB3_OPCODE_REQUESTS_PER_SECOND": "hiero.mirror.web3.throttle.opcodeRequestsPerSecond",
    "MIRROR_WEB3_REQUESTS_PER_SECOND": "hiero.mirror.web3.throttle.requestsPerSecond",
    "MIRROR_WEB3_TIMEOUT_SECONDS": "hiero.mirror.web3.requestTimeout",
}


def read_settings(environ: Mapping[str, str]) -> dict:
    """Our settings from the honoured properties, nested as `setting` names them:
    `{"MIRROR": {"LIMIT_MAX": 100, ...}, "WEB3": {...}, "DATABASE_CONNECT_TIMEOUT": 3, ...}`.
    Raises ImproperlyConfigured for a value that does not read, or a replaced name still set."""
    for old, name in REPLACED.items():
        if old in environ:
            entry = next(entry for entry in HONOURED if entry.name == name)
            unit = f" ({entry.note})" if entry.note else ""
            raise ImproperlyConfigured(f"{old} is no longer read: set {entry.variable}{unit}, the upstream's {name}.")
    values: dict = {}
    for entry in HONOURED:
        variable, text = _variable_set(entry, environ)
        if text is None:
            value = None if entry.default is None else entry.parse(entry.default)
        else:
            try:
                value = entry.parse(text)
            except ValueError as error:
                raise ImproperlyConfigured(f"{variable}={text!r} is invalid: it must be {error}.") from None
        *groups, key = entry.setting.split(".")
        target = values
        for group in groups:
            target = target.setdefault(group, {})
        target[key] = value
    return values


def _variable_set(entry: Property, environ: Mapping[str, str]) -> tuple[str, str | None]:
    """The variable setting `entry` and its text; the current prefix wins over the deprecated one."""
    for prefix in (PREFIX, DEPRECATED_PREFIX):
        variable = environment_variable(entry.name, prefix)
        if variable in environ:
            return variable, environ[variable]
    return entry.variable, None


def unread_variables(environ: Mapping[str, str]) -> list[str]:
    """The variables of the upstream's namespaces that are set and that this service does not read."""
    read = {environment_variable(entry.name, prefix) for entry in HONOURED for prefix in (PREFIX, DEPRECATED_PREFIX)}
    return sorted(name for name in environ if name.upper().startswith(NAMESPACES) and name not in read)


def warn_about_unread(environ: Mapping[str, str]) -> None:
    if unread := unread_variables(environ):
        logger.warning(
            "Upstream settings this service does not honour are ignored: %s (see the configuration table in README.md).",
            ", ".join(unread),
        )


@cache
def warn_once_about_unread() -> None:
    """At start, once in a process (`CommonConfig.ready`)."""
    warn_about_unread(os.environ)


def markdown_table() -> str:
    """The README's table: every property above, its variable, our default and whether we honour it."""
    lines = ["| Upstream property | Environment variable | Our default | Honoured |", "|---|---|---|---|"]
    for entry in PROPERTIES:
        if entry.honoured:
            default = f"`{entry.default}`" if entry.default is not None else ""
            default = f"{default} ({entry.note})" if default and entry.note else default or entry.note
            honoured = "yes"
        else:
            default, honoured = "", f"no: {entry.note}"
        lines.append(f"| `{entry.name}` | `{entry.variable}` | {default} | {honoured} |")
    return "\n".join(lines) + "\n"
