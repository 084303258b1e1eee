"""A session as the suite runs them, for test_cleanup.py (its name keeps it out of the suite).

Its one test holds what the suite's tests start: the session's production server, a server
of its own with two workers and metrics, on a throwaway cluster with MIRROR_CLEANUP_CLUSTER
set, a freezable database proxy and a Redis server. It writes their processes and files to
MIRROR_CLEANUP_REPORT (JSON); with MIRROR_CLEANUP_HOLD set it then waits to be interrupted,
and fails if it is not.
"""

import json
import os
import time
from pathlib import Path

import psutil
import pytest

from apps.common.tests.test_faults import cluster  # noqa: F401 (a fixture)

HOLD_SECONDS = 120


def test_holding_servers_and_a_cluster(
    request, production_server, start_production_server, freezable_database, redis_server
):
    report = {
        "server_sessions": [production_server.process.pid, redis_server.process.pid],
        "paths": [str(production_server.temp_dir), freezable_database.socket_dir, str(redis_server.temp_dir)],
    }
    if os.environ.get("MIRROR_CLEANUP_CLUSTER"):
        throwaway = request.getfixturevalue("cluster")
        server = start_production_server(throwaway.url, MIRROR_WORKERS="2", MIRROR_METRICS="true")
        postmaster = psutil.Process(throwaway.processes()[0])
        report["postmaster"] = {"pid": postmaster.pid, "started": postmaster.create_time()}
        report["paths"].append(str(throwaway.data_dir))
    else:
        server = start_production_server(MIRROR_WORKERS="2", MIRROR_METRICS="true")
    assert server.get_when_served("/metrics").status == 200
    report["server_sessions"].append(server.process.pid)
    report["paths"].append(str(server.temp_dir))
    written = Path(os.environ["MIRROR_CLEANUP_REPORT"])
    written.with_suffix(".part").write_text(json.dumps(report))
    written.with_suffix(".part").replace(written)

    if os.environ.get("MIRROR_CLEANUP_HOLD"):
        time.sleep(HOLD_SECONDS)
        pytest.fail(f"not interrupted within {HOLD_SECONDS} s")
