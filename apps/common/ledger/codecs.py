"""Wire encodings of the mirror node API, in both directions.

- Entity ids: the database stores `shard.realm.num` packed into one signed
  64-bit integer, shard 10 bits | realm 16 bits | num 38 bits. Clients may send
  `shard.realm.num`, `realm.num`, a bare integer (read as an *encoded* id, which
  equals `num` when shard and realm are 0) or a 20-byte EVM address.
- Timestamps: bigint nanoseconds in the database, `seconds.nanoseconds` on the
  wire (`1700000000.000000001`); inputs take up to 9 fraction digits.
- Bytes: `0x` hex for EVM data, base64 for opaque payloads, and protobuf `Key`
  bytes rendered as `{"_type", "key"}`.

Parsers raise `ValueError`; callers turn that into the route's 400 message.
"""

import base64
import binascii
import enum
import re
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings

NUM_BITS = 38
REALM_BITS = 16
SHARD_BITS = 10
MAX_NUM = (1 << NUM_BITS) - 1
MAX_REALM = (1 << REALM_BITS) - 1
MAX_SHARD = (1 << SHARD_BITS) - 1
MAX_LONG = (1 << 63) - 1
MIN_LONG = -(1 << 63)

# ASCII digits only, and no trailing newline (`\Z`, not `$`): as the upstream's patterns read input.
_ENTITY_ID = re.compile(r"^(\d{1,4}\.)?\d{1,5}\.\d{1,12}\Z", re.ASCII)
_ENCODED_ENTITY_ID = re.compile(r"^-?\d{1,19}\Z", re.ASCII)
_EVM_ADDRESS = re.compile(r"^(0x)?[A-Fa-f0-9]{40}\Z", re.ASCII)
_EVM_ADDRESS_WITH_SHARD_REALM = re.compile(r"^(\d{1,4}\.)?(\d{1,5}\.)?[A-Fa-f0-9]{40}\Z", re.ASCII)
_LONG_ZERO_PREFIX = "0" * 24
_POSITIVE_LONG = re.compile(r"^\d{1,19}\Z", re.ASCII)
_BASE32_ALIAS = re.compile(r"^[A-Z2-7]+\Z", re.ASCII)
_TIMESTAMP = re.compile(r"^(\d{1,10})(?:\.(\d{1,9}))?\Z", re.ASCII)


class EvmAddressType(enum.Enum):
    """Which EVM address spellings a parameter accepts."""

    ANY = "any"
    NO_SHARD_REALM = "no_shard_realm"
    # Only long-zero addresses, i.e. an entity num written as an address.
    NUM_ALIAS = "num_alias"


@dataclass(frozen=True, slots=True)
class EntityId:
    shard: int
    realm: int
    num: int | None
    # Hex (no 0x) of an address that does not encode a num; resolved by lookup.
    evm_address: str | None = None

    @property
    def encoded(self) -> int | None:
        if self.num is None:
            return None
        return encode_entity_id(self.shard, self.realm, self.num)

    def __str__(self) -> str:
        last = self.num if self.evm_address is None else self.evm_address
        return f"{self.shard}.{self.realm}.{last}"


def encode_entity_id(shard: int, realm: int, num: int) -> int:
    packed = (shard << (NUM_BITS + REALM_BITS)) | (realm << NUM_BITS) | num
    return packed - (1 << 64) if packed > MAX_LONG else packed


def decode_entity_id(encoded: int) -> EntityId:
    shard_realm = encoded >> NUM_BITS
    return EntityId(
        shard=(shard_realm >> REALM_BITS) & MAX_SHARD,
        realm=shard_realm & MAX_REALM,
        num=encoded & MAX_NUM,
    )


def format_entity_id(encoded: int | None) -> str | None:
    """`shard.realm.num` of an encoded id; None for NULL and for 0.0.0."""
    if not encoded:
        return None
    if 0 < encoded <= MAX_NUM:
        return f"0.0.{encoded}"
    entity = decode_entity_id(encoded)
    return f"{entity.shard}.{entity.realm}.{entity.num}"


def is_evm_address(text: str, address_type: EvmAddressType = EvmAddressType.ANY) -> bool:
    if address_type is EvmAddressType.NO_SHARD_REALM:
        return bool(_EVM_ADDRESS.match(text))
    plausible = bool(_EVM_ADDRESS.match(text) or _EVM_ADDRESS_WITH_SHARD_REALM.match(text))
    if address_type is EvmAddressType.NUM_ALIAS:
        return plausible and _long_zero_num(text.rsplit(".", 1)[-1].removeprefix("0x")) is not None
    return plausible


def _long_zero_num(address_hex: str) -> int | None:
    """The num a long-zero address encodes, or None for an opaque address."""
    if address_hex[:24] != _LONG_ZERO_PREFIX:
        return None
    num = int(address_hex[24:40], 16)
    return num if num <= MAX_NUM else None


def is_entity_id(
    text: str, *, allow_evm_address: bool = True, evm_address_type: EvmAddressType = EvmAddressType.ANY
) -> bool:
    if _ENTITY_ID.match(text) or _ENCODED_ENTITY_ID.match(text):
        return True
    return allow_evm_address and is_evm_address(text, evm_address_type)


def parse_entity_id(
    text: str, *, allow_evm_address: bool = True, evm_address_type: EvmAddressType = EvmAddressType.ANY
) -> EntityId:
    """Parses every spelling of an entity id the upstream accepts; ValueError otherwise."""
    if not is_entity_id(text, allow_evm_address=allow_evm_address, evm_address_type=evm_address_type):
        raise ValueError(f"Invalid entity ID {text!r}")
    if "." in text or len(text) in (40, 42):
        entity = _parse_dotted_or_address(text)
    else:
        # A bare number is a num under the system shard and realm (never an encoded id).
        entity = EntityId(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], int(text))
        if entity.num < 0:
            raise ValueError(f"Invalid entity ID {text!r}")
    if entity.evm_address is None and (
        entity.num > MAX_NUM or entity.realm > MAX_REALM or entity.shard > MAX_SHARD
    ):
        raise ValueError(f"Invalid entity ID {text!r}")
    return entity


@dataclass(frozen=True, slots=True)
class OutOfRangeEntityId:
    """A query value shaped as an entity id that names none (`-1`, a num past 2^38 - 1):
    valid as the query is validated, refused once every parameter is
    (`apps.common.query.filtersets.Dialect`), as `Invalid entity ID "<shard.realm.num>"`."""

    written: str

    @property
    def message(self) -> str:
        return f'Invalid entity ID "{self.written}"'


def parse_query_entity_id(
    text: str, *, allow_evm_address: bool = True, evm_address_type: EvmAddressType = EvmAddressType.ANY
) -> int | None | OutOfRangeEntityId:
    """An entity id in a query value, as the upstream's filters read one: its shape checked
    first (ValueError), then read with the system shard and realm before what is written,
    so a bare number is a num, never an encoded id. Encoded; None for an EVM address that
    encodes no id; `OutOfRangeEntityId` for a shape that names no entity."""
    if not is_entity_id(text, allow_evm_address=allow_evm_address, evm_address_type=evm_address_type):
        raise ValueError(f"Invalid entity ID {text!r}")
    parts = text.removeprefix("0x").split(".")
    if len(parts[-1]) in (40, 42) or len(text) in (40, 42):
        return _parse_dotted_or_address(text).encoded
    system = (str(settings.MIRROR["SHARD"]), str(settings.MIRROR["REALM"]))
    shard, realm, num = (*system[: 3 - len(parts)], *parts)
    if num.startswith("-") or int(num) > MAX_NUM or int(realm) > MAX_REALM or int(shard) > MAX_SHARD:
        return OutOfRangeEntityId(f"{shard}.{realm}.{num}")
    return encode_entity_id(int(shard), int(realm), int(num))


def parse_query_entity_id_or_num_alias(text: str) -> int | OutOfRangeEntityId:
    """`parse_query_entity_id` of an entity id or an EVM address that encodes one (long-zero)."""
    return parse_query_entity_id(text, evm_address_type=EvmAddressType.NUM_ALIAS)


def parse_id_or_any_address(text: str) -> int | None:
    """An entity id in any spelling, encoded; None for an EVM address that encodes none.
    Upstream does not look such an address up in these query parameters: it matches nothing."""
    return parse_entity_id(text).encoded


def _parse_dotted_or_address(text: str) -> EntityId:
    parts = text.removeprefix("0x").split(".")
    last = parts.pop()
    system_shard, system_realm = settings.MIRROR["SHARD"], settings.MIRROR["REALM"]
    shard = int(parts.pop(0)) if len(parts) == 2 else system_shard
    realm = int(parts.pop(0)) if parts else system_realm
    if len(last) != 40:
        return EntityId(shard, realm, int(last))
    if (shard, realm) != (system_shard, system_realm):
        raise ValueError(f"Invalid shard or realm for EVM address {text}")
    num = _long_zero_num(last)
    if num is None:
        return EntityId(shard, realm, None, last.lower())
    return EntityId(shard, realm, num)


def parse_positive_long(text: str, *, allow_zero: bool = False) -> int:
    if not _POSITIVE_LONG.match(text):
        raise ValueError(f"Not a positive long: {text!r}")
    value = int(text)
    if value < (0 if allow_zero else 1) or value > MAX_LONG:
        raise ValueError(f"Not a positive long: {text!r}")
    return value


def parse_timestamp(text: str) -> int:
    """`seconds[.fraction]` to nanoseconds: `1.5` is 1500000000.

    Instants past the largest bigint (year 2262) are that bigint: no stored
    timestamp lies beyond it, so every comparison keeps its meaning, and the
    value still binds to a bigint parameter."""
    match = _TIMESTAMP.match(text)
    if not match:
        raise ValueError(f"Invalid timestamp {text!r}")
    seconds, fraction = match.groups()
    return min(int(seconds) * 1_000_000_000 + int((fraction or "").ljust(9, "0")), MAX_LONG)


def format_timestamp(nanos: int | None) -> str | None:
    if nanos is None:
        return None
    digits = str(nanos)
    return f"{digits[:-9] or '0'}.{digits[-9:].rjust(9, '0')}"


def to_hex(data: bytes | None, *, pad: int = 0) -> str | None:
    """`0x`-prefixed lowercase hex, left-padded to `pad` digits; empty bytes give `0x`."""
    if data is None:
        return None
    if not data:
        return "0x"
    return "0x" + bytes(data).hex().rjust(pad, "0")


def add_hex_prefix(text: str | None) -> str:
    if not text:
        return "0x"
    return text if text.startswith("0x") else "0x" + text


def to_base64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(bytes(data)).decode("ascii")


def to_sql_base64(data: bytes | None) -> str | None:
    """Base64 as PostgreSQL's `encode(data, 'base64')` writes it: a line break after each
    76 characters encoding whole 3-byte groups, none after the padded last group. The
    upstream renders some columns (schedule signatures) through it."""
    if data is None:
        return None
    data = bytes(data)
    whole = len(data) - len(data) % 3
    text = base64.b64encode(data[:whole]).decode("ascii")
    lines = (text[start : start + 76] for start in range(0, len(text), 76))
    wrapped = "".join(line + "\n" if len(line) == 76 else line for line in lines)
    return wrapped + base64.b64encode(data[whole:]).decode("ascii")


_ED25519_KEY = re.compile(r"^(?:1220|32240a221220|2a28080112240a221220)([0-9a-f]{64})$")
_ECDSA_KEY = re.compile(r"^(?:3a21|32250a233a21|2a29080112250a233a21)([0-9a-f]{66})$")
# An empty KeyList: the entity was made immutable.
_IMMUTABLE_KEY = "3200"


def decode_base32_alias(text: str, *, strict: bool = True) -> bytes:
    """An account alias from its RFC 4648 base32 text (upper case, no padding); ValueError otherwise.

    Strict decoding, as the Node service's, also refuses bits set past the last whole byte."""
    if not _BASE32_ALIAS.match(text):
        raise ValueError(f"Invalid alias {text!r}")
    try:
        alias = base64.b32decode(text + "=" * (-len(text) % 8))
    except binascii.Error:
        raise ValueError(f"Invalid alias {text!r}") from None
    if strict and encode_alias(alias) != text:
        raise ValueError(f"Invalid alias {text!r}")
    return alias


def encode_alias(alias: bytes | None) -> str | None:
    """The base32 text of an alias, unpadded, as the API prints it."""
    return None if alias is None else base64.b32encode(alias).decode().rstrip("=")


def encode_key(key: bytes | None) -> dict | None:
    """A protobuf `Key` as the API shows it: primitive keys unwrapped, the rest as hex."""
    if key is None:
        return None
    key_hex = bytes(key).hex()
    if key_hex == _IMMUTABLE_KEY:
        return None
    if match := _ED25519_KEY.match(key_hex):
        return {"_type": "ED25519", "key": match.group(1)}
    if match := _ECDSA_KEY.match(key_hex):
        return {"_type": "ECDSA_SECP256K1", "key": match.group(1)}
    return {"_type": "ProtobufEncoded", "key": key_hex}


def format_hbars(tinybars: int) -> str:
    """Tinybars as hbars with their 8 decimals: `50000000000.00000000`."""
    return f"{Decimal(tinybars).scaleb(-8):.8f}"
