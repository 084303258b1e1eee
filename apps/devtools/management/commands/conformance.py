import json
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import connection

from apps.devtools.conformance import case_files, case_folder, cases_dir, run_case_file


class Command(BaseCommand):
    help = (
        "Run the conformance cases against this service on a throwaway database and print "
        "pass and fail counts per folder."
    )

    def add_arguments(self, parser):
        parser.add_argument("folders", nargs="*", help="route families to run (default: all)")
        parser.add_argument("--cases", type=Path, help="cases directory (default: $MIRROR_CONFORMANCE_CASES or ../shared/conformance/cases)")
        parser.add_argument("--json", type=Path, dest="json_out", help="write every test's result here")

    def handle(self, *args, folders, cases, json_out, **options):
        root = cases or cases_dir()
        if not root.is_dir():
            self.stdout.write(f"no conformance cases at {root}: skipped")
            return
        # The cases empty and refill mirror tables: never on the configured database.
        connection.settings_dict["TEST"]["NAME"] = "mirror_conformance"
        original_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            results = [result for path in case_files(root, folders) for result in run_case_file(path, root)]
        finally:
            connection.creation.destroy_test_db(original_name, verbosity=0)
        self._report(results, folders)
        if json_out:
            json_out.write_text(json.dumps([result.__dict__ for result in results], indent=1))

    def _report(self, results, folders: list[str]) -> None:
        passed, failed = Counter(), Counter()
        for result in results:
            folder = case_folder(Path(result.file), folders) if folders else Path(result.file).parts[0]
            (passed if result.passed else failed)[folder] += 1
        width = max([16, *(len(folder) + 2 for folder in passed.keys() | failed.keys())])
        self.stdout.write(f"{'folder':<{width}}{'passed':>8}{'failed':>8}{'total':>8}{'pass %':>8}")
        for folder in sorted(passed.keys() | failed.keys()):
            total = passed[folder] + failed[folder]
            self.stdout.write(
                f"{folder:<{width}}{passed[folder]:>8}{failed[folder]:>8}{total:>8}{100 * passed[folder] / total:>7.1f}%"
            )
        self.stdout.write(f"{sum(passed.values())} passed, {sum(failed.values())} failed")
