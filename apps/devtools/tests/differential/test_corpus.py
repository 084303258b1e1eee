"""The regression corpus: every recorded query over the demo ledger answers as the upstream did."""

from collections import defaultdict

import pytest
from django.core.management import call_command

from apps.common import clock
from apps.devtools.conformance import mirror_client
from apps.devtools.differential import corpus
from apps.devtools.differential.compare import Answer
from apps.devtools.management.commands.difftest import DEMO_FIXTURE

CORPUS = corpus.load("demo")
CASES_BY_ROUTE = defaultdict(list)
for case in CORPUS["cases"]:
    CASES_BY_ROUTE[case["route"]].append(case)


@pytest.fixture
def demo_ledger(db):
    call_command("loadfixtures", DEMO_FIXTURE)


@pytest.mark.parametrize("route", sorted(CASES_BY_ROUTE))
def test_every_recorded_query_answers_as_the_upstream_did(demo_ledger, route):
    client = mirror_client(raise_request_exception=False)
    failures = []
    with clock.frozen_at(CORPUS["recorded_at"]):
        for case in CASES_BY_ROUTE[route]:
            response = client.get(case["url"])
            answer = Answer(response.status_code, response.content, {k.lower(): v for k, v in response.headers.items()})
            if differences := corpus.case_differences(case, answer):
                failures.append(f"{case['url']} [{case['mode']}]: {'; '.join(differences)}")
    assert not failures, f"{len(failures)} of {len(CASES_BY_ROUTE[route])} differ:\n" + "\n".join(failures[:20])


def test_the_corpus_covers_every_route_with_many_queries():
    assert len(CASES_BY_ROUTE) >= 30
    assert min(len(cases) for cases in CASES_BY_ROUTE.values()) >= 150
