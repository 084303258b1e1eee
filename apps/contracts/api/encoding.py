"""Field encodings of contract results, logs, state and actions, as the upstream writes them.

- Byte strings are `0x` + lowercase hex; empty or missing bytes are `0x`.
- A "quantity" drops one leading zero digit (`0x0a` -> `0xa`), as Ethereum
  quantities carry no leading zeros.
- A bloom stored empty is the 256-byte empty bloom; a missing one is `0x`.
- Storage words (slots, values, topics, log data) are left-padded to 32 bytes.
- Ethereum amounts are stored in weibar; one tinybar is 10^10 weibar.
"""

from apps.common.ledger.codecs import decode_entity_id

WEIBARS_PER_TINYBAR = 10**10
_EMPTY_BLOOM = "0x" + "00" * 256
_WORD_DIGITS = 64


def hex_bytes(data: bytes | None) -> str:
    return "0x" + bytes(data).hex() if data else "0x"


def hex_quantity(data: bytes | None) -> str:
    text = hex_bytes(data)
    return "0x" + text[3:] if len(text) > 3 and text[2] == "0" else text


def hex_word(data: bytes | None) -> str:
    """Log data and topics: at least one 32-byte word."""
    return "0x" + bytes(data).hex().rjust(_WORD_DIGITS, "0") if data else "0x"


def uint256(data: bytes | None) -> str | None:
    """Storage slots and values: exactly 32 bytes (`null` stays null, empty is zero)."""
    if data is None:
        return None
    return "0x" + bytes(data).hex().rjust(_WORD_DIGITS, "0")


def bloom(data: bytes | None) -> str:
    if data is None:
        return "0x"
    return hex_bytes(data) if data else _EMPTY_BLOOM


def long_zero_address(entity_id: int | None) -> str | None:
    """The EVM address derived from an entity id: shard (4 bytes), realm (8), num (8); none for 0.0.0."""
    if not entity_id:
        return None
    entity = decode_entity_id(entity_id)
    return f"0x{entity.shard:08x}{entity.realm:016x}{entity.num:016x}"


def evm_address(stored: bytes | None, entity_id: int | None) -> str | None:
    """An entity's own EVM address when it has one, else the one derived from its id."""
    return hex_bytes(stored) if stored else long_zero_address(entity_id)


def signed_integer(data: bytes | None) -> int | None:
    """A big-endian two's-complement integer (how the importer stores Ethereum values)."""
    return int.from_bytes(data, "big", signed=True) if data else None


def weibar_quantity(data: bytes | None, *, in_tinybars: bool) -> str:
    """An Ethereum gas price or fee cap, in tinybars or as stored (weibar)."""
    if not data:
        return "0x"
    if not in_tinybars:
        return hex_quantity(data)
    tinybars = int.from_bytes(data, "big") // WEIBARS_PER_TINYBAR
    return hex(tinybars)
