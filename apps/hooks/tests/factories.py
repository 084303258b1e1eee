"""Rows of the hook tables for the tests."""

from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.hooks.models import Hook, HookStorage, HookStorageChange

T = 1_726_874_345_123_456_780
ED25519_KEY = bytes.fromhex("1220" + "ab" * 32)


def key(number: int) -> bytes:
    """Slot `number` as the mirror stores a key: 32 bytes, big-endian."""
    return number.to_bytes(32, "big")


def key_hex(number: int) -> str:
    return "0x" + key(number).hex()


def create_hook(owner: int, hook_id: int, **overrides) -> Hook:
    fields = {
        "owner_id": owner,
        "hook_id": hook_id,
        "contract_id": 5001,
        "created_timestamp": T + hook_id,
        "timestamp_range": Range(T + hook_id, None),
        "extension_point": "ACCOUNT_ALLOWANCE_HOOK",
        "deleted": False,
        "admin_key": ED25519_KEY,
        "type": "EVM",
    }
    return Hook.objects.create(**{**fields, **overrides})


def create_slot(owner: int, hook_id: int, number: int, *, value: bytes | None = None, **overrides) -> HookStorage:
    fields = {
        "owner_id": owner,
        "hook_id": hook_id,
        "key": key(number),
        "value": key(number + 1000) if value is None else value,
        "created_timestamp": T,
        "modified_timestamp": T + number,
        "deleted": False,
    }
    return HookStorage.objects.create(**{**fields, **overrides})


def create_change(
    owner: int, hook_id: int, number: int, timestamp: int, *, written: bytes | None = b"\x03\x04", **overrides
) -> HookStorageChange:
    fields = {
        "owner_id": owner,
        "hook_id": hook_id,
        "key": key(number),
        "consensus_timestamp": timestamp,
        "value_read": b"\x01\x02",
        "value_written": written,
        "deleted": not written,
    }
    return HookStorageChange.objects.create(**{**fields, **overrides})
