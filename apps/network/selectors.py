import datetime
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from django.conf import settings

from apps.common.database.connections import column_names, statement_cursor
from apps.common.ledger.codecs import (
    MAX_LONG,
    MAX_NUM,
    MAX_REALM,
    MAX_SHARD,
    encode_entity_id,
)
from apps.common.query.comparisons import Where
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.network import sql
from apps.network.models import NetworkStake, RegisteredNode
from apps.tokens.models import CustomFee, Token, TokenType
from apps.topics.models import Topic

__all__ = (
    "EXCHANGE_RATE_FILE",
    "FEE_SCHEDULE_FILE",
    "MirrorFeeState",
    "SIMPLE_FEE_SCHEDULE_FILE_NUM",
    "Supply",
    "SystemFile",
    "TokenFeeState",
    "latest_system_file",
    "network_nodes",
    "network_stake_latest",
    "registered_nodes",
    "token_fee_state",
    "topic_has_custom_fees",
    "unreleased_supply",
)

logger = logging.getLogger(__name__)

T = TypeVar("T")

#
# System files
#

FEE_SCHEDULE_FILE = 111
EXCHANGE_RATE_FILE = 112
# Tries before a file that keeps failing to parse counts as missing, as the upstream's maxFileAttempts.
SYSTEM_FILE_ATTEMPTS = 12


@dataclass(frozen=True, slots=True)
class SystemFile(Generic[T]):
    """A system file's parsed content and the consensus timestamp of its last row."""

    consensus_timestamp: int
    data: T


def latest_system_file(
    file_num: int, *, lower: int = 0, upper: int = MAX_LONG, parse: Callable[[bytes], T]
) -> SystemFile[T] | None:
    """The latest version of system file `0.0.<file_num>` (in the configured shard and realm)
    that began in [`lower`, `upper`], its rows (create or update, then appends) concatenated
    up to `upper` and parsed with `parse`.

    A version that does not parse (`parse` raises ValueError) may be one still being
    appended to, or a bad upload: the version before it is tried instead, up to
    SYSTEM_FILE_ATTEMPTS times. None when no version parses.
    """
    entity_id = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], file_num)
    for attempt in range(1, SYSTEM_FILE_ATTEMPTS + 1):
        with statement_cursor() as cursor:
            cursor.execute(sql.FILE_AT_TIMESTAMP, {"entity_id": entity_id, "lower": lower, "upper": upper})
            timestamp, content = cursor.fetchone()
        if timestamp is None:
            return None
        try:
            return SystemFile(timestamp, parse(bytes(content or b"")))
        except ValueError as error:
            logger.warning("Attempt %d: file 0.0.%d at %d does not parse: %s", attempt, file_num, timestamp, error)
            upper = timestamp - 1
    return None


#
# Stake and supply
#


def network_stake_latest() -> dict | None:
    return NetworkStake.objects.order_by("-consensus_timestamp").values().first()


@dataclass(frozen=True, slots=True)
class Supply:
    unreleased: int
    # The latest balance timestamp counted; 0 when none was.
    consensus_timestamp: int


def unreleased_supply(*, lower: int | None = None, upper: int | None = None) -> Supply:
    """The unreleased accounts' balance: now (from `entity`) without bounds, else their latest
    balance snapshots in [lower, upper], looking back no further than the first day of the
    month before `upper`'s (balance snapshots are partitioned by month)."""
    if lower is None and upper is None:
        statement, params = sql.unreleased_balance_now(), []
    else:
        upper = MAX_LONG if upper is None else upper
        statement = sql.unreleased_balance_between()
        params = [max(lower or 0, _first_day_of_previous_month(upper)), upper]
    with statement_cursor() as cursor:
        cursor.execute(statement, params)
        unreleased, timestamp = cursor.fetchone()
    return Supply(unreleased=int(unreleased), consensus_timestamp=timestamp)


def _first_day_of_previous_month(nanos: int) -> int:
    moment = datetime.datetime.fromtimestamp(nanos // 10**9, datetime.UTC)
    year, month = (moment.year, moment.month - 1) if moment.month > 1 else (moment.year - 1, 12)
    return int(datetime.datetime(year, month, 1, tzinfo=datetime.UTC).timestamp()) * 10**9


#
# Nodes
#

ADDRESS_BOOK_FILE = 102
_JSON_COLUMNS = ("grpc_proxy_endpoint", "service_endpoints")


def network_nodes(criteria: PageCriteria) -> list[dict]:
    """A page of the nodes of the latest address book of `file.id` (0.0.102 by default), in
    the range of their `node.id` comparisons (`ne` compares nothing), each with its service
    endpoints, its latest stake and its `node` row (None where either is missing)."""
    file_id = criteria.option("file.id")
    if file_id is None:
        book = encode_entity_id(settings.MIRROR["SHARD"], settings.MIRROR["REALM"], ADDRESS_BOOK_FILE)
    else:
        book = file_id.value
    where = Where()
    where.compare("entry.node_id", [comparison for comparison in criteria["node.id"] if comparison.operator != "ne"])
    params = [book, *where.params, criteria.limit]
    with statement_cursor() as cursor:
        cursor.execute(sql.nodes(where.sql, criteria.order), params)
        columns = column_names(cursor)
        rows = [dict(zip(columns, row)) for row in cursor.fetchall()]
    # JSON read as text: Django leaves decoding jsonb to its fields, which raw queries lack.
    for row in rows:
        for column in _JSON_COLUMNS:
            row[column] = None if row[column] is None else json.loads(row[column])
    return rows


#
# Registered nodes
#

REGISTERED_NODE_COLUMNS = (
    "admin_key", "created_timestamp", "description", "registered_node_id", "service_endpoints", "timestamp_range"
)


def _registered_node_page(criteria: PageCriteria):
    nodes = RegisteredNode.objects.filter(deleted=False)
    node_type = criteria.option("type")
    if node_type is not None:
        nodes = nodes.filter(type__contains=[int(node_type)])
    return narrow(nodes.values(*REGISTERED_NODE_COLUMNS), criteria)


_REGISTERED_NODE_PAGES = CompiledPages(_registered_node_page)


def registered_nodes(criteria: PageCriteria) -> list[dict]:
    """A page of the registered nodes not deleted, in the criteria's `registered_node_id` range,
    with an endpoint of the `type` option's type when it is given."""
    return _REGISTERED_NODE_PAGES.rows(criteria)


#
# Fee estimation (POST /network/fees): the simple fee schedule file and what STATE mode reads.
#

SIMPLE_FEE_SCHEDULE_FILE_NUM = 113


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
