from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import add_hex_prefix, format_timestamp, to_hex

__all__ = ("BlockSerializer",)

LOGS_BLOOM_HEX_DIGITS = 512


class BlockSerializer(RowSerializer):
    def to_representation(self, block):
        versions = (block["hapi_version_major"], block["hapi_version_minor"], block["hapi_version_patch"])
        return {
            "count": block["count"],
            "gas_used": None if block["gas_used"] == -1 else block["gas_used"],
            "hapi_version": None if None in versions else "{}.{}.{}".format(*versions),
            "hash": add_hex_prefix(block["hash"]),
            "logs_bloom": to_hex(block["logs_bloom"], pad=LOGS_BLOOM_HEX_DIGITS),
            "name": block["name"],
            "number": block["index"],
            "previous_hash": add_hex_prefix(block["prev_hash"]),
            "size": block["block_size"],
            "timestamp": {
                "from": format_timestamp(block["consensus_start"]),
                "to": format_timestamp(block["consensus_end"]),
            },
        }
