import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql
from psycopg.conninfo import make_conninfo

from apps.common.benchmark.routes import ROUTES, samples_for, urls
from apps.common.benchmark.runner import (
    PROJECT,
    BenchError,
    fetch,
    json_difference,
    ratio,
    run_wrk,
    services,
)
from apps.common.generator.ledger import Layout
from apps.common.generator.loader import django_conninfo, load_ledger, prepare_database


class Command(BaseCommand):
    help = (
        "Side-by-side benchmark: generate (or reuse) a ledger, start our production server and the upstream on it,"
        " check that both answer each URL of the route mix alike, then measure each with wrk and save"
        " bench/results-<date>.json."
    )

    def add_arguments(self, parser):
        parser.add_argument("--transactions", type=int, default=100_000)
        parser.add_argument("--accounts", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--database-url",
            help="a database generate already filled with these sizes; default: mirror_bench_t<N>_a<M>_s<S>"
            " on the project's PostgreSQL, generated when absent",
        )
        parser.add_argument("--routes", nargs="*", choices=sorted(ROUTES), help="route families (default: all)")
        parser.add_argument("--duration", type=int, default=8, help="seconds per wrk run")
        parser.add_argument("--connections", default="4,16", help="wrk connection counts, comma-separated")
        parser.add_argument("--port", type=int, default=8140)
        parser.add_argument("--upstream-port", type=int, default=5640)
        parser.add_argument("--no-upstream", action="store_true", help="measure our service only")
        parser.add_argument("--workers", type=int, default=os.cpu_count(), help="our server's worker processes")
        parser.add_argument("--output", type=Path, default=PROJECT / "bench")

    def handle(self, *args, **options):
        layout = Layout(transactions=options["transactions"], accounts=options["accounts"], seed=options["seed"])
        connections = [int(value) for value in options["connections"].split(",")]
        conninfo = options["database_url"] or self._bench_database(layout)
        route_urls = urls(samples_for(layout, conninfo), options["routes"])
        targets = 1 if options["no_upstream"] else 2
        self.stdout.write(
            f"{len(route_urls)} URLs x {targets} services x {len(connections)} runs of {options['duration']} s:"
            f" at most {len(route_urls) * targets * len(connections) * options['duration'] / 60:.0f} min"
        )
        output = options["output"]
        output.mkdir(parents=True, exist_ok=True)
        try:
            with services(
                conninfo,
                port=options["port"],
                upstream_port=None if options["no_upstream"] else options["upstream_port"],
                workers=options["workers"],
                log_dir=output,
            ) as bases:
                routes = [
                    self._measure(family, url, bases, connections, options["duration"]) for family, url in route_urls
                ]
        except BenchError as error:
            raise CommandError(str(error)) from None
        report = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "load_average": os.getloadavg()},
            "ledger": {"transactions": layout.transactions, "accounts": layout.accounts, "seed": layout.seed},
            "settings": {"duration_s": options["duration"], "connections": connections, "workers": options["workers"]},
            "routes": routes,
        }
        path = output / f"results-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
        path.write_text(json.dumps(report, indent=1) + "\n")
        self.stdout.write(f"saved {path}")

    def _bench_database(self, layout: Layout) -> str:
        name = f"mirror_bench_t{layout.transactions}_a{layout.accounts}_s{layout.seed}"
        server = django_conninfo()
        with psycopg.connect(make_conninfo(server, dbname="postgres"), autocommit=True) as connection:
            if not connection.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
                connection.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
        conninfo = make_conninfo(server, dbname=name)
        with psycopg.connect(conninfo) as connection:
            has_schema = connection.execute("select to_regclass('record_file') is not null").fetchone()[0]
            blocks = connection.execute("select count(*) from record_file").fetchone()[0] if has_schema else 0
        filled = blocks > 0
        if filled and blocks != layout.blocks:
            raise CommandError(f"{name} holds {blocks} blocks, not {layout.blocks}: drop it or use other sizes")
        if not filled:
            self.stdout.write(f"generating {layout.transactions:,} transactions into {name}")
            prepare_database(conninfo, replace=False)
            began = time.monotonic()
            load_ledger(conninfo, layout)
            self.stderr.write("")
            self.stdout.write(f"generated in {time.monotonic() - began:.0f} s")
        return conninfo

    def _measure(self, family: str, url: str, bases: dict[str, str], connections: list[int], seconds: int) -> dict:
        answers = {name: fetch(base, url) for name, base in bases.items()}
        route = {"family": family, "url": url, "status": {name: answer.status for name, answer in answers.items()}}
        if "upstream" in answers:
            ours, theirs = answers["ours"], answers["upstream"]
            route["served"] = not (ours.status == 404 and theirs.status != 404)
            route["difference"] = (
                f"status {ours.status} in ours, {theirs.status} upstream"
                if ours.status != theirs.status
                else json_difference(ours.body, theirs.body)
            )
        route["results"] = {
            name: {
                f"c{count}": run_wrk(bases[name] + url, connections=count, seconds=seconds) for count in connections
            }
            for name, answer in answers.items()
            if answer.status == 200
        }
        self._print(route, connections)
        return route

    def _print(self, route: dict, connections: list[int]) -> None:
        results = route["results"]
        cells = []
        for count in connections:
            key = f"c{count}"
            ours, theirs = results.get("ours", {}).get(key), results.get("upstream", {}).get(key)
            cell = f"{key}: {_figures(ours) if ours else '-'}"
            if theirs:
                cell += f" | up {_figures(theirs)}"
                if ours:
                    cell += f" | x{ratio(ours['rps'], theirs['rps'])}"
            cells.append(cell)
        if not route.get("served", True):
            note = "  [not served by us yet]"
        elif route.get("difference"):
            note = f"  [differs: {route['difference']}]"
        else:
            note = ""
        self.stdout.write(f"{route['url']}\n    " + "\n    ".join(cells) + note)


def _figures(result: dict) -> str:
    return f"{result['rps']:>7.0f}/s p50 {result['p50_ms']:.1f} p99 {result['p99_ms']:.1f}"
