"""Fixtures of the contract execution tests that run the production server."""

import time

import orjson
import pytest

from apps.common.database.fixtures import empty_mirror_tables
from apps.contracts.tests.evm_ledger import load_ledger


@pytest.fixture
def committed_ledger():
    """The test ledger committed, for a server to read (a transactional test), emptied after:
    the flush after such a test empties only Django's own tables."""
    load_ledger()
    yield
    empty_mirror_tables()


@pytest.fixture
def start_call_server(start_production_server):
    """`start_production_server`, returning once its execution pool, which starts beside
    the server, runs calls."""

    def start(**env: str):
        server = start_production_server(**env)
        deadline = time.monotonic() + 60
        while True:
            answer = server.request(
                "POST", "/api/v1/contracts/call", {"Content-Type": "application/json"}, orjson.dumps({"data": "0x00"})
            )
            if answer.status == 200:
                return server
            assert time.monotonic() < deadline, f"the execution pool did not start: {answer.body}"
            time.sleep(0.2)

    return start
