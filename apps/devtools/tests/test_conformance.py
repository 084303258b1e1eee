"""The conformance folders listed in `conformance.txt` must pass completely."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from apps.devtools.conformance import (
    case_files,
    cases_dir,
    enforced_folders,
    run_case_file,
)

ROOT = cases_dir()
FOLDERS = enforced_folders(settings.BASE_DIR / "conformance.txt")
FILES = case_files(ROOT, FOLDERS) if ROOT.is_dir() else []


@pytest.mark.skipif(not ROOT.is_dir(), reason=f"no conformance cases at {ROOT}")
@pytest.mark.django_db
@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_case_file_passes(path):
    failures = [result for result in run_case_file(path, ROOT) if not result.passed]
    assert not failures, "\n".join(
        f"{result.name} ({result.url}): {'; '.join(result.differences)}" for result in failures
    )


def test_a_run_without_the_cases_says_so_loudly_at_its_end(tmp_path):
    environment = {**os.environ, "MIRROR_CONFORMANCE_CASES": str(tmp_path / "absent")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", __file__, "-k", "test_case_file_passes"],
        cwd=settings.BASE_DIR, env=environment, capture_output=True, text=True, timeout=120,
    )

    summary = run.stdout[run.stdout.index("CONFORMANCE NOT CHECKED"):]
    assert f"no conformance cases at {tmp_path / 'absent'}" in summary
    assert "1 skipped" in summary
