import argparse
import json
import os
import statistics
import sys
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.common.interrupts import sigterm_as_interrupt
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
    run_wrk_by_turns,
    services,
)
from apps.devtools.generator.ledger import Layout
from apps.devtools.generator.loader import (
    DatabaseNotEmpty,
    generated_database,
    load_ledger,
    prepare_database,
)
from apps.devtools.replicas import ClusterError, ReplicatedClusters

REPLICAS_NOTE = (
    "Both servers run on this machine, as do the primary and the replicas: on a machine of few cores"
    " (two, say) they share the same CPUs, so the ratio measures that reads on replicas answer alike"
    " and what routing them costs, not how throughput scales with replicas on hosts of their own."
)
# The throwaway clusters' directory names start with it: a test finds their processes by it.
REPLICA_CLUSTERS_PREFIX = "mirror-bench-replicas-"


class Command(BaseCommand):
    help = (
        "Side-by-side benchmark: generate (or reuse) a ledger, start our production server and the upstream on it,"
        " check that both answer each URL of the route mix alike, then measure each with wrk (requests per second,"
        " p50, p99, server CPU per request) and save bench/results-<date>.json. --scaling N:M measures our list"
        " routes on a ledger of N transactions and M accounts too and compares their p50. --replicas N measures"
        " our server on a throwaway primary alone and with N streaming replicas of it, side by side."
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
        parser.add_argument("--connections", default="4,16,64", help="wrk connection counts, comma-separated")
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
        parser.add_argument(
            "--replicas", metavar="N", type=int, nargs="?", const=2,
            help="generate the ledger into a throwaway primary cluster, make N (default 2) streaming replicas"
            " of it, and measure our server reading the primary alone and reading the replicas, by turns;"
            " no upstream. Every cluster is deleted at the end",
        )

    def handle(self, *args, **options):
        layout = Layout(transactions=options["transactions"], accounts=options["accounts"], seed=options["seed"])
        connections = [int(value) for value in options["connections"].split(",")]
        if options["repeat"] < 1:
            raise CommandError("--repeat must be at least 1")
        if options["replicas"] is not None and (
            options["replicas"] < 1 or options["scaling"] or options["database_url"]
        ):
            raise CommandError("--replicas takes at least 1 replica, and neither --scaling nor --database-url")
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
        elif options["replicas"] is not None:
            report["replicas"] = {"count": options["replicas"], "note": REPLICAS_NOTE}
            report["routes"], report["replicas"]["reads"] = self._run_replicas(layout, options, connections)
            self._print_replicas(report, connections)
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
                    figures = run_wrk_by_turns(
                        {index: (service.base + url, service.pid)
                         for index, (service, (_, url)) in enumerate(zip(running, pair, strict=True))},
                        connections=count, seconds=options["duration"], repeat=options["repeat"],
                    )
                    for index, found in figures.items():
                        results[index][f"c{count}"] = found
                for index, (family, url) in enumerate(pair):
                    measured[index].append({"family": family, "url": url, "results": {"ours": results[index]}})
        return measured

    def _run_replicas(self, layout: Layout, options: dict, connections: list[int]) -> tuple[list[dict], list[int]]:
        """The routes measured on two servers by turns, one reading the primary, one its replicas; and
        the transactions each replica ran meanwhile (all of the second server's reads went there)."""
        # Also on SIGTERM: the clusters are deleted on the way out.
        with sigterm_as_interrupt():
            clusters = ReplicatedClusters(options["replicas"], prefix=REPLICA_CLUSTERS_PREFIX)
            try:
                self.stdout.write(f"a primary and {options['replicas']} replicas in {clusters.root}")
                clusters.start_primary()
                conninfo = clusters.primary.conninfo()
                prepare_database(conninfo, replace=False)
                self.stdout.write(f"generating {layout.transactions:,} transactions into the primary")
                # Logged tables: an unlogged table's rows never reach a replica.
                load_ledger(conninfo, layout)
                sys.stderr.write("\n")
                clusters.start_replicas()
                route_urls = urls(samples_for(layout, conninfo), options["routes"])
                self.stdout.write(
                    f"{len(route_urls)} URLs x 2 servers x {len(connections) * options['repeat']} runs of"
                    f" {options['duration']} s"
                )
                replicas = ",".join(replica.url() for replica in clusters.replicas)
                with ExitStack() as stack:
                    running = {
                        "primary": stack.enter_context(our_service(
                            conninfo, options["port"], options["workers"],
                            options["output"] / f"ours-{options['port']}.log",
                        )),
                        "replicas": stack.enter_context(our_service(
                            conninfo, options["port"] + 2, options["workers"],
                            options["output"] / f"ours-{options['port'] + 2}.log",
                            {"MIRROR_DATABASE_REPLICAS": replicas},
                        )),
                    }
                    before = _replica_transactions(clusters)
                    routes = [
                        self._measure_side_by_side(family, url, running, connections, options)
                        for family, url in route_urls
                    ]
                    after = _replica_transactions(clusters)
                return routes, [ran - was for ran, was in zip(after, before, strict=True)]
            except (BenchError, ClusterError) as error:
                raise CommandError(str(error)) from None
            finally:
                clusters.discard()

    def _measure_side_by_side(
        self, family: str, url: str, running: dict[str, Service], connections: list[int], options: dict
    ) -> dict:
        answers = {name: fetch(service.base, url) for name, service in running.items()}
        primary, replicas = answers["primary"], answers["replicas"]
        route = {
            "family": family, "url": url, "status": {name: answer.status for name, answer in answers.items()},
            "difference": (
                f"status {primary.status} on the primary, {replicas.status} on the replicas"
                if primary.status != replicas.status
                else json_difference(primary.body, replicas.body)
            ),
            "results": {name: {} for name, answer in answers.items() if answer.status == 200},
        }
        for name in route["results"]:
            if options["warmup"]:
                run_wrk(running[name].base + url, connections=max(connections), seconds=options["warmup"],
                        server_pid=running[name].pid)
        self._measure_by_count(route["results"], url, running, connections, options)
        return route

    def _print_replicas(self, report: dict, connections: list[int]) -> None:
        """The report as Markdown: a table per connection count, the primary's and the replicas' figures
        side by side per URL, and the replicas' rate over the primary's."""
        ledger, replicas = report["ledger"], report["replicas"]
        lines = [
            f"# `manage.py bench --replicas {replicas['count']}`, {report['date']}",
            "",
            f"Ledger: {ledger['transactions']:,} transactions, {ledger['accounts']:,} accounts, seed {ledger['seed']};"
            f" {report['machine']['cpus']} CPUs; {report['settings']['workers']} server workers;"
            f" {report['settings']['duration_s']} s per run.",
            "",
            f"> {replicas['note']}",
            "",
            "Transactions each replica ran during the runs (about): "
            + ", ".join(f"replica {index}: {count:,}" for index, count in enumerate(replicas["reads"])) + ".",
        ]
        for count in connections:
            key = f"c{count}"
            lines += [
                "",
                f"## {count} connections",
                "",
                "| URL | primary req/s | p50 ms | p99 ms | replicas req/s | p50 ms | p99 ms | ratio | errors |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            ]
            for route in report["routes"]:
                alone, spread = (route["results"].get(name, {}).get(key) for name in ("primary", "replicas"))
                cells = [f"`{route['url']}`"]
                for figures in (alone, spread):
                    cells += (
                        [f"{figures['rps']:.0f}", f"{figures['p50_ms']:.1f}", f"{figures['p99_ms']:.1f}"]
                        if figures else ["-", "-", "-"]
                    )
                cells.append(str(ratio(spread["rps"], alone["rps"])) if alone and spread else "-")
                cells.append(str(sum(figures["errors"] for figures in (alone, spread) if figures)))
                lines.append("| " + " | ".join(cells) + " |")
        differing = [route for route in report["routes"] if route["difference"]]
        lines += [""] + (
            [f"Answers differ: `{route['url']}`: {route['difference']}" for route in differing]
            or ["Every URL answered alike on the primary and on the replicas."]
        )
        self.stdout.write("\n".join(lines))

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
        route["results"] = {name: {} for name, answer in answers.items() if answer.status == 200}
        self._measure_by_count(route["results"], url, running, connections, options)
        self._print(route, connections)
        return route

    @staticmethod
    def _measure_by_count(
        results: dict[str, dict], url: str, running: dict[str, Service], connections: list[int], options: dict
    ) -> None:
        """Each service's figures at each connection count into `results`, the services taking turns."""
        for count in connections:
            figures = run_wrk_by_turns(
                {name: (running[name].base + url, running[name].pid) for name in results},
                connections=count, seconds=options["duration"], repeat=options["repeat"],
            )
            for name, found in figures.items():
                results[name][f"c{count}"] = found

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


def _replica_transactions(clusters: ReplicatedClusters) -> list[int]:
    """Transactions each replica has run in the mirror database (a hot standby counts its own). A
    backend reports its counts once a second or so: the last moments of a run may be missing."""
    counts = []
    for replica in clusters.replicas:
        with replica.connect() as connection:
            counts.append(connection.execute(
                "select xact_commit + xact_rollback from pg_stat_database where datname = current_database()"
            ).fetchone()[0])
    return counts


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
