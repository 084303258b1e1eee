"""The hook tables of a generated ledger (`apps.devtools.generator.ledger`): consistent, served by
the hook routes, whose statements read index ranges (as `apps.common.tests.test_plans` checks the others')."""

import gc
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.common.database.schema import mirror_tables
from apps.common.server.handlers import MirrorWSGIHandler
from apps.common.tests.test_plans import explain, large_relations, plan_problems, serve
from apps.devtools.generator.ledger import HOOK_SLOTS, HOOKS_PER_OWNER, Layout
from apps.devtools.generator.loader import django_conninfo, load_ledger

LAYOUT = Layout(transactions=2_000, accounts=2_000, seed=5)
OWNERS = tuple(range(1020, 3001, 100))
CLEARED_SLOTS = HOOK_SLOTS // 8
MIDDLE = LAYOUT.timestamp(LAYOUT.transactions // 2)


@pytest.fixture(scope="module")
def ledger(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        load_ledger(django_conninfo(), LAYOUT, progress=lambda message: None)
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("truncate " + ", ".join(f'"{table}"' for table in mirror_tables()))


def rows(query: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(query)
        return cursor.fetchall()


@pytest.mark.django_db
def test_every_hundredth_account_owns_hooks(ledger):
    assert rows("select owner_id, count(*), count(*) filter (where deleted) from hook group by 1 order by 1") == [
        (owner, HOOKS_PER_OWNER, int(owner % 200 == 20)) for owner in OWNERS
    ]
    assert rows("select count(*) from hook h left join entity c on c.id = h.contract_id"
        " where c.type is distinct from 'CONTRACT'") == [(0,)]


@pytest.mark.django_db
def test_a_slot_reads_what_its_previous_change_wrote_and_storage_holds_the_last(ledger):
    assert rows(
        "select count(*) from (select value_read, lag(value_written) over"
        " (partition by owner_id, hook_id, key order by consensus_timestamp) as previous from hook_storage_change) c"
        " where previous <> value_read"
    ) == [(0,)]
    assert rows(
        "select count(*) from hook_storage s where value <> (select value_written from hook_storage_change c"
        " where (c.owner_id, c.hook_id, c.key) = (s.owner_id, s.hook_id, s.key)"
        " order by consensus_timestamp desc limit 1)"
    ) == [(0,)]
    assert rows("select count(*), count(*) filter (where deleted) from hook_storage") == [
        (len(OWNERS) * HOOKS_PER_OWNER * HOOK_SLOTS, len(OWNERS) * HOOKS_PER_OWNER * CLEARED_SLOTS)
    ]
    assert rows(
        "select count(*) from hook_storage_change c where not exists"
        " (select from transaction t where t.consensus_timestamp = c.consensus_timestamp)"
    ) == [(0,)]


@pytest.mark.django_db
def test_the_routes_serve_the_generated_hooks(ledger):
    client = Client()
    hooks = client.get("/api/v1/accounts/0.0.1020/hooks").json()["hooks"]
    storage = client.get("/api/v1/accounts/0.0.1020/hooks/1/storage").json()
    before = f"lt:{MIDDLE // 10**9}.{MIDDLE % 10**9:09d}"
    then = client.get(f"/api/v1/accounts/0.0.1020/hooks/1/storage?limit=100&timestamp={before}")

    assert [(hook["hook_id"], hook["deleted"]) for hook in hooks] == [(3, True), (2, False), (1, False)]
    assert len(storage["storage"]) == 25 and storage["links"]["next"]
    # Before the middle of the ledger every slot had its first value; none was cleared yet.
    assert len(then.json()["storage"]) == HOOK_SLOTS
    assert all(slot["value"] not in (None, "0x") for slot in then.json()["storage"])


PLAN_URLS = [
    "/api/v1/accounts/0.0.1020/hooks",
    "/api/v1/accounts/0.0.1020/hooks?hook.id=1&hook.id=2",
    "/api/v1/accounts/0.0.1020/hooks?hook.id=gte:2&order=asc",
    "/api/v1/accounts/0.0.1020/hooks/1/storage",
    "/api/v1/accounts/0.0.1020/hooks/1/storage?order=desc&key=lt:20",
    "/api/v1/accounts/0.0.1020/hooks/1/storage?key=3&key=4",
    f"/api/v1/accounts/0.0.1020/hooks/1/storage?timestamp=lt:{MIDDLE // 10**9}.{MIDDLE % 10**9:09d}",
    f"/api/v1/accounts/0.0.1020/hooks/1/storage?timestamp={MIDDLE // 10**9}&order=desc&key=gte:3",
    "/api/v1/accounts/0.0.1020/hooks/1/storage?timestamp=gt:0&key=3&key=4",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PLAN_URLS)
def test_the_routes_read_index_ranges(ledger, url):
    large = large_relations()
    assert {"hook_storage", "hook_storage_change"} <= large
    with CaptureQueriesContext(connection) as captured:
        response = Client().get(url)
    assert response.status_code == 200, response.content
    statements = [
        query["sql"] for query in captured.captured_queries if query["sql"].lstrip().lower().startswith("select")
    ]
    assert statements
    problems = {sql: found for sql in statements if (found := plan_problems(explain(sql), large))}
    assert not problems, json.dumps(problems, indent=1)


@pytest.mark.django_db
@pytest.mark.parametrize("url", PLAN_URLS)
def test_the_routes_leave_no_reference_cycles(ledger, connection_kept_open, url):
    handler = MirrorWSGIHandler()
    assert serve(handler, url).startswith("200")  # the first request of a shape fills caches that live on
    gc.collect()
    gc.disable()
    try:
        serve(handler, url)
        assert gc.collect() == 0, url
    finally:
        gc.enable()
