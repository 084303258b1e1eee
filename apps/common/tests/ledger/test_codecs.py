import pytest
from django.conf import settings
from django.test import override_settings

from apps.common.ledger.codecs import (
    MAX_LONG,
    MAX_NUM,
    MAX_REALM,
    MAX_SHARD,
    EntityId,
    EvmAddressType,
    OutOfRangeEntityId,
    add_hex_prefix,
    decode_base32_alias,
    decode_entity_id,
    encode_entity_id,
    encode_key,
    format_entity_id,
    format_timestamp,
    is_entity_id,
    parse_entity_id,
    parse_positive_long,
    parse_query_entity_id,
    parse_timestamp,
    to_base64,
    to_hex,
)

LONG_ZERO_98 = "0x0000000000000000000000000000000000000062"
OPAQUE_ADDRESS = "71eaa748d5252be68c1185588beca495459fdba4"
ED25519_KEY = "7a3c5477bdf4a63742647d7cfc4544acc1899d07141caf4cd9fea2f75b28a5cc"
ECDSA_KEY = "03b6e0a8b7c7a6e8a1b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.0.98", EntityId(0, 0, 98)),
        ("1.2.3", EntityId(1, 2, 3)),
        ("2.3", EntityId(0, 2, 3)),
        ("98", EntityId(0, 0, 98)),
        ("0", EntityId(0, 0, 0)),
        (f"0.0.{MAX_NUM}", EntityId(0, 0, MAX_NUM)),
        (f"{MAX_SHARD}.{MAX_REALM}.{MAX_NUM}", EntityId(MAX_SHARD, MAX_REALM, MAX_NUM)),
        (str(MAX_NUM), EntityId(0, 0, MAX_NUM)),
    ],
)
def test_parse_entity_id_reads_every_numeric_spelling(text, expected):
    assert parse_entity_id(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        f"0.0.{MAX_NUM + 1}",
        f"0.{MAX_REALM + 1}.1",
        "0.65537.1",
        f"{MAX_SHARD + 1}.0.1",
        "0.0.1234567890123",
        "0.123456.1",
        "12345.0.1",
        "9223372036854775808",
        "-9223372036854775809",
        "12345678901234567890",
        "",
        "0.0.",
        ".0.1",
        "0.0.0.1",
        "0.0.-1",
        "0.0.1a",
        "abc",
        " 1",
        "0.0.1\n",
        "0.0.\u0661",  # an Arabic-Indic digit: the upstream's patterns read ASCII digits only
        "\u09e8",
    ],
)
def test_parse_entity_id_rejects_out_of_range_and_malformed_ids(text):
    with pytest.raises(ValueError):
        parse_entity_id(text)


@pytest.mark.parametrize(
    "text",
    [
        LONG_ZERO_98,
        LONG_ZERO_98.removeprefix("0x"),
        "0.0." + LONG_ZERO_98.removeprefix("0x"),
        "0." + LONG_ZERO_98.removeprefix("0x"),
        LONG_ZERO_98.upper().replace("0X", "0x"),
    ],
)
def test_parse_entity_id_reads_long_zero_evm_address_as_num(text):
    assert parse_entity_id(text) == EntityId(0, 0, 98)


def test_parse_entity_id_reads_largest_long_zero_num():
    address = "0x000000000000000000000000" + format(MAX_NUM, "016x")

    assert parse_entity_id(address) == EntityId(0, 0, MAX_NUM)


@pytest.mark.parametrize(
    "text",
    [
        OPAQUE_ADDRESS,
        "0x" + OPAQUE_ADDRESS,
        "0x" + OPAQUE_ADDRESS.upper(),
        "0.0." + OPAQUE_ADDRESS,
        "0x000000000000000000000000" + format(MAX_NUM + 1, "016x"),
    ],
)
def test_parse_entity_id_keeps_opaque_evm_address_as_lowercase_hex(text):
    entity = parse_entity_id(text)

    assert entity == EntityId(0, 0, None, text.removeprefix("0x").rsplit(".", 1)[-1].lower())
    assert entity.encoded is None


@pytest.mark.parametrize(
    "text",
    [
        "1.0." + OPAQUE_ADDRESS,
        "0.1." + OPAQUE_ADDRESS,
        "1." + OPAQUE_ADDRESS,
        "0.1." + LONG_ZERO_98.removeprefix("0x"),
    ],
)
def test_parse_entity_id_rejects_evm_address_outside_configured_shard_and_realm(text):
    with pytest.raises(ValueError):
        parse_entity_id(text)


def test_parse_entity_id_accepts_evm_address_in_configured_shard_and_realm():
    with override_settings(MIRROR={**settings.MIRROR, "SHARD": 1, "REALM": 2}):
        assert parse_entity_id("1.2." + LONG_ZERO_98.removeprefix("0x")) == EntityId(1, 2, 98)
        assert parse_entity_id(LONG_ZERO_98) == EntityId(1, 2, 98)
        with pytest.raises(ValueError):
            parse_entity_id("0.0." + OPAQUE_ADDRESS)


@pytest.mark.parametrize(
    "text", [str(MAX_NUM + 1), str(encode_entity_id(0, 1, 5)), str(encode_entity_id(3, 7, 11)), "-1", str(MAX_LONG)]
)
def test_a_bare_number_is_a_num_never_an_encoded_id(text):
    # As the upstream reads one: `0.0.<number>`, so past the largest num or negative it names nothing.
    with pytest.raises(ValueError):
        parse_entity_id(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("98", encode_entity_id(0, 0, 98)),
        ("1.2.3", encode_entity_id(1, 2, 3)),
        ("-1", OutOfRangeEntityId("0.0.-1")),
        (str(MAX_NUM + 1), OutOfRangeEntityId(f"0.0.{MAX_NUM + 1}")),
        ("9223372036854775807", OutOfRangeEntityId("0.0.9223372036854775807")),
        (f"0.0.{MAX_NUM + 1}", OutOfRangeEntityId(f"0.0.{MAX_NUM + 1}")),
        ("2.65536.1", OutOfRangeEntityId("2.65536.1")),
        (LONG_ZERO_98, encode_entity_id(0, 0, 98)),
        (OPAQUE_ADDRESS, None),
    ],
)
def test_a_query_entity_id_of_a_valid_shape_naming_nothing_is_told_apart(text, expected):
    assert parse_query_entity_id(text) == expected


@pytest.mark.parametrize("text", ["abc", "1.2.3.4", "1" * 20, "0x1234"])
def test_a_query_entity_id_of_another_shape_is_invalid(text):
    with pytest.raises(ValueError):
        parse_query_entity_id(text)


def test_parse_entity_id_defaults_missing_shard_and_realm_to_configured_ones():
    with override_settings(MIRROR={**settings.MIRROR, "SHARD": 1, "REALM": 2}):
        assert parse_entity_id("5") == EntityId(1, 2, 5)
        assert parse_entity_id("3.5") == EntityId(1, 3, 5)
        assert parse_entity_id("7.3.5") == EntityId(7, 3, 5)


@pytest.mark.parametrize(
    ("text", "address_type", "expected"),
    [
        (LONG_ZERO_98, EvmAddressType.ANY, EntityId(0, 0, 98)),
        (OPAQUE_ADDRESS, EvmAddressType.ANY, EntityId(0, 0, None, OPAQUE_ADDRESS)),
        ("0.0." + OPAQUE_ADDRESS, EvmAddressType.ANY, EntityId(0, 0, None, OPAQUE_ADDRESS)),
        (LONG_ZERO_98, EvmAddressType.NO_SHARD_REALM, EntityId(0, 0, 98)),
        ("0x" + OPAQUE_ADDRESS, EvmAddressType.NO_SHARD_REALM, EntityId(0, 0, None, OPAQUE_ADDRESS)),
        (LONG_ZERO_98, EvmAddressType.NUM_ALIAS, EntityId(0, 0, 98)),
        ("0.0." + LONG_ZERO_98.removeprefix("0x"), EvmAddressType.NUM_ALIAS, EntityId(0, 0, 98)),
        ("0.0.98", EvmAddressType.NUM_ALIAS, EntityId(0, 0, 98)),
    ],
)
def test_parse_entity_id_accepts_addresses_of_the_requested_type(text, address_type, expected):
    assert parse_entity_id(text, evm_address_type=address_type) == expected


@pytest.mark.parametrize(
    ("text", "address_type"),
    [
        ("0.0." + OPAQUE_ADDRESS, EvmAddressType.NO_SHARD_REALM),
        ("0.0." + LONG_ZERO_98.removeprefix("0x"), EvmAddressType.NO_SHARD_REALM),
        (OPAQUE_ADDRESS, EvmAddressType.NUM_ALIAS),
        ("0x" + OPAQUE_ADDRESS, EvmAddressType.NUM_ALIAS),
        ("0x000000000000000000000000" + format(MAX_NUM + 1, "016x"), EvmAddressType.NUM_ALIAS),
    ],
)
def test_parse_entity_id_rejects_addresses_of_another_type(text, address_type):
    assert not is_entity_id(text, evm_address_type=address_type)
    with pytest.raises(ValueError):
        parse_entity_id(text, evm_address_type=address_type)


@pytest.mark.parametrize("text", [LONG_ZERO_98, OPAQUE_ADDRESS, "0.0." + OPAQUE_ADDRESS])
def test_parse_entity_id_without_evm_addresses_rejects_every_address(text):
    with pytest.raises(ValueError):
        parse_entity_id(text, allow_evm_address=False)


@pytest.mark.parametrize(
    ("shard", "realm", "num"),
    [
        (0, 0, 0),
        (0, 0, 98),
        (0, 0, MAX_NUM),
        (0, 1, 0),
        (1, 0, 0),
        (0, MAX_REALM, MAX_NUM),
        (MAX_SHARD >> 1, MAX_REALM, MAX_NUM),
        (512, 0, 1),
        (MAX_SHARD, MAX_REALM, MAX_NUM),
        (MAX_SHARD, 0, 0),
    ],
)
def test_encode_decode_round_trip(shard, realm, num):
    encoded = encode_entity_id(shard, realm, num)

    assert -(1 << 63) <= encoded <= MAX_LONG
    assert decode_entity_id(encoded) == EntityId(shard, realm, num)
    assert EntityId(shard, realm, num).encoded == encoded


@pytest.mark.parametrize(
    ("shard", "realm", "num", "encoded"),
    [
        (0, 0, 98, 98),
        (0, 1, 0, 1 << 38),
        (1, 0, 0, 1 << 54),
        (1, 2, 3, (1 << 54) + (2 << 38) + 3),
        (512, 0, 0, -(1 << 63)),
        (MAX_SHARD, MAX_REALM, MAX_NUM, -1),
    ],
)
def test_encode_entity_id_packs_shard_realm_num_into_a_signed_long(shard, realm, num, encoded):
    assert encode_entity_id(shard, realm, num) == encoded


@pytest.mark.parametrize(
    ("encoded", "expected"),
    [
        (None, None),
        (0, None),
        (1, "0.0.1"),
        (MAX_NUM, f"0.0.{MAX_NUM}"),
        (1 << 38, "0.1.0"),
        ((1 << 54) + (2 << 38) + 3, "1.2.3"),
        (-1, f"{MAX_SHARD}.{MAX_REALM}.{MAX_NUM}"),
    ],
)
def test_format_entity_id(encoded, expected):
    assert format_entity_id(encoded) == expected


def test_entity_id_str():
    assert str(EntityId(1, 2, 3)) == "1.2.3"
    assert str(EntityId(0, 0, None, OPAQUE_ADDRESS)) == f"0.0.{OPAQUE_ADDRESS}"


@pytest.mark.parametrize(
    ("text", "allow_zero", "expected"),
    [
        ("1", False, 1),
        ("0", True, 0),
        (str(MAX_LONG), False, MAX_LONG),
        ("007", False, 7),
    ],
)
def test_parse_positive_long(text, allow_zero, expected):
    assert parse_positive_long(text, allow_zero=allow_zero) == expected


@pytest.mark.parametrize(
    ("text", "allow_zero"),
    [
        ("0", False),
        ("-1", True),
        ("", True),
        ("1.0", True),
        ("0x1", True),
        (str(MAX_LONG + 1), True),
        ("12345678901234567890", True),
        ("+1", True),
    ],
)
def test_parse_positive_long_rejects(text, allow_zero):
    with pytest.raises(ValueError):
        parse_positive_long(text, allow_zero=allow_zero)


@pytest.mark.parametrize(
    ("text", "nanos"),
    [
        ("0", 0),
        ("1", 1_000_000_000),
        ("1.5", 1_500_000_000),
        ("1.05", 1_050_000_000),
        ("1.000000001", 1_000_000_001),
        ("1676540001.234600000", 1_676_540_001_234_600_000),
        ("9999999999.999999999", (1 << 63) - 1),
        ("0.1", 100_000_000),
    ],
)
def test_parse_timestamp(text, nanos):
    assert parse_timestamp(text) == nanos


@pytest.mark.parametrize(
    "text",
    ["", "1.", ".5", "1.0000000001", "12345678901", "-1", "1e9", "abc", "1.5a", "1,5", "0x10", " 1", "1\n", "\u17e4", "1.\u0661"],
)
def test_parse_timestamp_rejects(text):
    with pytest.raises(ValueError):
        parse_timestamp(text)


@pytest.mark.parametrize(
    ("nanos", "text"),
    [
        (None, None),
        (0, "0.000000000"),
        (1, "0.000000001"),
        (999_999_999, "0.999999999"),
        (1_000_000_000, "1.000000000"),
        (1_500_000_000, "1.500000000"),
        (1_234_567_890_000_000_001, "1234567890.000000001"),
    ],
)
def test_format_timestamp(nanos, text):
    assert format_timestamp(nanos) == text


@pytest.mark.parametrize("text", ["0", "1.5", "1676540001.234600000", "0.000000001"])
def test_timestamp_round_trip(text):
    assert parse_timestamp(format_timestamp(parse_timestamp(text))) == parse_timestamp(text)


@pytest.mark.parametrize(
    ("data", "pad", "expected"),
    [
        (None, 0, None),
        (None, 8, None),
        (b"", 0, "0x"),
        (b"", 512, "0x"),
        (b"\x01\xab", 0, "0x01ab"),
        (b"\x01\xab", 8, "0x000001ab"),
        (b"\x01\xab", 2, "0x01ab"),
        (memoryview(b"\xff"), 0, "0xff"),
        (bytearray(b"\x00\x10"), 0, "0x0010"),
    ],
)
def test_to_hex(data, pad, expected):
    assert to_hex(data, pad=pad) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [(None, "0x"), ("", "0x"), ("ab", "0xab"), ("0xab", "0xab")],
)
def test_add_hex_prefix(text, expected):
    assert add_hex_prefix(text) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (None, None),
        (b"", ""),
        (b"\x00\x01", "AAE="),
        (b"memo", "bWVtbw=="),
        (memoryview(b"\xff\xfe\xfd"), "//79"),
    ],
)
def test_to_base64(data, expected):
    assert to_base64(data) == expected


@pytest.mark.parametrize(
    ("key_hex", "expected"),
    [
        ("1220" + ED25519_KEY, {"_type": "ED25519", "key": ED25519_KEY}),
        ("32240a221220" + ED25519_KEY, {"_type": "ED25519", "key": ED25519_KEY}),
        ("2a28080112240a221220" + ED25519_KEY, {"_type": "ED25519", "key": ED25519_KEY}),
        ("3a21" + ECDSA_KEY, {"_type": "ECDSA_SECP256K1", "key": ECDSA_KEY}),
        ("32250a233a21" + ECDSA_KEY, {"_type": "ECDSA_SECP256K1", "key": ECDSA_KEY}),
        ("2a29080112250a233a21" + ECDSA_KEY, {"_type": "ECDSA_SECP256K1", "key": ECDSA_KEY}),
        ("3200", None),
        ("", {"_type": "ProtobufEncoded", "key": ""}),
        ("1220" + ED25519_KEY[:-2], {"_type": "ProtobufEncoded", "key": "1220" + ED25519_KEY[:-2]}),
        ("3a21" + ED25519_KEY, {"_type": "ProtobufEncoded", "key": "3a21" + ED25519_KEY}),
        (
            "2a28080212240a221220" + ED25519_KEY,
            {"_type": "ProtobufEncoded", "key": "2a28080212240a221220" + ED25519_KEY},
        ),
        (
            "32480a221220" + ED25519_KEY + "0a221220" + ED25519_KEY,
            {"_type": "ProtobufEncoded", "key": "32480a221220" + ED25519_KEY + "0a221220" + ED25519_KEY},
        ),
    ],
)
def test_encode_key(key_hex, expected):
    assert encode_key(bytes.fromhex(key_hex)) == expected


def test_encode_key_of_null_is_none():
    assert encode_key(None) is None


def test_encode_key_accepts_memoryview():
    assert encode_key(memoryview(bytes.fromhex("1220" + ED25519_KEY))) == {"_type": "ED25519", "key": ED25519_KEY}


def test_base32_alias_with_spare_bits_set_decodes_only_leniently():
    text = "KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL"

    with pytest.raises(ValueError):
        decode_base32_alias(text)
    assert len(decode_base32_alias(text, strict=False)) == 29


def test_sql_base64_breaks_lines_as_postgresql_does():
    from apps.common.ledger.codecs import to_sql_base64

    assert to_sql_base64(bytes(56)) == "A" * 75 + "="
    assert to_sql_base64(bytes(57)) == "A" * 76 + "\n"
    assert to_sql_base64(bytes(64)) == "A" * 76 + "\n" + "A" * 10 + "=="
    assert to_sql_base64(b"") == ""
    assert to_sql_base64(None) is None
