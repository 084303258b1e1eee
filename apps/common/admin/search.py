"""The admin search boxes read what the API prints; each parser answers None for anything else."""

import re

from apps.common.ledger.codecs import parse_entity_id, parse_timestamp

__all__ = ("parse_search_entity_id", "parse_search_hex", "parse_search_timestamp")

_SEARCH_ENTITY_ID = re.compile(r"^\d{1,4}\.\d{1,5}\.\d{1,12}$")
_SEARCH_TIMESTAMP = re.compile(r"^\d{1,10}\.\d{1,9}$")
_SEARCH_HEX = re.compile(r"^(?:0x)?([0-9A-Fa-f]+)$")


def parse_search_entity_id(term: str) -> int | None:
    """The encoded id of a `shard.realm.num` term."""
    if not _SEARCH_ENTITY_ID.match(term):
        return None
    try:
        return parse_entity_id(term, allow_evm_address=False).encoded
    except ValueError:
        return None


def parse_search_timestamp(term: str) -> int | None:
    """The nanoseconds of a `seconds.nanos` term."""
    return parse_timestamp(term) if _SEARCH_TIMESTAMP.match(term) else None


def parse_search_hex(term: str, *, min_digits: int) -> str | None:
    """The lowercase hex digits of a hex term (`0x` optional) of at least `min_digits`."""
    match = _SEARCH_HEX.match(term)
    if not match or len(match.group(1)) < min_digits:
        return None
    return match.group(1).lower()
