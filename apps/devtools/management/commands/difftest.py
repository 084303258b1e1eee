import os
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql
from psycopg.conninfo import make_conninfo

from apps.devtools.benchmark.runner import BenchError, database_url, services
from apps.devtools.differential import corpus
from apps.devtools.differential.catalogue import ROUTES, Pool, route_parameters
from apps.devtools.differential.queries import queries_for
from apps.devtools.differential.runner import render, run, stderr_progress
from apps.devtools.differential.sql import ledger_values, linked_values
from apps.devtools.generator.ledger import Layout
from apps.devtools.generator.loader import (
    DatabaseNotEmpty,
    django_conninfo,
    generated_database,
    prepare_database,
)

DEMO_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
DEMO_DATABASE = "mirror_difftest_demo"


class Command(BaseCommand):
    help = (
        "Differential test: generate queries for every route the upstream's Node service answers, send each to"
        " our production server and to the upstream comparator over the same ledger, and report the differences"
        " by class (status, body, headers a client reads) with the smallest query showing each."
    )

    def add_arguments(self, parser):
        parser.add_argument("--ledger", choices=("demo", "generated"), action="append",
                            help="the ledger(s) to run on (default: both)")
        parser.add_argument("--queries", type=int, default=250, help="queries per route (default 250)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--routes", default="", help="a regular expression the route templates must match")
        parser.add_argument("--transactions", type=int, default=100_000, help="the generated ledger's size")
        parser.add_argument("--accounts", type=int, default=10_000)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--examples", type=int, default=1, help="queries shown per class of difference")
        parser.add_argument("--port", type=int, default=8190)
        parser.add_argument("--upstream-port", type=int, default=8192, help="(our server takes --port and the next)")
        parser.add_argument("--record", action="store_true",
                            help="write each ledger's queries and the upstream's answers as its regression corpus")
        parser.add_argument("--output", type=Path, help="also write the report to this file")

    def handle(self, *args, **options):
        # The upstream's test configuration presents `delegation_address`, as this service always does.
        os.environ.setdefault("HIERO_MIRROR_REST_RESPONSE_ENABLEDELEGATIONADDRESS", "true")
        routes = [route for route in ROUTES if re.search(options["routes"], route)]
        if not routes:
            raise CommandError("no route matches --routes")
        reports = []
        for ledger in options["ledger"] or ["demo", "generated"]:
            layout = (
                Layout(transactions=options["transactions"], accounts=options["accounts"], seed=1)
                if ledger == "generated" else None
            )
            conninfo = self._ledger(layout)
            pool = Pool(ledger_values(conninfo), linked_values(conninfo))
            queries = [
                query
                for route in routes
                for query in queries_for(
                    route, route_parameters(route, _sample_path(route, pool)), pool, options["queries"], options["seed"]
                )
            ]
            self.stdout.write(f"{ledger} ledger: {len(routes)} routes, {len(queries):,} queries")
            try:
                with tempfile.TemporaryDirectory() as logs, services(
                    conninfo, port=options["port"], upstream_port=options["upstream_port"], workers=2,
                    log_dir=Path(logs),
                ) as running:
                    report = run(queries, running["ours"].base, running["upstream"].base,
                                 threads=options["threads"], progress=stderr_progress)
            except BenchError as error:
                raise CommandError(str(error)) from None
            text = f"# {ledger} ledger\n\n{render(report, examples=options['examples'])}\n"
            self.stdout.write(text)
            reports.append(text)
            if options["record"]:
                path = corpus.record(report, ledger, options["seed"], layout)
                self.stdout.write(f"recorded the corpus in {path}")
        if options["output"]:
            options["output"].write_text("\n".join(reports))

    def _ledger(self, layout: Layout | None) -> str:
        """The demo ledger when `layout` is None, else the generated ledger of that layout."""
        if layout is None:
            return _demo_database()
        try:
            return generated_database(layout, say=self.stdout.write)
        except DatabaseNotEmpty as error:
            raise CommandError(str(error)) from None


def _demo_database() -> str:
    """A database holding exactly the demo fixture, made afresh."""
    server = django_conninfo()
    with psycopg.connect(make_conninfo(server, dbname="postgres"), autocommit=True) as connection:
        connection.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(DEMO_DATABASE)))
        connection.execute(sql.SQL("create database {}").format(sql.Identifier(DEMO_DATABASE)))
    conninfo = make_conninfo(server, dbname=DEMO_DATABASE)
    prepare_database(conninfo, replace=False)
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(conninfo),
        "MIRROR_SECRET_KEY": os.environ.get("MIRROR_SECRET_KEY") or secrets.token_urlsafe(50),
    }
    subprocess.run(
        [sys.executable, Path(settings.BASE_DIR) / "manage.py", "loadfixtures", DEMO_FIXTURE],
        env=environment, check=True, capture_output=True,
    )
    return conninfo


def _sample_path(route: str, pool: Pool) -> str:
    """A path of the route our URLconf resolves (to read its declared parameters)."""
    return re.sub(r"\{(\w+)\}", lambda match: (pool.values.get(match[1]) or ["1"])[0], route)
