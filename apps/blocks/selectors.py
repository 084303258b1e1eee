import re

from django.db.models import QuerySet, Subquery
from django.db.models.functions import Coalesce, Collate, Length

from apps.blocks.models import RecordFile
from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import parse_positive_long
from apps.common.query.comparisons import OPERATORS
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import CompiledPages, PageCriteria, narrow

_BLOCK_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{96})$")

_BLOCK_COLUMNS = (
    "consensus_end",
    "consensus_start",
    "count",
    "gas_used",
    "hapi_version_major",
    "hapi_version_minor",
    "hapi_version_patch",
    "hash",
    "index",
    "logs_bloom",
    "name",
    "prev_hash",
)


def block_queryset() -> QuerySet:
    """Blocks as dicts of the columns a block shows; `bytes` is read only for its length.

    Dicts rather than model instances: building instances cost half of a page.
    """
    return RecordFile.objects.annotate(block_size=Coalesce("size", Length("bytes"))).values(
        *_BLOCK_COLUMNS, "block_size"
    )


def block_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/blocks`."""
    return _BLOCK_PAGES.rows(criteria)


def _block_page(criteria: PageCriteria) -> QuerySet:
    return _bound_ordered_column(narrow(block_queryset(), criteria), criteria)


def _bound_ordered_column(queryset: QuerySet, criteria: PageCriteria) -> QuerySet:
    """Restates bounds on the other column as bounds on the ordered one.

    Block numbers and consensus timestamps rise together, so the first block past a
    timestamp bound is also a bound on the number (and the other way round). With it
    PostgreSQL range-scans the index of the ordered column instead of filtering its way
    through the whole table.
    """
    ordered = criteria.order_by[0]
    param, other = ("timestamp", "consensus_end") if ordered == "index" else ("block.number", "index")
    for comparison in criteria[param]:
        operator, value = comparison.operator, comparison.value
        if operator == "ne":
            continue
        nearest = RecordFile.objects.filter(**{f"{other}__{OPERATORS[operator].lookup}": value})
        if operator in ("lt", "lte"):
            nearest, bound = nearest.order_by(f"-{other}"), "lte"
        else:
            nearest, bound = nearest.order_by(other), "gte" if operator != "eq" else "exact"
        queryset = queryset.filter(**{f"{ordered}__{bound}": Subquery(nearest.values(ordered)[:1])})
    return queryset


_BLOCK_PAGES = CompiledPages(_block_page)


def block_get(*, hash_or_number: str) -> dict | None:
    """A block by its 48-byte hash, the 32-byte prefix of it (as EVM tools send), or its number."""
    if match := _BLOCK_HASH.match(hash_or_number):
        hex_hash = match.group(1).lower()
        by_hash = _BLOCK_BY_HASH if len(hex_hash) == _FULL_HASH_LENGTH else _BLOCK_BY_HASH_PREFIX
        rows = by_hash.rows(hex_hash)
        return rows[0] if rows else None
    try:
        number = parse_positive_long(hash_or_number, allow_zero=True)
    except ValueError:
        raise InvalidArgument.for_params("hashOrNumber") from None
    rows = _BLOCK_BY_NUMBER.rows(number)
    return rows[0] if rows else None


_BLOCK_BY_NUMBER = CompiledQuery(lambda number: block_queryset().filter(index=number).order_by("consensus_end")[:1])
# A whole hash (48 bytes, the length of every stored one) is an equality on the index on
# hash, whose generic plan PostgreSQL keeps for the prepared statement; a prefix LIKE is
# planned for each request. The index is COLLATE "C", which a prefix LIKE can use.
_FULL_HASH_LENGTH = 96


def _block_by_hash(lookup: str) -> CompiledQuery:
    """The earliest block whose hash matches a hex text by `lookup` (on the hash COLLATE "C")."""
    return CompiledQuery(
        lambda hex_hash: block_queryset()
        .alias(hash_c=Collate("hash", "C"))
        .filter(**{lookup: hex_hash})
        .order_by("consensus_end")[:1],
        text=(0,),
    )


_BLOCK_BY_HASH = _block_by_hash("hash_c")
_BLOCK_BY_HASH_PREFIX = _block_by_hash("hash_c__startswith")
