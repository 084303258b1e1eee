from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.common.fixtures import FixtureError, load_fixture_files


class Command(BaseCommand):
    help = "Load mirror rows (table -> rows, as PostgreSQL renders them to JSON) in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--replace", action="store_true", help="empty every mirror table first")

    def handle(self, *args, files, replace, **options):
        try:
            counts = load_fixture_files(files, replace=replace)
        except FixtureError as error:
            raise CommandError(f"nothing loaded: {error}") from None
        total = sum(counts.values())
        self.stdout.write(f"loaded {total} rows into {len(counts)} tables")
