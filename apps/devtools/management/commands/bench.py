import argparse
import json
import os
import statistics
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.devtools.benchmark.routes import ROUTES, is_list_route, samples_for, urls
from apps.devtools.benchmark.runner import (
    PROJECT,
    BenchError,
    Service,
    fetch,
    json_difference,
    our_service,
    ratio,
    run_wrk,
    run_wrk_median,
    services,
)
from apps.devtools.generator.ledger import Layout
from apps.devtools.generator.loader import DatabaseNotEmpty, generated_database


class Command(BaseCommand):
    help = (
        "Side-by-side benchmark: generate (or reuse) a ledger, start our production server and the upstream on it,"
        " check that both answer each URL of the route mix alike, then measure each with wrk (requests per second,"
        " p50, p99, server CPU per request) and save bench/results-<date>.json. --scaling N:M measures our list"
        " routes on a ledger of N transactions and M accounts too and compares their p50."
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
        parser.add_argument(
            "--repeat", type=int, default=1,
            help="wrk runs per service and connection count; the figures are the run with the median rate",
        )
        parser.add_argument(
            "--warmup", type=int, default=1, help="seconds of unmeasured load on each URL before its runs"
        )
        parser.add_argument("--port", type=int, default=8140)
        parser.add_argument("--upstream-port", type=int, default=5640)
        parser.add_argument("--no-upstream", action="store_true", help="measure our service only")
        parser.add_argument("--workers", type=int, default=os.cpu_count(), help="our server's worker processes")
        parser.add_argument("--output", type=Path, default=PROJECT / "bench")
        parser.add_argument(
            "--scaling", metavar="N:M", type=_sizes,
            help="also measure our list routes on N transactions and M accounts and print the p50 ratio"
            " (this ledger's over that one's); implies --no-upstream",
        )

    def handle(self, *args, **options):
        layout = Layout(transactions=options["transactions"], accounts=options["accounts"], seed=options["seed"])
        connections = [int(value) for value in options["connections"].split(",")]
        if options["repeat"] < 1:
            raise CommandError("--repeat must be at least 1")
        output = options["output"]
        output.mkdir(parents=True, exist_ok=True)
        report = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "load_average": os.getloadavg()},
            "ledger": _ledger(layout),
            "settings": {
                "duration_s": options["duration"], "connections": connections, "repeat": options["repeat"],
                "workers": options["workers"],
            },
        }
        if options["scaling"]:
            transactions, accounts = options["scaling"]
            base = Layout(transactions=transactions, accounts=accounts, seed=options["seed"])
            report["baseline_ledger"] = _ledger(base)
            baseline, routes = self._run_scaling(base, layout, options, connections)
            report["routes"], report["baseline_routes"] = routes, baseline
            report["scaling"] = self._scaling(baseline, routes, connections)
        else:
            report["routes"] = self._run(
                layout, options["database_url"], options, connections, list_routes_only=False,
                upstream=not options["no_upstream"],
            )
            report["cpu"] = self._cpu_summary(report["routes"], connections)
        report["machine"]["load_average_after"] = os.getloadavg()
        path = output / f"results-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
        path.write_text(json.dumps(report, indent=1) + "\n")
        self.stdout.write(f"saved {path}")

    def _run(self, layout: Layout, database_url: str | None, options: dict, connections: list[int], *,
             list_routes_only: bool, upstream: bool) -> list[dict]:
        conninfo = database_url or self._bench_database(layout)
        route_urls = [
            (family, url) for family, url in urls(samples_for(layout, conninfo), options["routes"])
            if not list_routes_only or is_list_route(url)
        ]
        targets = 2 if upstream else 1
        self.stdout.write(
            f"{layout.transactions:,} transactions: {len(route_urls)} URLs x {targets} services"
            f" x {len(connections) * options['repeat']} runs of {options['duration']} s: at most"
            f" {len(route_urls) * targets * len(connections) * options['repeat'] * options['duration'] / 60:.0f} min"
        )
        try:
            with services(
                conninfo,
                port=options["port"],
                upstream_port=options["upstream_port"] if upstream else None,
                workers=options["workers"],
                log_dir=options["output"],
            ) as running:
                return [
                    self._measure(family, url, running, connections, options)
                    for family, url in route_urls
                ]
        except BenchError as error:
            raise CommandError(str(error)) from None

    def _run_scaling(
        self, base: Layout, layout: Layout, options: dict, connections: list[int]
    ) -> tuple[list[dict], list[dict]]:
        """Our list routes on both ledgers, a server on each, the two measured by turns per route
        and connection count: the machine's load then weighs on both figures of a ratio alike."""
        ledgers = [(base, self._bench_database(base)), (layout, options["database_url"] or self._bench_database(layout))]
        templates = [
            [(family, url) for family, url in urls(samples_for(size, conninfo), options["routes"]) if is_list_route(url)]
            for size, conninfo in ledgers
        ]
        self.stdout.write(f"{len(templates[0])} list routes on two ledgers, measured by turns")
        try:
            return self._measure_by_turns(ledgers, templates, options, connections)
        except BenchError as error:
            raise CommandError(str(error)) from None

    def _measure_by_turns(
        self, ledgers: list, templates: list, options: dict, connections: list[int]
    ) -> tuple[list[dict], list[dict]]:
        with ExitStack() as stack:
            running = [
                stack.enter_context(
                    our_service(conninfo, options["port"] + 2 * index, options["workers"],
                                options["output"] / f"ours-{options['port'] + 2 * index}.log")
                )
                for index, (_, conninfo) in enumerate(ledgers)
            ]
            measured = ([], [])
            for pair in zip(*templates, strict=True):
                for service, (_, url) in zip(running, pair, strict=True):
                    if options["warmup"]:
                        run_wrk(service.base + url, connections=max(connections), seconds=options["warmup"],
                                server_pid=service.pid)
                results = ({}, {})
                for count in connections:
                    for index, (service, (_, url)) in enumerate(zip(running, pair, strict=True)):
                        results[index][f"c{count}"] = run_wrk_median(
                            service.base + url, connections=count, seconds=options["duration"],
                            server_pid=service.pid, repeat=options["repeat"],
                        )
                for index, (family, url) in enumerate(pair):
                    measured[index].append({"family": family, "url": url, "results": {"ours": results[index]}})
        return measured

    def _scaling(self, baseline: list[dict], routes: list[dict], connections: list[int]) -> list[dict]:
        """p50 per list route on both ledgers (matched by position: the same template) and their ratio."""
        rows = []
        self.stdout.write("p50 (ms) on the baseline ledger -> this ledger:")
        for small, large in zip(baseline, routes, strict=True):
            row = {"family": large["family"], "url": large["url"], "baseline_url": small["url"]}
            cells = []
            for count in connections:
                key = f"c{count}"
                before = small["results"].get("ours", {}).get(key)
                after = large["results"].get("ours", {}).get(key)
                if before and after:
                    row[key] = {"p50_ms": [before["p50_ms"], after["p50_ms"]],
                                "ratio": ratio(after["p50_ms"], before["p50_ms"])}
                    cells.append(f"{key} {before['p50_ms']:.1f} -> {after['p50_ms']:.1f} x{row[key]['ratio']}")
            rows.append(row)
            self.stdout.write(f"  {large['url']}: " + ("; ".join(cells) or "not measured"))
        return rows

    def _cpu_summary(self, routes: list[dict], connections: list[int]) -> dict:
        """Median over the routes both served of our CPU ms per request, the upstream's, and their ratio."""
        summary = {}
        for count in connections:
            key = f"c{count}"
            pairs = [
                (route["results"]["ours"][key]["cpu_ms_per_request"],
                 route["results"]["upstream"][key]["cpu_ms_per_request"])
                for route in routes
                if key in route["results"].get("ours", {}) and key in route["results"].get("upstream", {})
            ]
            pairs = [(ours, theirs) for ours, theirs in pairs if ours is not None and theirs]
            if pairs:
                summary[key] = {
                    "ours_ms": statistics.median(ours for ours, _ in pairs),
                    "upstream_ms": statistics.median(theirs for _, theirs in pairs),
                    "ratio": statistics.median(ours / theirs for ours, theirs in pairs),
                }
                figures = summary[key]
                self.stdout.write(
                    f"CPU per request, {key}, median of {len(pairs)} routes: ours {figures['ours_ms']:.2f} ms,"
                    f" upstream {figures['upstream_ms']:.2f} ms, ratio {figures['ratio']:.2f}"
                )
        return summary

    def _bench_database(self, layout: Layout) -> str:
        try:
            return generated_database(layout, say=self.stdout.write)
        except DatabaseNotEmpty as error:
            raise CommandError(str(error)) from None

    def _measure(
        self, family: str, url: str, running: dict[str, Service], connections: list[int], options: dict
    ) -> dict:
        warmup = options["warmup"]
        answers = {name: fetch(service.base, url) for name, service in running.items()}
        route = {"family": family, "url": url, "status": {name: answer.status for name, answer in answers.items()}}
        if "upstream" in answers:
            ours, theirs = answers["ours"], answers["upstream"]
            route["served"] = not (ours.status == 404 and theirs.status != 404)
            route["difference"] = (
                f"status {ours.status} in ours, {theirs.status} upstream"
                if ours.status != theirs.status
                else json_difference(ours.body, theirs.body)
            )
        for name, answer in answers.items():
            if answer.status == 200 and warmup:
                # Unmeasured: the first requests of a URL on each worker and connection (prepared
                # statements, caches, the JIT of the upstream's Node) would otherwise count in p99.
                run_wrk(running[name].base + url, connections=max(connections), seconds=warmup,
                        server_pid=running[name].pid)
        route["results"] = {
            name: {
                f"c{count}": run_wrk_median(
                    running[name].base + url, connections=count, seconds=options["duration"],
                    server_pid=running[name].pid, repeat=options["repeat"],
                )
                for count in connections
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
                    cell += f" cpu x{ratio(ours['cpu_ms_per_request'], theirs['cpu_ms_per_request'])}"
            cells.append(cell)
        if not route.get("served", True):
            note = "  [not served by us yet]"
        elif route.get("difference"):
            note = f"  [differs: {route['difference']}]"
        else:
            note = ""
        self.stdout.write(f"{route['url']}\n    " + "\n    ".join(cells) + note)


def _figures(result: dict) -> str:
    cpu = result["cpu_ms_per_request"]
    runs = result.get("runs_rps", [])
    return (
        f"{result['rps']:>7.0f}/s p50 {result['p50_ms']:.1f} p99 {result['p99_ms']:.1f}"
        f" cpu {'-' if cpu is None else f'{cpu:.2f}'} ms/req"
        + (f" (runs {'/'.join(f'{rps:.0f}' for rps in runs)})" if len(runs) > 1 else "")
    )


def _ledger(layout: Layout) -> dict:
    return {"transactions": layout.transactions, "accounts": layout.accounts, "seed": layout.seed}


def _sizes(value: str) -> tuple[int, int]:
    try:
        transactions, accounts = (int(part) for part in value.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected TRANSACTIONS:ACCOUNTS, e.g. 100000:10000") from None
    if transactions < 1 or accounts < 1:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return transactions, accounts
