from typing import NamedTuple

from django.conf import settings
from django.db import connection

from apps.common.codecs import MAX_NUM, MAX_REALM, MAX_SHARD, encode_entity_id
from apps.tokens.models import CustomFee, Token, TokenType
from apps.topics.models import Topic

__all__ = (
    "MirrorFeeState",
    "TokenFeeState",
    "simple_fee_schedule_versions",
    "token_fee_state",
    "topic_has_custom_fees",
)

#
# Fee estimation (POST /network/fees): the simple fee schedule file and what STATE mode reads.
# TODO(merge): simple_fee_schedule_versions gives way to `latest_system_file`.
#

SIMPLE_FEE_SCHEDULE_FILE_NUM = 113
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19


def _simple_fee_schedule_file_id() -> int:
    return encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], SIMPLE_FEE_SCHEDULE_FILE_NUM)


def simple_fee_schedule_versions(*, limit: int) -> list[bytes]:
    """The file's contents, newest version first, at most `limit` of them: each version is
    a create or non-empty update followed by the appends up to the next version."""
    file_id = _simple_fee_schedule_file_id()
    with connection.cursor() as cursor:
        cursor.execute(
            """
            select consensus_timestamp from file_data
            where entity_id = %s
              and (transaction_type = %s or (transaction_type = %s and octet_length(file_data) > 0))
            order by consensus_timestamp desc
            limit %s
            """,
            [file_id, FILE_CREATE, FILE_UPDATE, limit],
        )
        starts = sorted(timestamp for (timestamp,) in cursor.fetchall())
        if not starts:
            return []
        cursor.execute(
            """
            select consensus_timestamp, file_data from file_data
            where entity_id = %s and consensus_timestamp >= %s and transaction_type in (%s, %s, %s)
            order by consensus_timestamp
            """,
            [file_id, starts[0], FILE_APPEND, FILE_CREATE, FILE_UPDATE],
        )
        versions: list[bytearray] = []
        for timestamp, data in cursor.fetchall():
            if versions and timestamp not in starts:
                versions[-1] += bytes(data or b"")
            elif timestamp in starts:
                versions.append(bytearray(data))
    return [bytes(version) for version in reversed(versions)]


def topic_has_custom_fees(*, topic_id: int) -> bool:
    """Whether the topic exists and charges fixed custom fees."""
    if not Topic.objects.filter(id=topic_id).exists():
        return False
    fixed_fees = CustomFee.objects.filter(entity_id=topic_id).values_list("fixed_fees", flat=True).first()
    return bool(fixed_fees)


class TokenFeeState(NamedTuple):
    is_nft: bool
    has_custom_fees: bool


def token_fee_state(*, token_id: int) -> TokenFeeState | None:
    """None for an unknown token."""
    token_type = Token.objects.filter(token_id=token_id).values_list("type", flat=True).first()
    if token_type is None:
        return None
    fees = CustomFee.objects.filter(entity_id=token_id).values("fixed_fees", "fractional_fees", "royalty_fees").first()
    fee_count = sum(len(fees[kind] or ()) for kind in fees) if fees else 0
    return TokenFeeState(is_nft=token_type == TokenType.NON_FUNGIBLE_UNIQUE, has_custom_fees=fee_count > 0)


class MirrorFeeState:
    """The ledger of STATE mode estimates: topics and tokens named by their protobuf ids
    (an id no entity can have names nothing)."""

    def topic_has_custom_fees(self, topic_id) -> bool:
        entity_id = _entity_id(topic_id.shardNum, topic_id.realmNum, topic_id.topicNum)
        return entity_id is not None and topic_has_custom_fees(topic_id=entity_id)

    def token(self, token_id) -> TokenFeeState | None:
        entity_id = _entity_id(token_id.shardNum, token_id.realmNum, token_id.tokenNum)
        return None if entity_id is None else token_fee_state(token_id=entity_id)


def _entity_id(shard: int, realm: int, num: int) -> int | None:
    if 0 <= shard <= MAX_SHARD and 0 <= realm <= MAX_REALM and 0 <= num <= MAX_NUM:
        return encode_entity_id(shard, realm, num)
    return None
