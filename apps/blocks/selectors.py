import re

from django.db.models import QuerySet
from django.db.models.functions import Coalesce, Collate, Length

from apps.blocks.models import RecordFile
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import parse_positive_long
from apps.common.compiled import CompiledQuery

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
