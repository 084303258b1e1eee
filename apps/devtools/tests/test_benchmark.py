import io
import json
import os
import socket
import subprocess
import sys
import tempfile
from contextlib import suppress
from dataclasses import fields
from pathlib import Path

from django.core.management import call_command

from apps.devtools.benchmark import runner
from apps.devtools.benchmark.routes import ROUTES, Samples, is_list_route, urls
from apps.devtools.benchmark.runner import (
    cpu_seconds,
    json_difference,
    run_wrk_by_turns,
)
from apps.devtools.management.commands.bench import (
    REPLICA_CLUSTERS_PREFIX,
    REPLICAS_NOTE,
)


def test_json_difference_compares_numbers_by_value_and_nothing_else_loosely():
    assert json_difference({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]}) is None
    assert json_difference({"a": "1"}, {"a": 1}) == '$.a: "1" in ours, 1 upstream'
    assert json_difference({"a": True}, {"a": 1}) == "$.a: true in ours, 1 upstream"
    assert json_difference({"a": 0}, {"a": None}) == "$.a: 0 in ours, null upstream"


def test_json_difference_names_missing_and_extra_keys_and_list_lengths():
    assert json_difference({"a": 1}, {"a": 1, "b": 2}) == "$.b: missing in ours"
    assert json_difference({"a": 1, "c": 2}, {"a": 1}) == "$.c: extra in ours"
    assert json_difference({"l": [1]}, {"l": [1, 2]}) == "$.l: 1 items in ours, 2 upstream"


def test_every_route_template_names_only_sample_values():
    samples = Samples(**{field.name: f"<{field.name}>" for field in fields(Samples)})

    every_url = urls(samples)

    assert len(every_url) == sum(len(templates) for templates in ROUTES.values())
    assert all("{" not in url and url.startswith("/api/v1/") for _, url in every_url)
    assert {family for family, _ in urls(samples, ["blocks", "balances"])} == {"blocks", "balances"}


def test_list_routes_are_those_ending_with_a_collection():
    samples = Samples(**{field.name: "0.0.1234" for field in fields(Samples)})

    listed = [url for _, url in urls(samples) if is_list_route(url)]

    assert "/api/v1/blocks?limit=100" in listed
    assert "/api/v1/tokens/0.0.1234/nfts/1/transactions" in listed
    assert "/api/v1/contracts/results/logs" in listed
    assert not {"/api/v1/blocks/0.0.1234", "/api/v1/topics/0.0.1234/messages/1"} & set(listed)


def test_cpu_seconds_counts_a_process_and_its_live_children():
    burner = "import time; sum(range(20_000_000)); print(flush=True); time.sleep(30)"
    child = subprocess.Popen([sys.executable, "-c", burner], stdout=subprocess.PIPE)
    try:
        child.stdout.readline()
        burnt = cpu_seconds(child.pid)

        assert burnt > 0.05
        assert cpu_seconds(os.getpid()) >= burnt
    finally:
        child.kill()
        child.wait()
        child.stdout.close()


def test_repeated_runs_report_the_median_run_whole_and_every_rate(monkeypatch):
    rates = iter([900.0, 2100.0, 1800.0, 2000.0])
    monkeypatch.setattr(
        runner, "run_wrk", lambda url, **_: {"rps": (rps := next(rates)), "p99_ms": 1000 / rps}
    )

    odd = run_wrk_by_turns({"ours": ("http://x/", 1)}, connections=4, seconds=1, repeat=3)
    single = run_wrk_by_turns({"ours": ("http://x/", 1)}, connections=4, seconds=1, repeat=1)

    assert odd == {"ours": {"rps": 1800.0, "p99_ms": 1000 / 1800, "runs_rps": [900.0, 2100.0, 1800.0]}}
    assert single == {"ours": {"rps": 2000.0, "p99_ms": 0.5, "runs_rps": [2000.0]}}


def test_services_take_turns_run_by_run_the_first_alternating(monkeypatch):
    ran = []

    def run_wrk(url, *, server_pid, **_):
        ran.append(url)
        return {"rps": float(server_pid * 1000 + len(ran))}

    monkeypatch.setattr(runner, "run_wrk", run_wrk)

    figures = run_wrk_by_turns(
        {"ours": ("http://ours/", 1), "upstream": ("http://up/", 2)}, connections=64, seconds=1, repeat=3
    )

    assert ran == ["http://ours/", "http://up/", "http://up/", "http://ours/", "http://ours/", "http://up/"]
    assert figures["ours"]["runs_rps"] == [1001.0, 1004.0, 1005.0]
    assert figures["upstream"]["runs_rps"] == [2002.0, 2003.0, 2006.0]
    assert figures["upstream"]["rps"] == 2003.0


def _processes_naming(text: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with suppress(OSError):
            if text in cmdline.read_text():
                found.append(int(cmdline.parent.name))
    return found


def _answers(port: int) -> bool:
    with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


def test_replicas_run_measures_the_primary_alone_and_the_replicas_side_by_side_and_leaves_nothing(tmp_path):
    output = io.StringIO()
    clusters_before = set(Path(tempfile.gettempdir()).glob(f"{REPLICA_CLUSTERS_PREFIX}*"))

    call_command(
        "bench", "--replicas", "--transactions", "2000", "--accounts", "200", "--duration", "1",
        "--connections", "2", "--warmup", "0", "--workers", "1", "--routes", "blocks", "transactions",
        "--port", "8170", "--output", str(tmp_path), stdout=output,
    )

    report = json.loads(next(tmp_path.glob("results-*.json")).read_text())
    assert report["replicas"]["count"] == 2
    assert all(reads > 0 for reads in report["replicas"]["reads"])
    assert {route["family"] for route in report["routes"]} == {"blocks", "transactions"}
    for route in report["routes"]:
        assert route["status"] == {"primary": 200, "replicas": 200}
        assert route["difference"] is None
        for name in ("primary", "replicas"):
            assert route["results"][name]["c2"]["requests"] > 0
            assert route["results"][name]["c2"]["errors"] == 0
    printed = output.getvalue()
    assert "| URL | primary req/s | p50 ms | p99 ms | replicas req/s | p50 ms | p99 ms | ratio | errors |" in printed
    assert REPLICAS_NOTE in printed
    assert "Every URL answered alike on the primary and on the replicas." in printed
    assert set(Path(tempfile.gettempdir()).glob(f"{REPLICA_CLUSTERS_PREFIX}*")) == clusters_before
    assert _processes_naming(REPLICA_CLUSTERS_PREFIX) == []
    assert not _answers(8170) and not _answers(8172)
