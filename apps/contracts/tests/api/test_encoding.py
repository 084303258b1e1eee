"""The field encodings of the contract routes."""

import pytest

from apps.contracts.api import encoding


@pytest.mark.parametrize(
    ("encode", "value", "expected"),
    [
        (encoding.hex_quantity, b"\x0a", "0xa"),
        (encoding.hex_quantity, b"\x01\x2a", "0x12a"),
        (encoding.hex_quantity, b"", "0x"),
        (encoding.hex_word, b"\x01", "0x" + "00" * 31 + "01"),
        (encoding.hex_word, b"", "0x"),
        (encoding.uint256, b"", "0x" + "00" * 32),
        (encoding.uint256, None, None),
        (encoding.bloom, None, "0x"),
        (encoding.bloom, b"", "0x" + "00" * 256),
        (encoding.long_zero_address, 0, None),
        (encoding.long_zero_address, (1 << 54) | 5, "0x00000001" + "0" * 16 + "0000000000000005"),
        (encoding.signed_integer, b"\xff", -1),
        (encoding.signed_integer, b"\x00\xff", 255),
    ],
)
def test_encodings(encode, value, expected):
    assert encode(value) == expected


def test_weibar_quantities():
    assert encoding.weibar_quantity(b"", in_tinybars=True) == "0x"
    assert encoding.weibar_quantity((25 * 10**10).to_bytes(8, "big"), in_tinybars=True) == "0x19"
    assert encoding.weibar_quantity(b"\x0a\xbc", in_tinybars=False) == "0xabc"
