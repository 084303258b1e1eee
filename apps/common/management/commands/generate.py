import time

from django.core.management.base import BaseCommand, CommandError

from apps.common.generator.ledger import Layout
from apps.common.generator.loader import DatabaseNotEmpty, django_conninfo, load_ledger, prepare_database


class Command(BaseCommand):
    help = (
        "Write a consistent synthetic ledger (blocks, transactions and transfers, accounts and balance snapshots,"
        " tokens and NFTs, contracts, topics, schedules) into the mirror tables with COPY; deterministic for a seed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--transactions", type=int, required=True)
        parser.add_argument("--accounts", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--database-url", help="a PostgreSQL URL; default: the project's database")
        parser.add_argument("--replace", action="store_true", help="empty the mirror tables first")

    def handle(self, *args, transactions, accounts, seed, database_url, replace, **options):
        if transactions < 1 or accounts < 1:
            raise CommandError("--transactions and --accounts must be positive")
        conninfo = database_url or django_conninfo()
        try:
            prepare_database(conninfo, replace=replace)
        except DatabaseNotEmpty as error:
            raise CommandError(str(error)) from None
        began = time.monotonic()
        counts = load_ledger(conninfo, Layout(transactions=transactions, accounts=accounts, seed=seed))
        seconds = time.monotonic() - began
        total = sum(counts.values())
        self.stderr.write("")
        self.stdout.write(
            f"generated {transactions:,} transactions, {total:,} rows in {seconds:.1f} s"
            f" ({total / seconds:,.0f} rows/s, {transactions / seconds:,.0f} transactions/s)"
        )
