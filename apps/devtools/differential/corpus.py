"""The regression corpus: the differential tester's queries over the demo ledger and over a
generated ledger, each with the upstream's answer recorded, which the test suite replays
against our service alone.

One file per ledger (`fixtures/differential/<ledger>.json`): `{"ledger": "demo",
"recorded_at": <ns>, "seed": 1, "layout": null, "cases": [case, ...]}`, the layout being the
generated ledger's (`{"transactions", "accounts", "seed"}`) or null for the demo; a case being
`{"route", "mode", "url", "status", "headers": {name: value}, "json": body}` or, for a body
over `INLINE_BYTES`, `"json_sha256"` (`compare.canonical_digest`) in place of `json`.
A query the upstream answered 5xx is not kept: the README says why we answer otherwise.
A query we still answer otherwise is kept apart, under `open`, with what differs: the
differences left to fix (the suite replays `cases` only).
"""

import dataclasses
import json
import time
from pathlib import Path

from django.conf import settings

from apps.devtools.differential.compare import (
    COMPARED_HEADERS,
    Answer,
    canonical_digest,
    json_differences,
)
from apps.devtools.differential.runner import Report
from apps.devtools.generator.ledger import Layout

CORPUS_DIR = Path(settings.BASE_DIR) / "fixtures" / "differential"
INLINE_BYTES = 2048


def record(report: Report, ledger: str, seed: int, layout: Layout | None = None, path: Path | None = None) -> Path:
    cases, still_open = [], []
    for outcome in report.outcomes:
        theirs = outcome.theirs
        if theirs.status >= 500:
            continue
        if outcome.differences:
            still_open.append({"url": outcome.query.url, "differs": [kind for kind, _ in outcome.differences]})
            continue
        case = {
            "route": outcome.query.route,
            "mode": outcome.query.mode,
            "url": outcome.query.url,
            "status": theirs.status,
            "headers": {name: theirs.headers[name] for name in COMPARED_HEADERS if name in theirs.headers},
        }
        document = theirs.json()
        if len(theirs.body) <= INLINE_BYTES:
            case["json"] = document
        else:
            case["json_sha256"] = canonical_digest(document)
        cases.append(case)
    path = path or CORPUS_DIR / f"{ledger}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    corpus = {
        "ledger": ledger,
        "recorded_at": time.time_ns(),
        "seed": seed,
        "layout": dataclasses.asdict(layout) if layout else None,
        "cases": cases,
        "open": still_open,
    }
    path.write_text(json.dumps(corpus, indent=0, separators=(",", ":")) + "\n")
    return path


def load(ledger: str) -> dict:
    return json.loads((CORPUS_DIR / f"{ledger}.json").read_text())


def layout_of(corpus: dict) -> Layout | None:
    """The generated ledger the corpus was recorded on; None for the demo ledger."""
    return Layout(**corpus["layout"]) if corpus.get("layout") else None


def case_differences(case: dict, answer: Answer) -> list[str]:
    """How our answer differs from the recorded one; [] when it does not."""
    found = []
    if answer.status != case["status"]:
        found.append(f"status {answer.status}, recorded {case['status']}")
    for name in COMPARED_HEADERS:
        if answer.headers.get(name) != case["headers"].get(name):
            found.append(f"header {name}: {answer.headers.get(name)!r}, recorded {case['headers'].get(name)!r}")
    try:
        document = answer.json()
    except ValueError:
        return [*found, "body not JSON"]
    if "json" in case:
        found += [f"body {path} {what}" for path, what in json_differences(document, case["json"])]
    elif canonical_digest(document) != case["json_sha256"]:
        found.append("body differs from the recorded digest")
    return found
