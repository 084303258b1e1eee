"""The queries the differential tester sends: for each route, a sweep over its parameters
(every operator, the boundary and malformed values, the repeat counts, unknown names and
case variants, bad path values), completed with random valid combinations. A run is a
function of its seed and the ledger's values only."""

import random
import re
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from apps.devtools.differential.catalogue import (
    BOUNDARY_NUMBERS,
    FIXED_VALUES,
    MALFORMED,
    OPERATORS,
    PARAMETER_KINDS,
    REPEATS,
    Pool,
)

_PATH_PARAMETER = re.compile(r"\{(\w+)\}")
BAD_PATH_VALUES = (
    "0",
    "-1",
    str(2**38),
    str(2**63),
    "0.0.-1",
    "1.2.3.4",
    f"0.0.{2**38}",
    "0x" + "g" * 40,
    "0x" + "a" * 39,
    "abc",
    "1" * 80,
    "\u0661\u0662\u0663",
    "1.5",
    "0.0.2-1-1",
)


@dataclass(frozen=True)
class Query:
    route: str  # the route's path template
    mode: str  # what the query probes (see `queries_for`)
    url: str


def queries_for(route: str, parameters: list[str], pool: Pool, count: int, seed: int) -> list[Query]:
    """`count` queries of `route`: as much of the sweep as fits in three quarters of them
    (chosen at random when it does not all fit), then random valid combinations."""
    rng = random.Random(f"{seed}:{route}")
    sweep = list(_sweep(route, parameters, pool, rng))
    rng.shuffle(sweep)
    sweep = sweep[: count - count // 4]
    combinations = [_combination(route, parameters, pool, rng) for _ in range(count - len(sweep))]
    return sweep + combinations


def _sweep(route: str, parameters: list[str], pool: Pool, rng: random.Random):
    yield _query(route, "valid", pool, rng, [])
    for name in parameters:
        kind = PARAMETER_KINDS.get(name, "free")
        for operator in OPERATORS:
            yield _query(route, "operator", pool, rng, [(name, f"{operator}:{_value(kind, pool, rng)}")])
        yield _query(route, "valid", pool, rng, [(name, _value(kind, pool, rng))])
        yield _query(route, "operator", pool, rng, [(name, f"xx:{_value(kind, pool, rng)}")])
        for number in BOUNDARY_NUMBERS:
            yield _query(route, "boundary", pool, rng, [(name, number)])
            yield _query(route, "boundary", pool, rng, [(name, f"{rng.choice(OPERATORS)}:{number}")])
        for text in MALFORMED:
            yield _query(route, "malformed", pool, rng, [(name, text)])
        for repeat in REPEATS:
            values = [(name, f"{rng.choice(('eq', 'gte', 'lte'))}:{_value(kind, pool, rng)}") for _ in range(repeat)]
            yield _query(route, "repeat", pool, rng, values)
        yield _query(route, "case", pool, rng, [(name.upper(), _value(kind, pool, rng))])
    yield _query(route, "unknown", pool, rng, [("unknown", "1")])
    yield _query(route, "unknown", pool, rng, [("Limit", "2")])
    for parameter in _PATH_PARAMETER.findall(route):
        for bad in BAD_PATH_VALUES:
            yield _query(route, "bad_path", pool, rng, [], {parameter: bad})


def _combination(route: str, parameters: list[str], pool: Pool, rng: random.Random) -> Query:
    chosen = rng.sample(parameters, min(len(parameters), rng.randint(1, 3))) if parameters else []
    pairs = []
    for name in chosen:
        kind = PARAMETER_KINDS.get(name, "free")
        for _ in range(rng.choice((1, 1, 2))):
            operator = rng.choice((*OPERATORS, "")) if kind not in FIXED_VALUES else ""
            value = _value(kind, pool, rng)
            pairs.append((name, f"{operator}:{value}" if operator else value))
    return _query(route, "combination", pool, rng, pairs)


def _value(kind: str, pool: Pool, rng: random.Random) -> str:
    if kind in FIXED_VALUES:
        return rng.choice(FIXED_VALUES[kind])
    if kind == "free":
        return rng.choice(("1", "a", "0.0.2", "true"))
    return pool.pick(kind, rng)


def _query(route: str, mode: str, pool: Pool, rng: random.Random, pairs: list, path_values: dict | None = None) -> Query:
    chosen = {}
    for kinds, rows in pool.linked.items():
        if rows and all(f"{{{kind}}}" in route for kind in kinds):
            chosen.update(zip(kinds, rng.choice(rows)))
    chosen.update(path_values or {})

    def fill(match: re.Match) -> str:
        name = match[1]
        return quote(chosen[name] if name in chosen else pool.pick(name, rng), safe=".-:")

    path = _PATH_PARAMETER.sub(fill, route)
    query = urlencode(pairs, safe=":,", quote_via=quote)
    return Query(route, mode, f"{path}?{query}" if query else path)
