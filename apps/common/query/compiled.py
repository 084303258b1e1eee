"""Querysets compiled to SQL once, then run with new values.

Building a queryset and compiling it costs more than a hot query takes in
PostgreSQL. A `CompiledQuery` builds its `.values()` queryset once per shape
(what varies in its structure besides the values, e.g. which operators a filter
uses) with marker integers in place of the values, compiles it, and remembers
where each value goes among the statement's parameters. Later calls only fill
the parameters in; the statement text stays the same, so psycopg prepares it.

    by_number = CompiledQuery(lambda number: block_queryset().filter(index=number)[:1])
    by_number.rows(5)

`build` takes the values positionally, and `shape=` when it declares it. Values
are integers (each fills the parameter its marker filled; checked when a shape
is compiled), or text at the positions named by `text=`: a text value fills
its parameter as given, or, where the ORM made a LIKE pattern of it
(`startswith`, `contains`, ...), escaped into that pattern. Columns are
converted from their database values as the ORM converts them (JSON,
expressions).

    by_hash_prefix = CompiledQuery(lambda prefix: block_queryset().filter(hash__startswith=prefix)[:1], text=(0,))
"""

import inspect
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet

from apps.common.database.connections import statement_cursor

# Within the range of every integer column (the ORM drops a comparison with a value
# a smallint cannot hold), yet unlike any constant a query holds.
_MARKER_BASE = -31_907


@dataclass(frozen=True)
class _Statement:
    sql: str
    # Each parameter: the position of the value filling it with the type the ORM adapted
    # the marker to (`Int8` with server-side binding), or None with its constant.
    slots: tuple[tuple[int | None, object], ...]
    columns: tuple[str, ...]
    # column position -> (converter functions, expression), as the ORM's compiler applies them
    converters: dict
    using: str


class CompiledQuery:
    def __init__(self, build: Callable[..., QuerySet] | None = None, *, text: tuple[int, ...] = ()):
        self._build = build
        self._text = frozenset(text)
        self._takes_shape = build is not None and "shape" in inspect.signature(build).parameters
        self._statements: dict[tuple[Hashable, int], _Statement] = {}

    def rows(self, *values: int, shape: Hashable = None, build: Callable[..., QuerySet] | None = None) -> list[dict]:
        """The rows for `values`; `build` stands in for the constructor's when a shape is compiled."""
        statement = self._statements.get((shape, len(values))) or self._compile(shape, len(values), build)
        params = [constant if position is None else constant(values[position]) for position, constant in statement.slots]
        with statement_cursor(statement.using) as cursor:
            cursor.execute(statement.sql, params)
            rows = cursor.fetchall()
        if statement.converters:
            connection = connections[statement.using]
            rows = [_converted(row, statement.converters, connection) for row in rows]
        return [dict(zip(statement.columns, row)) for row in rows]

    def _compile(self, shape: Hashable, count: int, build: Callable[..., QuerySet] | None) -> _Statement:
        # Text markers are letters and digits only, which LIKE escaping leaves as they are.
        markers = [
            f"compiledtext{position}marker" if position in self._text else _MARKER_BASE + position
            for position in range(count)
        ]
        if build is not None:
            queryset = build(*markers)
        else:
            queryset = self._build(*markers, **({"shape": shape} if self._takes_shape else {}))
        query = queryset.query
        compiler = query.get_compiler(queryset.db)
        sql, params = compiler.as_sql()
        positions = {marker: position for position, marker in enumerate(markers)}
        connection = connections[queryset.db]
        slots = tuple(_slot(param, positions, connection) for param in params)
        if len({position for position, _ in slots if position is not None}) != count:
            raise ValueError("each value must be passed to the query as one parameter")
        columns = tuple(query.selected or (*query.extra_select, *query.values_select, *query.annotation_select))
        converters = compiler.get_converters([column for column, _, _ in compiler.select])
        statement = _Statement(sql, slots, columns, converters, queryset.db)
        self._statements[shape, count] = statement
        return statement


def _slot(param, positions: dict, connection) -> tuple[int | None, object]:
    """Where a compiled parameter's value comes from: (position, how to adapt the value), or
    (None, the constant)."""
    if isinstance(param, int) and not isinstance(param, bool) and param in positions:
        return positions[param], type(param)
    if isinstance(param, str):
        for marker, position in positions.items():
            if param == marker:
                return position, str
            if isinstance(marker, str) and marker in param:
                return position, lambda value: param.replace(marker, connection.ops.prep_for_like_query(value))
    return None, param


def _converted(row: tuple, converters: dict, connection) -> list:
    row = list(row)
    for position, (functions, expression) in converters.items():
        value = row[position]
        for function in functions:
            value = function(value, expression, connection)
        row[position] = value
    return row
