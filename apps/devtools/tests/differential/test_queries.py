from urllib.parse import parse_qsl, urlsplit

from apps.devtools.differential.catalogue import (
    BOUNDARY_NUMBERS,
    OPERATORS,
    REPEATS,
    Pool,
)
from apps.devtools.differential.queries import queries_for

POOL = Pool(
    {"account": ["0.0.1001", "0.0.1002"], "timestamp": ["1795168800.000000001"], "token": ["0.0.7"]},
    {("nft_token", "serial"): [("0.0.9", "3")]},
)


def test_a_run_is_a_function_of_its_seed():
    first = queries_for("/api/v1/accounts", ["account.id", "limit"], POOL, 120, seed=1)

    assert first == queries_for("/api/v1/accounts", ["account.id", "limit"], POOL, 120, seed=1)
    assert first != queries_for("/api/v1/accounts", ["account.id", "limit"], POOL, 120, seed=2)
    assert len(first) == 120


def test_the_sweep_asks_every_operator_boundary_and_repeat_of_each_parameter():
    queries = queries_for("/api/v1/accounts", ["account.id"], POOL, 1000, seed=1)
    values = [parse_qsl(urlsplit(query.url).query, keep_blank_values=True) for query in queries]

    operators = {pairs[0][1].split(":")[0] for pairs in values if len(pairs) == 1 and ":" in pairs[0][1]}
    assert set(OPERATORS) <= operators
    assert {number for number in BOUNDARY_NUMBERS} <= {pairs[0][1] for pairs in values if len(pairs) == 1}
    assert set(REPEATS) <= {len(pairs) for pairs in values if {name for name, _ in pairs} == {"account.id"}}
    assert {"unknown", "Limit", "ACCOUNT.ID"} <= {name for pairs in values for name, _ in pairs}
    assert {query.mode for query in queries} >= {"valid", "operator", "boundary", "malformed", "repeat", "case",
                                                  "unknown", "combination"}


def test_a_quarter_of_the_queries_are_random_combinations_when_the_sweep_is_larger():
    queries = queries_for("/api/v1/accounts", ["account.id", "timestamp"], POOL, 40, seed=1)

    assert sum(query.mode == "combination" for query in queries) == 10


def test_path_values_are_read_together_and_bad_ones_are_asked():
    queries = queries_for("/api/v1/tokens/{nft_token}/nfts/{serial}", [], POOL, 200, seed=1)
    paths = {urlsplit(query.url).path for query in queries}

    assert "/api/v1/tokens/0.0.9/nfts/3" in paths
    assert "/api/v1/tokens/0.0.9/nfts/-1" in paths
    assert any(query.mode == "bad_path" and "%D9%A1" in query.url for query in queries)
