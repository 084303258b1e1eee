"""Runs the upstream-derived conformance cases against this service, in-process.

Cases live outside the repository (default `../shared/conformance/cases`, or
`$MIRROR_CONFORMANCE_CASES`). One case file holds mirror rows and tests; each
test is a GET with an exact expected status, JSON body and headers. A file's
rows load inside a transaction that is rolled back afterwards, so the database
is left as it was. Each test runs with the upstream settings it names (mapped
to ours) and with the wall clock set to its `fake_time`.
"""

import datetime
import json
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.http import HttpResponse
from django.test import Client, override_settings
from django.test.client import ClientHandler

from apps.common import clock
from apps.common.database.fixtures import load_rows
from apps.common.server import list_cache
from apps.common.server.handlers import ApiMiddlewareSplit


class MirrorClientHandler(ApiMiddlewareSplit, ClientHandler):
    """The test client's handler with the server's request path: kept list answers are
    served first, `/api/` requests take the API middleware chain (apps/common/server/handlers.py).
    The test suite's clients use it too."""

    def __call__(self, environ):
        if (kept := list_cache.cached_answer(environ)) is not None:
            status, headers, body = kept
            response = HttpResponse(body, status=int(status[:3]), headers=dict(headers))
            response.wsgi_request = WSGIRequest(environ)
            return response
        response = super().__call__(environ)
        list_cache.keep(environ, response)
        return response


def mirror_client(**defaults) -> Client:
    client = Client(**defaults)
    client.handler = MirrorClientHandler(client.handler.enforce_csrf_checks)
    return client


DEFAULT_CASES_DIR = Path(settings.BASE_DIR).parent / "shared" / "conformance" / "cases"

# Upstream settings (below `hiero.mirror.rest`) -> our MIRROR settings.
CONFIG_KEYS = {
    "response.limit.default": "LIMIT_DEFAULT",
    "response.limit.max": "LIMIT_MAX",
    "response.limit.tokenBalance.multipleAccounts": "TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS",
    "response.limit.tokenBalance.singleAccount": "TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT",
    "query.maxTransactionsTimestampRangeNs": "MAX_TRANSACTIONS_TIMESTAMP_RANGE_NS",
    "response.enableDelegationAddress": "DELEGATION_ADDRESS",
    "users": "USERS",
}
# The upstream test configuration the expectations were produced with.
CORPUS_SETTINGS = {"MAX_REPEATED_QUERY_PARAMETERS": 8}


def cases_dir() -> Path:
    return Path(os.environ.get("MIRROR_CONFORMANCE_CASES", DEFAULT_CASES_DIR))


def case_files(root: Path, folders: list[str] | None = None) -> list[Path]:
    """The case files under `root`, or under the given folders (`accounts`, `accounts/{id}/nfts`)."""
    files = sorted(root.rglob("*.json"))
    if folders:
        files = [path for path in files if case_folder(path.relative_to(root), folders)]
    return files


def case_folder(relative: Path, folders: list[str]) -> str | None:
    """The deepest of `folders` holding the case file at `relative`, or None."""
    matches = [folder for folder in folders if relative.parts[: len(Path(folder).parts)] == Path(folder).parts]
    return max(matches, key=lambda folder: len(Path(folder).parts), default=None)


@dataclass
class TestResult:
    file: str
    name: str
    url: str
    differences: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.differences


def run_case_file(path: Path, root: Path) -> list[TestResult]:
    case = json.loads(path.read_text())
    relative = str(path.relative_to(root))
    client = mirror_client(raise_request_exception=False)
    results = []
    with transaction.atomic():
        load_rows(case["rows"], source=relative)
        for test in case["tests"]:
            result = TestResult(relative, test["name"], test["url"])
            clear_caches()
            try:
                with _test_environment(test):
                    response = client.get(test["url"], headers=test.get("request_headers") or {})
                result.differences = compare(test, response)
            except UnsupportedConfig as error:
                result.differences = [str(error)]
            results.append(result)
        transaction.set_rollback(True)
    return results


def clear_caches() -> None:
    """Each test expects a fresh service: nothing cached from an earlier one may answer it."""
    for cache in caches.all():
        cache.clear()


class UnsupportedConfig(Exception):
    pass


@contextmanager
def _test_environment(test: dict) -> Iterator[None]:
    overrides = dict(CORPUS_SETTINGS)
    for key, value in _flatten(test.get("config") or {}):
        if key not in CONFIG_KEYS:
            raise UnsupportedConfig(f"unsupported config key {key}")
        overrides[CONFIG_KEYS[key]] = value
    with ExitStack() as stack:
        stack.enter_context(override_settings(MIRROR={**settings.MIRROR, **overrides}))
        if test.get("fake_time") is not None:
            stack.enter_context(clock.frozen_at(instant_ns(test["fake_time"])))
        yield


def _flatten(config: dict, prefix: str = "") -> Iterator[tuple[str, object]]:
    for key, value in config.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, path + ".")
        else:
            yield path, value


def instant_ns(value: int | float | str) -> int:
    """Seconds since the epoch, or an ISO-8601 date or date-time in UTC."""
    if isinstance(value, (int, float)):
        return int(value * 1_000_000_000)
    moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1000


def compare(test: dict, response) -> list[str]:
    differences = []
    if response.status_code != test["status"]:
        differences.append(f"status {response.status_code} != expected {test['status']}")
    body = json.loads(response.content) if response.content else {}
    differences.extend(json_differences(body, test["json"]))
    if 200 <= test["status"] < 300:
        for name, expected in (test.get("headers") or {}).items():
            actual = response.headers.get(name)
            if actual != expected:
                differences.append(f"header {name}: {actual!r} != expected {expected!r}")
    return differences


def json_differences(actual, expected, path: str = "$") -> list[str]:
    """Exact JSON comparison: same keys, same array order, numbers by value, no coercion."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        differences = []
        for key in expected.keys() - actual.keys():
            differences.append(f"{path}.{key}: missing")
        for key in actual.keys() - expected.keys():
            differences.append(f"{path}.{key}: unexpected")
        for key in expected.keys() & actual.keys():
            differences.extend(json_differences(actual[key], expected[key], f"{path}.{key}"))
        return differences
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return [f"{path}: {len(actual)} items != expected {len(expected)}"]
        return [
            difference
            for index, (a, e) in enumerate(zip(actual, expected))
            for difference in json_differences(a, e, f"{path}[{index}]")
        ]
    if _json_kind(actual) != _json_kind(expected) or actual != expected:
        return [f"{path}: {json.dumps(actual)} != expected {json.dumps(expected)}"]
    return []


def _json_kind(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def enforced_folders(path: Path) -> list[str]:
    lines = path.read_text().splitlines() if path.exists() else []
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]
