"""Reading the query string the way the upstream's Express stack reads it.

Parameter names are case-insensitive (lower-cased), a repeated name collects
its values in order, and the values of `order` and `result` are lower-cased.
A bracketed name (`timestamp[$ne]=0`) is read by the upstream as an object,
which no parameter accepts: its value becomes None so validation rejects it.
`a[]=1` and `a[0]=1` are array forms of `a=1`.
More than 1,000 `&`-separated fields, empty ones included, is a 400 before
any is read; so is a name given more than `MAX_REPEATED_QUERY_PARAMETERS` times
(the upstream's query parser refuses the whole query, whatever the route).
"""

from urllib.parse import parse_qsl

from django.conf import settings

from apps.common.errors import TooManyParameters, TooManyValues

QueryParams = dict[str, list[str | None]]

PARAMETER_LIMIT = 1000
_LOWER_CASED_VALUES = frozenset({"order", "result"})


def parse_query_string(query_string: str) -> QueryParams:
    if query_string.count("&") >= PARAMETER_LIMIT:
        raise TooManyParameters(PARAMETER_LIMIT)
    params: QueryParams = {}
    for raw_name, value in parse_qsl(query_string, keep_blank_values=True):
        name = raw_name.lower()
        if "[" in name and name.endswith("]"):
            name, _, subscript = name[:-1].partition("[")
            if subscript and not subscript.isdigit():
                value = None
        if not name:
            continue
        if name in _LOWER_CASED_VALUES and value is not None:
            value = value.lower()
        params.setdefault(name, []).append(value)
    maximum = settings.MIRROR["MAX_REPEATED_QUERY_PARAMETERS"]
    if any(len(values) > maximum for values in params.values()):
        raise TooManyValues(maximum)
    return params
