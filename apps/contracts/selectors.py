"""Reads of contracts and what they produced (results, logs, state, actions)."""

import re

from django.conf import settings
from django.db import connection

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument, MirrorApiError
from apps.common.codecs import encode_entity_id, parse_entity_id
from apps.common.filters import Comparison
from apps.contracts.filtersets import KeyBound, LogCriteria

__all__ = (
    "contract_id_from_path",
    "contract_log_list",
    "contract_log_page_query",
    "transaction_timestamp_by_hash",
)

_CONTRACT_PATH = re.compile(r"^(\d{1,10}\.){0,2}(\d{1,10}|(0x)?[A-Fa-f0-9]{40})$")


def contract_id_from_path(text: str) -> int | None:
    """The encoded id named by a `{contractIdOrAddress}` path segment, or None
    for an EVM address that no live contract or account holds.

    An id or a long-zero address is taken as given, without checking that it
    exists. Since HIP-1340 an externally owned account with a code delegation
    produces results, logs and state like a contract, so an address may name an
    account as well as a contract.
    """
    if not _CONTRACT_PATH.match(text):
        raise InvalidArgument.for_params("contractid")
    try:
        entity = parse_entity_id(text)
    except ValueError:
        raise InvalidArgument.for_params("contractid") from None
    if entity.evm_address is None:
        return encode_entity_id(entity.shard, entity.realm, entity.num)
    return contract_id_by_evm_address(bytes.fromhex(entity.evm_address))


def contract_id_by_evm_address(address: bytes) -> int | None:
    """The live contract or account holding an EVM address; None when none does."""
    ids = list(
        Entity.objects.filter(deleted=False, type__in=("CONTRACT", "ACCOUNT"), evm_address=address)
        .values_list("id", flat=True)[:2]
    )
    if len(ids) > 1:
        raise MirrorApiError(
            f"More than one contract or account with the evm address 0x{address.hex()} have been found."
        )
    return ids[0] if ids else None


# --- Logs ---

_SQL_OPERATORS = {"eq": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_LOG_COLUMNS = (
    "cl.bloom, cl.consensus_timestamp, cl.contract_id, cl.data, cl.index, cl.root_contract_id,"
    " cl.topic0, cl.topic1, cl.topic2, cl.topic3, cl.transaction_hash, cl.transaction_index"
)


def contract_log_list(*, criteria: LogCriteria, contract_id: int | None = None) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(*contract_log_page_query(criteria=criteria, contract_id=contract_id))
        columns = [column.name for column in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


def contract_log_page_query(*, criteria: LogCriteria, contract_id: int | None = None) -> tuple[str, list]:
    """The SQL and parameters of a page of logs, of one contract (or account) or
    of all, in (timestamp, index) order.

    The keyset bounds split into up to three parts, each a single range of the
    (contract_id, consensus_timestamp, index) or (consensus_timestamp, index)
    index: the rest of the first timestamp past the index bound, the timestamps
    strictly inside, and the start of the last one. Each part reads at most a
    page; their union is sorted and cut to the page.
    """
    common, common_params = [], []
    if contract_id is not None:
        common.append("cl.contract_id = %s")
        common_params.append(contract_id)
    for name, values in criteria.topics.items():
        common.append(f"cl.{name} in ({', '.join(['%s'] * len(values))})")
        common_params.extend(values)

    order = "asc" if criteria.order == "asc" else "desc"
    ordering = f"order by consensus_timestamp {order}, index {order}"
    parts, params = [], []
    for bounds in _keyset_parts(criteria.timestamp, criteria.index) or [[]]:
        conditions = [*common, *(f"cl.{column} {_SQL_OPERATORS[operator]} %s" for column, operator, _ in bounds)]
        where = f"where {' and '.join(conditions)}" if conditions else ""
        parts.append(f"(select {_LOG_COLUMNS} from contract_log cl {where} {ordering} limit %s)")
        params.extend([*common_params, *(value for _, _, value in bounds), criteria.limit])
    sql = f"""
        select cl.*, (select e.evm_address from entity e where e.id = cl.contract_id) as evm_address,
            block.hash as block_hash, block.index as block_number
        from ({" union all ".join(parts)}) cl
        left join lateral (
            select rf.hash, rf.index from record_file rf
            where rf.consensus_end >= cl.consensus_timestamp and rf.consensus_start <= cl.consensus_timestamp
            order by rf.consensus_end limit 1
        ) block on true
        {ordering}
        limit %s
    """
    return sql, [*params, criteria.limit]


def _keyset_parts(timestamp: KeyBound, index: KeyBound) -> list[list[tuple[str, str, int]]]:
    """The (column, operator, value) conditions of each non-empty part."""

    def condition(column: str, comparison: Comparison | None, operator: str | None = None):
        return [] if comparison is None else [(column, operator or comparison.operator, comparison.value)]

    ts, idx = "consensus_timestamp", "index"
    if not index.has_range:
        lower = [
            *condition(ts, timestamp.equal),
            *condition(ts, timestamp.lower),
            *condition(ts, timestamp.upper),
            *condition(idx, index.equal),
        ]
    elif timestamp.lower and index.lower:
        lower = [*condition(ts, timestamp.lower, "eq"), *condition(idx, index.lower)]
    elif timestamp.equal:
        lower = [*condition(ts, timestamp.equal), *condition(idx, index.lower), *condition(idx, index.upper)]
    else:
        lower = []
    inner = []
    if timestamp.has_range and index.has_range:
        inner = [
            *condition(ts, timestamp.lower, "gt" if index.lower else None),
            *condition(ts, timestamp.upper, "lt" if index.upper else None),
        ]
    upper = []
    if timestamp.upper and index.upper:
        upper = [*condition(ts, timestamp.upper, "eq"), *condition(idx, index.upper)]
    return [part for part in (lower, inner, upper) if part]


def transaction_timestamp_by_hash(*, transaction_hash: bytes, timestamps: KeyBound) -> int | None:
    """The consensus timestamp of the transaction with this 48-byte hash or 32-byte
    hash prefix, within the timestamp bounds; None when there is none."""
    conditions = ["substring(hash from 1 for 32) = %s"]
    params: list = [transaction_hash[:32]]
    if len(transaction_hash) > 32:
        conditions.append("hash || coalesce(hash_suffix, ''::bytea) = %s")
        params.append(transaction_hash)
    for comparison in (timestamps.equal, timestamps.lower, timestamps.upper):
        if comparison is not None:
            conditions.append(f"consensus_timestamp {_SQL_OPERATORS[comparison.operator]} %s")
            params.append(comparison.value)
    with connection.cursor() as cursor:
        cursor.execute(
            f"select consensus_timestamp from transaction_hash where {' and '.join(conditions)}"
            " order by consensus_timestamp limit 1",
            params,
        )
        row = cursor.fetchone()
    return row[0] if row else None
