"""The plans of the statements a piece of code runs, for tests that assert how a selector reads."""

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext


def plans_of(read: Callable[[], object], *, reading: str = "") -> str:
    """`EXPLAIN (COSTS OFF)` of each statement `read` runs whose SQL contains `reading`, as one text."""
    with CaptureQueriesContext(connection) as captured:
        read()
    found = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            if reading in query["sql"]:
                cursor.execute("explain (costs off) " + query["sql"])
                found.extend(line for (line,) in cursor.fetchall())
    return "\n".join(found)
