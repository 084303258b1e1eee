"""The conformance cases of `/contracts`, `/contracts/{id}` and `/contracts/{id}/state`
pass completely (the `contracts` folder as a whole joins `conformance.txt` once
every contract route passes)."""

import pytest

from apps.common.conformance import case_files, cases_dir, run_case_file

ROOT = cases_dir()
CONTRACTS = ROOT / "contracts"
FILES = (
    [
        path
        for path in case_files(ROOT, ["contracts"])
        if path.parent in (CONTRACTS, CONTRACTS / "{id}", CONTRACTS / "{id}" / "state")
    ]
    if ROOT.is_dir()
    else []
)


@pytest.mark.skipif(not ROOT.is_dir(), reason=f"no conformance cases at {ROOT}")
@pytest.mark.django_db
@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_case_file_passes(path):
    failures = [result for result in run_case_file(path, ROOT) if not result.passed]
    assert not failures, "\n".join(
        f"{result.name} ({result.url}): {'; '.join(result.differences)}" for result in failures
    )
