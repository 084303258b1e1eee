"""A minimal reader of protobuf wire format, for the few messages the mirror stores serialized."""

_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5


def protobuf_fields(data: bytes):
    """(field number, value) of each field: ints for varints, bytes otherwise."""
    position = 0
    while position < len(data):
        key, position = varint(data, position)
        field, wire_type = key >> 3, key & 7
        if wire_type == _VARINT:
            value, position = varint(data, position)
        elif wire_type == _LENGTH_DELIMITED:
            length, position = varint(data, position)
            if position + length > len(data):
                raise ValueError("truncated field")
            value, position = data[position : position + length], position + length
        elif wire_type in (_FIXED64, _FIXED32):
            size = 8 if wire_type == _FIXED64 else 4
            value, position = data[position : position + size], position + size
        else:
            raise ValueError(f"unsupported wire type {wire_type}")
        yield field, value


def varint(data: bytes, position: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if position >= len(data) or shift > 63:
            raise ValueError("truncated varint")
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, position
