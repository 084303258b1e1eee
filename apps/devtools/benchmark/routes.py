"""The benchmark's route mix: URL templates per route family.

Templates are `str.format` strings over `Samples` fields: ids and instants that
exist in a generated ledger (mostly derived from its `Layout`, a few read back
from the database). A family other helpers are still building joins by adding
its templates here; the benchmark marks a URL our service does not serve yet
instead of failing.
"""

from dataclasses import asdict, dataclass

import psycopg

from apps.devtools.generator.ledger import (
    BLOCK_SIZE,
    FIRST_ACCOUNT,
    KINDS,
    Layout,
    count_before,
)

ROUTES: dict[str, tuple[str, ...]] = {
    "blocks": (
        "/api/v1/blocks",
        "/api/v1/blocks?limit=100",
        "/api/v1/blocks?block.number=gte:{block}&order=asc",
        "/api/v1/blocks?timestamp=lt:{timestamp}",
        "/api/v1/blocks/{block}",
        "/api/v1/blocks/{block_hash}",
    ),
    "transactions": (
        "/api/v1/transactions",
        "/api/v1/transactions?limit=100",
        "/api/v1/transactions?timestamp=gt:{timestamp}&order=asc",
        "/api/v1/transactions?account.id={account}",
        "/api/v1/transactions?account.id={account}&type=credit",
        "/api/v1/transactions?transactiontype=CONSENSUSSUBMITMESSAGE",
        "/api/v1/transactions?result=fail",
        "/api/v1/transactions/{transaction_id}",
        "/api/v1/transactions/{transaction_hash}",
    ),
    "balances": (
        "/api/v1/balances",
        "/api/v1/balances?account.id={account}",
        "/api/v1/balances?account.id=gte:{account}&order=asc",
        "/api/v1/balances?account.balance=gt:{balance}",
        "/api/v1/balances?timestamp={snapshot}",
        "/api/v1/balances?timestamp={snapshot}&account.id={account}",
    ),
    "accounts": (
        "/api/v1/accounts",
        "/api/v1/accounts?account.id=gte:{account}&order=asc",
        "/api/v1/accounts/{account}",
        "/api/v1/accounts/{evm_address}",
        "/api/v1/accounts/{account}/nfts",
        "/api/v1/accounts/{account}/rewards",
        "/api/v1/accounts/{allowance_owner}/allowances/crypto",
        "/api/v1/accounts/{allowance_owner}/allowances/tokens",
        "/api/v1/accounts/{account}/tokens",
    ),
    "tokens": (
        "/api/v1/tokens",
        "/api/v1/tokens?type=NON_FUNGIBLE_UNIQUE",
        "/api/v1/tokens/{token}",
        "/api/v1/tokens/{token}/balances",
        "/api/v1/tokens/{nft_token}/nfts",
        "/api/v1/tokens/{nft_token}/nfts/1",
        "/api/v1/tokens/{nft_token}/nfts/1/transactions",
    ),
    "topics": (
        "/api/v1/topics/{topic}",
        "/api/v1/topics/{topic}/messages",
        "/api/v1/topics/{topic}/messages?order=desc",
        "/api/v1/topics/{topic}/messages/1",
        "/api/v1/topics/messages/{message_timestamp}",
    ),
    "schedules": (
        "/api/v1/schedules",
        "/api/v1/schedules?account.id={schedule_payer}",
        "/api/v1/schedules/{schedule}",
    ),
    "contracts": (
        "/api/v1/contracts",
        "/api/v1/contracts/{contract}",
        "/api/v1/contracts/{contract}/results",
        "/api/v1/contracts/{contract}/results/{contract_timestamp}",
        "/api/v1/contracts/{contract}/results/logs",
        "/api/v1/contracts/{contract}/state",
        "/api/v1/contracts/results",
        "/api/v1/contracts/results/{contract_transaction_id}",
        "/api/v1/contracts/results/{contract_hash}",
        "/api/v1/contracts/results/logs",
    ),
    # Served upstream by its Java service, which the comparator does not run: ours only.
    "network": (
        "/api/v1/network/supply",
        "/api/v1/network/supply?timestamp=lt:{timestamp}",
        "/api/v1/network/nodes",
        "/api/v1/network/registered-nodes",
        "/api/v1/network/registered-nodes?type=BLOCK_NODE&registerednode.id=gt:2&limit=5",
    ),
    # Java-served upstream as well: ours only. The allowance owner 0.0.1020 owns hooks (the generator's rule).
    "hooks": (
        "/api/v1/accounts/{allowance_owner}/hooks",
        "/api/v1/accounts/{allowance_owner}/hooks/1/storage",
        "/api/v1/accounts/{allowance_owner}/hooks/1/storage?timestamp={timestamp}",
    ),
}


@dataclass(frozen=True)
class Samples:
    """Values URL templates name: from the middle of the ledger, so pages have rows on both sides."""

    block: int
    block_hash: str
    timestamp: str
    account: str
    evm_address: str
    allowance_owner: str
    transaction_id: str
    transaction_hash: str
    snapshot: str
    balance: int
    token: str
    nft_token: str
    topic: str
    message_timestamp: str
    schedule: str
    schedule_payer: str
    contract: str
    contract_timestamp: str
    contract_transaction_id: str
    contract_hash: str


def seconds(nanos: int) -> str:
    return f"{nanos // 10**9}.{nanos % 10**9:09d}"


def transaction_id(payer: int, valid_start: int) -> str:
    return f"0.0.{payer}-{valid_start // 10**9}-{valid_start % 10**9:09d}"


def index_of_kind(kind: str, near: int) -> int:
    return next(index for index in range(near, near + len(KINDS)) if KINDS[index % len(KINDS)] == kind)


def samples_for(layout: Layout, conninfo: str) -> Samples:
    middle = layout.transactions // 2
    transfer = index_of_kind("crypto", middle)
    message = index_of_kind("message", middle)
    contract_call = index_of_kind("contract", middle)
    schedule_create = index_of_kind("schedule", middle)
    schedule_id = layout.first_schedule + count_before("schedule", schedule_create)
    account = layout.account(layout.accounts // 2 + 7)
    contract_timestamp = layout.timestamp(contract_call)
    with psycopg.connect(conninfo) as connection:
        block_hash = connection.execute(
            "select hash from record_file where index = %s", [middle // BLOCK_SIZE]
        ).fetchone()[0]
        payer, valid_start, full_hash = connection.execute(
            "select payer_account_id, valid_start_ns, transaction_hash from transaction where consensus_timestamp = %s",
            [layout.timestamp(transfer)],
        ).fetchone()
        evm_address = connection.execute(
            "select evm_address from entity where id = %s", [FIRST_ACCOUNT + 3]
        ).fetchone()[0]
        schedule_payer = connection.execute(
            "select payer_account_id from schedule where schedule_id = %s", [schedule_id]
        ).fetchone()[0]
        contract_hash, contract_payer, contract_valid_start = connection.execute(
            "select r.transaction_hash, t.payer_account_id, t.valid_start_ns from contract_result r"
            " join transaction t using (consensus_timestamp) where consensus_timestamp = %s",
            [contract_timestamp],
        ).fetchone()
    return Samples(
        block=middle // BLOCK_SIZE,
        block_hash=block_hash,
        timestamp=seconds(layout.timestamp(middle)),
        account=f"0.0.{account}",
        evm_address="0x" + bytes(evm_address).hex(),
        allowance_owner=f"0.0.{FIRST_ACCOUNT + 19}",
        transaction_id=transaction_id(payer, valid_start),
        transaction_hash=bytes(full_hash).hex(),
        balance=layout.starting_balance,
        snapshot=seconds(layout.snapshot_timestamp(layout.snapshot_points()[-1])),
        token=f"0.0.{layout.first_fungible_token}",
        nft_token=f"0.0.{layout.first_nft_token}",
        topic=f"0.0.{layout.first_topic}",
        message_timestamp=seconds(layout.timestamp(message)),
        schedule=f"0.0.{schedule_id}",
        schedule_payer=f"0.0.{schedule_payer}",
        contract=f"0.0.{layout.first_contract + count_before('contract', contract_call) % layout.contracts}",
        contract_timestamp=seconds(contract_timestamp),
        contract_transaction_id=transaction_id(contract_payer, contract_valid_start),
        contract_hash="0x" + bytes(contract_hash).hex(),
    )


def is_list_route(url: str) -> bool:
    """A URL of a list route: its path ends with a collection, not with an id, number, hash or timestamp."""
    last = url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[1]
    return last.isalpha()


def urls(samples: Samples, families: list[str] | None = None) -> list[tuple[str, str]]:
    """(family, URL) of the route mix, limited to `families` when given."""
    values = asdict(samples)
    return [
        (family, template.format(**values))
        for family, templates in ROUTES.items()
        if not families or family in families
        for template in templates
    ]
