"""Just enough of the protobuf wire format to read the two messages topics store as bytes:
`KeyList` (a topic's fee exempt keys) and `TransactionID` (a chunked message's first transaction).
"""

from collections.abc import Iterator

_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5
_UINT64 = 1 << 64


def _read_varint(data: bytes, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if position >= len(data):
            raise ValueError("Truncated varint")
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, position
        shift += 7


def _signed(value: int) -> int:
    return value - _UINT64 if value >= 1 << 63 else value


def read_fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of each field: an int for varints, bytes for length-delimited fields."""
    position = 0
    while position < len(data):
        tag, position = _read_varint(data, position)
        wire_type = tag & 7
        if wire_type == _VARINT:
            value, position = _read_varint(data, position)
        elif wire_type == _LENGTH_DELIMITED:
            length, position = _read_varint(data, position)
            value, position = data[position : position + length], position + length
        elif wire_type in (_FIXED64, _FIXED32):
            size = 8 if wire_type == _FIXED64 else 4
            value, position = int.from_bytes(data[position : position + size], "little"), position + size
        else:
            raise ValueError(f"Unsupported wire type {wire_type}")
        if position > len(data):
            raise ValueError("Truncated field")
        yield tag >> 3, value


def key_list_keys(data: bytes) -> list[bytes]:
    """The serialized `Key`s of a `KeyList` (field 1, repeated)."""
    return [value for number, value in read_fields(data) if number == 1 and isinstance(value, bytes)]


def transaction_id_fields(data: bytes) -> dict:
    """A `TransactionID` as `{valid_start_seconds, valid_start_nanos, shard, realm, num, scheduled, nonce}`,
    absent fields at their proto3 defaults."""
    fields = {"valid_start_seconds": 0, "valid_start_nanos": 0, "shard": 0, "realm": 0, "num": 0}
    fields |= {"scheduled": False, "nonce": 0}
    for number, value in read_fields(data):
        if number == 1 and isinstance(value, bytes):
            for part, part_value in read_fields(value):
                if part in (1, 2):
                    fields[("valid_start_seconds", "valid_start_nanos")[part - 1]] = _signed(part_value)
        elif number == 2 and isinstance(value, bytes):
            for part, part_value in read_fields(value):
                if part in (1, 2, 3) and isinstance(part_value, int):
                    fields[("shard", "realm", "num")[part - 1]] = part_value
        elif number == 3:
            fields["scheduled"] = bool(value)
        elif number == 4:
            fields["nonce"] = _signed(value)
    return fields
