from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.common.database.fixtures import FixtureError, load_fixture_files


class Command(BaseCommand):
    help = "Load mirror rows (table -> rows, as PostgreSQL renders them to JSON) in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--replace", action="store_true", help="empty every mirror table first")
        parser.add_argument(
            "--if-empty", action="store_true", help="load only when every mirror table is empty"
        )

    def handle(self, *args, files, replace, if_empty, **options):
        if replace and if_empty:
            raise CommandError("--replace and --if-empty exclude each other")
        try:
            counts = load_fixture_files(files, replace=replace, if_empty=if_empty)
        except FixtureError as error:
            raise CommandError(f"nothing loaded: {error}") from None
        if counts is None:
            self.stdout.write("the mirror already has rows: nothing loaded")
            return
        total = sum(counts.values())
        self.stdout.write(f"loaded {total} rows into {len(counts)} tables")
