from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.hooks.api.serializers import (
    HookSerializer,
    HookStorageSerializer,
    format_java_timestamp,
    format_timestamp_range,
)


def test_timestamps_as_the_java_service_prints_them():
    assert [format_java_timestamp(nanos) for nanos in (None, 0, 5, 1_700_000_000_000_000_001)] == [
        None, "0.0", "0.000000005", "1700000000.000000001",
    ]
    assert format_timestamp_range(None) is None
    assert format_timestamp_range(Range(0, None)) == {"from": "0.0", "to": None}
    assert format_timestamp_range(Range(None, 7)) == {"from": None, "to": "0.000000007"}


def test_a_hook():
    row = {
        "admin_key": bytes.fromhex("3a21" + "02" * 33),
        "contract_id": (1 << 54) | (2 << 38) | 9,
        "created_timestamp": 1_000_000_001,
        "deleted": True,
        "extension_point": "ACCOUNT_ALLOWANCE_HOOK",
        "hook_id": 3,
        "owner_id": 1001,
        "timestamp_range": Range(1_000_000_001, 2_000_000_000),
        "type": "EVM",
    }

    assert HookSerializer.shared().to_representation(row) == {
        "admin_key": {"_type": "ECDSA_SECP256K1", "key": "02" * 33},
        "contract_id": "1.2.9",
        "created_timestamp": "1.000000001",
        "deleted": True,
        "extension_point": "ACCOUNT_ALLOWANCE_HOOK",
        "hook_id": 3,
        "owner_id": "0.0.1001",
        "timestamp_range": {"from": "1.000000001", "to": "2.000000000"},
        "type": "EVM",
    }


def test_a_storage_slot():
    serializer = HookStorageSerializer.shared()

    assert serializer.to_representation({"key": b"\x00\x01", "value": b"", "timestamp": 5}) == {
        "key": "0x0001", "value": "0x", "timestamp": "0.000000005",
    }
    assert serializer.to_representation({"key": b"\x01" * 32, "value": None, "timestamp": 0})["value"] is None
