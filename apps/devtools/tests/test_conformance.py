"""The conformance folders listed in `conformance.txt` must pass completely."""

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
