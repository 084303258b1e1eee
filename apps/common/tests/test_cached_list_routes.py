"""The list routes of accounts, contracts, tokens and schedules answer from the
list-route cache; their single-id lookups stay fresh."""

import pytest
from django.conf import settings
from django.core.management import call_command

DEMO = settings.BASE_DIR / "fixtures" / "demo.json"

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "results_key"),
    [
        ("/api/v1/accounts", "accounts"),
        ("/api/v1/contracts", "contracts"),
        ("/api/v1/tokens", "tokens"),
        ("/api/v1/schedules", "schedules"),
    ],
)
def test_a_list_answer_is_kept_for_its_max_age(client, path, results_key):
    before = client.get(path)
    call_command("loadfixtures", DEMO)

    again = client.get(path)
    other_query = client.get(path, {"limit": 5})

    assert before.json()[results_key] == []
    assert again.content == before.content
    assert again["Cache-Control"] == before["Cache-Control"] == "public, max-age=10"
    assert other_query.json()[results_key] != []


@pytest.mark.parametrize(
    ("first", "again", "results_key"),
    [
        ("/api/v1/accounts?account.id=0.0.98", "/api/v1/accounts?account.id=0%2E0%2E98", "accounts"),
        ("/api/v1/tokens?name=Aurora+Credit", "/api/v1/tokens?name=Aurora%20Credit", "tokens"),
        ("/api/v1/tokens?name=Aurora%20Credit", "/api/v1/tokens?name=Aurora+Credi%74", "tokens"),
    ],
)
def test_spellings_that_decode_alike_are_read_once(client, first, again, results_key, django_assert_num_queries):
    call_command("loadfixtures", DEMO)
    read = client.get(first)

    with django_assert_num_queries(0):
        kept = client.get(again)

    assert len(read.json()[results_key]) == 1
    assert kept.content == read.content


def test_a_single_account_is_read_fresh(client):
    assert client.get("/api/v1/accounts/0.0.98").status_code == 404
    call_command("loadfixtures", DEMO)

    assert client.get("/api/v1/accounts/0.0.98").status_code == 200
