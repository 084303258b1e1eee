from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    encode_key,
    format_entity_id,
    format_timestamp,
    to_hex,
)

__all__ = ("HookSerializer", "HookStorageSerializer", "format_java_timestamp", "format_timestamp_range")


def format_java_timestamp(nanos: int | None) -> str | None:
    """`seconds.nanos` as the Java service prints it: zero is `0.0`."""
    if nanos == 0:
        return "0.0"
    return format_timestamp(nanos)


def format_timestamp_range(timestamp_range) -> dict | None:
    if timestamp_range is None:
        return None
    return {
        "from": format_java_timestamp(timestamp_range.lower),
        "to": format_java_timestamp(timestamp_range.upper),
    }


class HookSerializer(RowSerializer):
    """A row of `hook` (`selectors.HOOK_COLUMNS`)."""

    def to_representation(self, row):
        return {
            "admin_key": encode_key(row["admin_key"]),
            "contract_id": format_entity_id(row["contract_id"]),
            "created_timestamp": format_java_timestamp(row["created_timestamp"]),
            "deleted": row["deleted"],
            "extension_point": row["extension_point"],
            "hook_id": row["hook_id"],
            "owner_id": format_entity_id(row["owner_id"]),
            "timestamp_range": format_timestamp_range(row["timestamp_range"]),
            "type": row["type"],
        }


class HookStorageSerializer(RowSerializer):
    """A slot of `selectors.hook_storage_list`: key and value as `0x` hex, the value null when none was written."""

    def to_representation(self, row):
        return {
            "key": to_hex(row["key"]),
            "value": to_hex(row["value"]),
            "timestamp": format_java_timestamp(row["timestamp"]),
        }
