"""Contract results: the pages of `/contracts/{contractIdOrAddress}/results` and
`/contracts/results`, and one result with what its detail shows."""

import json
from collections.abc import Sequence

from apps.accounts.models import Entity
from apps.common.errors import NotFound
from apps.common.ledger.codecs import decode_entity_id
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria
from apps.contracts import sql
from apps.contracts.gas_price import attach_gas_prices
from apps.contracts.selectors.contract_transactions import ContractTransaction
from apps.contracts.selectors.files import file_versions

_FIRST_USER_FILE_NUM = 1001


def contract_result_list(criteria: PageCriteria) -> list[dict]:
    """A page of one contract's results; the scope is the contract's id, None for an address
    naming none."""
    (contract_id,) = criteria.scope
    if contract_id is None:
        return []
    # The upstream reads contract 0 (`/contracts/0/results`) as no contract: every contract's results.
    return result_page(criteria, contract_id=contract_id or None)


def all_contract_result_list(criteria: PageCriteria) -> list[dict]:
    """A page of every contract's results, the synthetic ones included, each with its Ethereum
    transaction, its block and, without an Ethereum transaction, its fee-schedule gas price."""
    rows = result_page(criteria, synthetic=True)
    attach_ethereum_transactions(rows)
    attach_blocks(rows)
    attach_gas_prices(rows)
    return rows


def result_page(criteria: PageCriteria, *, contract_id: int | None = None, synthetic: bool = False) -> list[dict]:
    """A page of contract results (of every contract when `contract_id` is None), newest
    first unless `order` is asc.

    `from` values are encoded ids, or EVM addresses resolved here. With `synthetic`, the HTS
    transfers the importer recorded as ERC events (synthetic logs) count as results too,
    unless `from` names senders.
    """
    senders = _resolve_senders(criteria["from"])
    block = None
    block_number, block_hash = criteria.option("block.number"), criteria.option("block.hash")
    if block_number is not None or block_hash is not None:
        block = _block_range(number=block_number, hash_prefix=block_hash)
        if block is None:
            return []
    rows = sql.rows(
        *sql.result_page(
            contract_id=contract_id,
            timestamps=criteria["timestamp"],
            senders=senders,
            block=block,
            transaction_indexes=criteria["transaction.index"],
            internal=criteria.option("internal", False),
            order=criteria.order,
            limit=criteria.limit,
        )
    )
    if synthetic and not any(c.operator == "eq" for c in senders):
        rows = _merge_synthetic(rows, criteria, block)
    return rows


def _resolve_senders(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Senders as encoded ids; an EVM address no entity holds is NotFound, as upstream."""
    resolved = []
    for comparison in comparisons:
        value = comparison.value
        if isinstance(value, bytes):
            ids = list(Entity.objects.filter(evm_address=value).values_list("id", flat=True)[:1])
            if not ids:
                raise NotFound()
            value = ids[0]
        resolved.append(Comparison(comparison.operator, value))
    return resolved


def _block_range(*, number: int | None, hash_prefix: str | None) -> tuple[int, int] | None:
    """(consensus_start, consensus_end) of a block by number or hash prefix."""
    if number is not None:
        found = sql.rows(sql.BLOCK_RANGE_BY_NUMBER, [number])
    else:
        found = sql.rows(sql.BLOCK_RANGE_BY_HASH_PREFIX, [hash_prefix + "%"])
    return (found[0]["consensus_start"], found[0]["consensus_end"]) if found else None


def _merge_synthetic(rows: list[dict], criteria: PageCriteria, block: tuple[int, int] | None) -> list[dict]:
    synthetic = sql.rows(
        *sql.synthetic_results(
            timestamps=criteria["timestamp"],
            block=block,
            transaction_indexes=criteria["transaction.index"],
            order=criteria.order,
            limit=criteria.limit,
        )
    )
    real = {row["consensus_timestamp"] for row in rows}
    merged = rows + [row for row in synthetic if row["consensus_timestamp"] not in real]
    merged.sort(key=lambda row: row["consensus_timestamp"], reverse=criteria.order == "desc")
    return merged[: criteria.limit]


def contract_result_details(*, transaction: ContractTransaction, state_contract_id: int | None) -> dict | None:
    """The contract result of a transaction with what the detail shows besides it: its Ethereum
    transaction, block, logs and state changes. The state changes are those of `state_contract_id`
    and the non-migration changes of the contracts the transaction touched, or without
    `state_contract_id` every non-migration change. None when the transaction produced no result."""
    timestamp, ids = transaction.consensus_timestamp, transaction.contract_ids
    results = sql.rows(sql.RESULT_DETAIL, [timestamp, ids])
    if not results:
        return None
    result = results[0]
    ethereum = {column: result.pop(f"ethereum_{column}") for column in sql.ETHEREUM_COLUMNS}
    block = {column: result.pop(f"block_{column}") for column in sql.BLOCK_COLUMNS}
    result["ethereum"] = None if ethereum["consensus_timestamp"] is None else _with_call_data(result, ethereum)
    result["block"] = None if block["hash"] is None else block
    result["logs"] = sql.rows(sql.RESULT_LOGS, [timestamp, ids])
    result["state_changes"] = sql.rows(*sql.result_state_changes(timestamp, ids, state_contract_id))
    return result


def attach_ethereum_transactions(rows: list[dict]) -> None:
    """Sets `ethereum` on each result: its Ethereum transaction (with call data read from its file
    when the call data was too large to keep inline), or None."""
    if not rows:
        return
    found = sql.rows(sql.ETHEREUM_TRANSACTIONS_AT, [[row["consensus_timestamp"] for row in rows]])
    by_key = {(eth["consensus_timestamp"], eth["payer_account_id"]): eth for eth in found}
    for row in rows:
        eth = by_key.get((row["consensus_timestamp"], row["payer_account_id"]))
        row["ethereum"] = None if eth is None else _with_call_data(row, eth)


def _with_call_data(result: dict, eth: dict) -> dict:
    """The Ethereum transaction of `result` as the serializers read it: its JSON lists parsed and,
    when its call data was too large to keep inline, the call data read from its file."""
    # The cursor reads jsonb as text.
    for name in ("access_list", "authorization_list"):
        if isinstance(eth[name], str):
            eth[name] = json.loads(eth[name])
    if not result["function_parameters"] and not eth["call_data"]:
        eth["call_data_file"] = _user_file_content(eth["call_data_id"])
    return eth


def _user_file_content(file_id: int | None) -> bytes | None:
    """The latest content of a user file."""
    if file_id is None or decode_entity_id(file_id).num < _FIRST_USER_FILE_NUM:
        return None
    versions = file_versions(file_id=file_id, count=1)
    return versions[0] if versions else None


def attach_blocks(rows: list[dict]) -> None:
    """Sets `block` on each result: the record file holding its timestamp, or None."""
    if not rows:
        return
    found = sql.rows(sql.BLOCKS_AT, [sorted({row["consensus_timestamp"] for row in rows})])
    blocks = {block.pop("timestamp"): block for block in found}
    for row in rows:
        row["block"] = blocks.get(row["consensus_timestamp"])
