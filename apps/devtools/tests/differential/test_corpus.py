"""The regression corpora: every query recorded over the demo ledger and over a generated ledger
answers as the upstream did."""

from collections import defaultdict

import pytest
from django.core.management import call_command
from django.db import connection

from apps.common import clock
from apps.common.database.schema import mirror_tables
from apps.devtools.conformance import mirror_client
from apps.devtools.differential import corpus
from apps.devtools.differential.compare import Answer
from apps.devtools.generator.loader import django_conninfo, load_ledger
from apps.devtools.management.commands.difftest import DEMO_FIXTURE


def cases_by_route(ledger: str) -> tuple[dict, dict[str, list[dict]]]:
    recorded = corpus.load(ledger)
    by_route = defaultdict(list)
    for case in recorded["cases"]:
        by_route[case["route"]].append(case)
    return recorded, by_route


DEMO, DEMO_CASES = cases_by_route("demo")
GENERATED, GENERATED_CASES = cases_by_route("generated")


def replay(recorded: dict, cases: list[dict]) -> None:
    client = mirror_client(raise_request_exception=False)
    failures = []
    with clock.frozen_at(recorded["recorded_at"]):
        for case in cases:
            response = client.get(case["url"])
            answer = Answer(response.status_code, response.content, {k.lower(): v for k, v in response.headers.items()})
            if differences := corpus.case_differences(case, answer):
                failures.append(f"{case['url']} [{case['mode']}]: {'; '.join(differences)}")
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])


@pytest.fixture
def demo_ledger(db):
    call_command("loadfixtures", DEMO_FIXTURE)


@pytest.mark.parametrize("route", sorted(DEMO_CASES))
def test_every_query_on_the_demo_ledger_answers_as_the_upstream_did(demo_ledger, route):
    replay(DEMO, DEMO_CASES[route])


@pytest.fixture(scope="class")
def generated_ledger(django_db_setup, django_db_blocker):
    """The ledger the generated corpus was recorded on, loaded (committed) for one class of tests."""
    with django_db_blocker.unblock():
        load_ledger(django_conninfo(), corpus.layout_of(GENERATED), progress=lambda message: None)
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("truncate " + ", ".join(f'"{table}"' for table in mirror_tables()))


@pytest.mark.usefixtures("generated_ledger")
class TestGeneratedLedger:
    @pytest.mark.django_db
    @pytest.mark.parametrize("route", sorted(GENERATED_CASES))
    def test_every_query_answers_as_the_upstream_did(self, route):
        replay(GENERATED, GENERATED_CASES[route])


@pytest.mark.parametrize("ledger", ["demo", "generated"])
def test_each_corpus_covers_every_route_with_many_queries(ledger):
    by_route = {"demo": DEMO_CASES, "generated": GENERATED_CASES}[ledger]
    assert len(by_route) >= 30
    assert min(len(cases) for cases in by_route.values()) >= 150


def test_the_generated_corpus_names_the_ledger_it_was_recorded_on():
    assert corpus.layout_of(GENERATED).transactions > 0
    assert corpus.layout_of(DEMO) is None
