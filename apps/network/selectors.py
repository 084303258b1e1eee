import datetime
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from django.conf import settings

from apps.common.codecs import MAX_LONG, MAX_NUM, MAX_REALM, MAX_SHARD, encode_entity_id
from apps.common.database import column_names, statement_cursor
from apps.network.models import NetworkStake
from apps.tokens.models import CustomFee, Token, TokenType
from apps.topics.models import Topic

__all__ = (
    "EXCHANGE_RATE_FILE",
    "FEE_SCHEDULE_FILE",
    "NodeCriteria",
    "Supply",
    "SystemFile",
    "latest_system_file",
    "network_nodes",
    "network_stake_latest",
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

FILE_CREATE, FILE_UPDATE = 17, 19

# A version starts at its file's latest create or non-empty update in the bounds and runs
# through every later row up to the upper bound (appends; empty updates change nothing).
_FILE_AT_TIMESTAMP = f"""
    select max(consensus_timestamp), string_agg(file_data, '' order by consensus_timestamp)
    from file_data
    where entity_id = %(entity_id)s
      and consensus_timestamp >= (
        select consensus_timestamp
        from file_data
        where entity_id = %(entity_id)s
          and consensus_timestamp between %(lower)s and %(upper)s
          and (transaction_type = {FILE_CREATE} or (transaction_type = {FILE_UPDATE} and length(file_data) <> 0))
        order by consensus_timestamp desc
        limit 1
      )
      and consensus_timestamp <= %(upper)s
      and (transaction_type <> {FILE_UPDATE} or length(file_data) <> 0)
"""


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
            cursor.execute(_FILE_AT_TIMESTAMP, {"entity_id": entity_id, "lower": lower, "upper": upper})
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


# Account numbers whose hbars are not released (the upstream's unreleasedSupplyAccounts), inclusive ranges.
UNRELEASED_SUPPLY_ACCOUNTS = ((2, 2), (42, 42), (44, 71), (73, 87), (99, 100), (200, 349), (400, 750))


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
        ranges, params = _unreleased_account_condition("id"), []
        sql = f"""
            select coalesce(sum(balance), 0), coalesce(max(balance_timestamp), 0)
            from entity where {ranges}
        """
    else:
        upper = MAX_LONG if upper is None else upper
        ranges = _unreleased_account_condition("account_id")
        params = [max(lower or 0, _first_day_of_previous_month(upper)), upper]
        sql = f"""
            select coalesce(sum(balance), 0), coalesce(max(consensus_timestamp), 0)
            from (
              select distinct on (account_id) balance, consensus_timestamp
              from account_balance
              where ({ranges}) and consensus_timestamp between %s and %s
              order by account_id, consensus_timestamp desc
            ) latest
        """
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        unreleased, timestamp = cursor.fetchone()
    return Supply(unreleased=int(unreleased), consensus_timestamp=timestamp)


def _unreleased_account_condition(column: str) -> str:
    """The unreleased accounts' ranges, written into the SQL: they are constants, and passed as
    parameters they made PostgreSQL plan the statement anew on every request."""
    shard, realm = settings.MIRROR["SHARD"], settings.MIRROR["REALM"]
    return " or ".join(
        f"{column} between {encode_entity_id(shard, realm, first):d} and {encode_entity_id(shard, realm, last):d}"
        for first, last in UNRELEASED_SUPPLY_ACCOUNTS
    )


def _first_day_of_previous_month(nanos: int) -> int:
    moment = datetime.datetime.fromtimestamp(nanos // 10**9, datetime.UTC)
    year, month = (moment.year, moment.month - 1) if moment.month > 1 else (moment.year - 1, 12)
    return int(datetime.datetime(year, month, 1, tzinfo=datetime.UTC).timestamp()) * 10**9


#
# Nodes
#


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCriteria:
    """Which nodes of which address book: `node_ids` (None: any) within [lower, upper]."""

    file_id: int
    node_ids: Sequence[int] | None
    lower: int
    upper: int
    order: str
    limit: int


_NODES = """
    with book as (
      select start_consensus_timestamp, end_consensus_timestamp, file_id
      from address_book
      where file_id = %(file_id)s
      order by start_consensus_timestamp desc
      limit 1
    ), stake as (
      select * from node_stake where consensus_timestamp = (select max(consensus_timestamp) from node_stake)
    )
    select
      entry.node_id, entry.memo, entry.description, entry.public_key, entry.node_cert_hash,
      coalesce(node.account_id, entry.node_account_id) as node_account_id,
      book.file_id, book.start_consensus_timestamp, book.end_consensus_timestamp,
      node.admin_key, node.associated_registered_nodes, node.decline_reward, node.grpc_proxy_endpoint::text,
      stake.max_stake, stake.min_stake, stake.reward_rate, stake.stake, stake.stake_not_rewarded,
      stake.stake_rewarded, stake.staking_period,
      (
        select coalesce(
          json_agg(
            json_build_object('domain_name', domain_name, 'ip_address_v4', ip_address_v4, 'port', port)
            order by ip_address_v4, port
          ),
          '[]'
        )::text
        from address_book_service_endpoint endpoint
        where endpoint.consensus_timestamp = entry.consensus_timestamp and endpoint.node_id = entry.node_id
      ) as service_endpoints
    from book
    join address_book_entry entry on entry.consensus_timestamp = book.start_consensus_timestamp
    left join stake on stake.node_id = entry.node_id
    left join node on node.node_id = entry.node_id
    where entry.node_id between %(lower)s and %(upper)s {node_ids}
    order by entry.node_id {order}
    limit %(limit)s
"""


_JSON_COLUMNS = ("grpc_proxy_endpoint", "service_endpoints")


def network_nodes(*, criteria: NodeCriteria) -> list[dict]:
    """A page of the nodes of the latest address book of `criteria.file_id`, each with its
    service endpoints, its latest stake and its `node` row (None where either is missing)."""
    params = {
        "file_id": criteria.file_id,
        "lower": criteria.lower,
        "upper": criteria.upper,
        "node_ids": list(criteria.node_ids or ()),
        "limit": criteria.limit,
    }
    sql = _NODES.format(
        node_ids="and entry.node_id = any(%(node_ids)s)" if criteria.node_ids is not None else "",
        order="desc" if criteria.order == "desc" else "asc",
    )
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
        columns = column_names(cursor)
        rows = [dict(zip(columns, row)) for row in cursor.fetchall()]
    # JSON read as text: Django leaves decoding jsonb to its fields, which raw queries lack.
    for row in rows:
        for column in _JSON_COLUMNS:
            row[column] = None if row[column] is None else json.loads(row[column])
    return rows


__all__ += (
    "MirrorFeeState",
    "TokenFeeState",
    "token_fee_state",
    "topic_has_custom_fees",
)

#
# Fee estimation (POST /network/fees): the simple fee schedule file and what STATE mode reads.
#

SIMPLE_FEE_SCHEDULE_FILE_NUM = 113
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19


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
