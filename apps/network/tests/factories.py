"""Real protobuf system files (built with hiero-sdk-python's HAPI classes) and network rows."""

from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.network.models import (
    AddressBook,
    AddressBookEntry,
    AddressBookServiceEndpoint,
    FileData,
    NetworkStake,
    Node,
    NodeStake,
    RegisteredNode,
    RegisteredNodeType,
)
from apps.network.protobuf import hapi

SECOND = 1_000_000_000
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19


def exchange_rate_set(current: tuple[int, int, int], following: tuple[int, int, int]) -> bytes:
    """An `ExchangeRateSet` of two (hbar equivalent, cent equivalent, expiration seconds) rates."""
    rates = hapi().exchange_rate.ExchangeRateSet()
    for rate, (hbars, cents, expiration) in ((rates.currentRate, current), (rates.nextRate, following)):
        rate.hbarEquiv, rate.centEquiv = hbars, cents
        rate.expirationTime.seconds = expiration
    return rates.SerializeToString()


def fee_schedules(current: tuple[int, dict[str, int | None]], following: tuple[int, dict[str, int | None]]) -> bytes:
    """A `CurrentAndNextFeeSchedule` of two (expiry seconds, {functionality: service gas price})
    schedules; a None price is an entry whose fee data has no service data."""
    types = hapi().basic_types
    schedules = types.CurrentAndNextFeeSchedule()
    for schedule, (expiry, prices) in (
        (schedules.currentFeeSchedule, current),
        (schedules.nextFeeSchedule, following),
    ):
        schedule.expiryTime.seconds = expiry
        for name, gas in prices.items():
            entry = schedule.transactionFeeSchedule.add(hederaFunctionality=types.HederaFunctionality.Value(name))
            fee = entry.fees.add()
            fee.nodedata.constant = 1
            if gas is not None:
                fee.servicedata.gas = gas
    return schedules.SerializeToString()


def create_file_data(entity_id: int, consensus_timestamp: int, data: bytes, *, type: int = FILE_UPDATE) -> None:
    FileData(
        entity_id=entity_id, consensus_timestamp=consensus_timestamp, file_data=data, transaction_type=type
    ).save(force_insert=True)


def create_network_stake(consensus_timestamp: int, **overrides) -> None:
    fields = {
        "epoch_day": 19000,
        "max_stake_rewarded": 10,
        "max_staking_reward_rate_per_hbar": 17808,
        "max_total_reward": 20,
        "node_reward_fee_denominator": 3,
        "node_reward_fee_numerator": 2,
        "reserved_staking_rewards": 30,
        "reward_balance_threshold": 40,
        "stake_total": 35_000_000_000_000_000,
        "staking_period": consensus_timestamp - 1,
        "staking_period_duration": 1440,
        "staking_periods_stored": 365,
        "staking_reward_fee_denominator": 100,
        "staking_reward_fee_numerator": 15,
        "staking_reward_rate": 100_000_000_000,
        "staking_start_threshold": 25_000_000_000_000_000,
        "unreserved_staking_reward_balance": 50,
    }
    NetworkStake(consensus_timestamp=consensus_timestamp, **{**fields, **overrides}).save(force_insert=True)


def create_address_book(start: int, *, file_id: int = 102, end: int | None = None, nodes: int = 0) -> None:
    """An address book with entries for nodes 0..nodes-1 (node n: account 0.0.n+3, two endpoints)."""
    AddressBook(
        start_consensus_timestamp=start, end_consensus_timestamp=end, file_id=file_id, node_count=nodes, file_data=b""
    ).save(force_insert=True)
    for node_id in range(nodes):
        AddressBookEntry(
            consensus_timestamp=start,
            node_id=node_id,
            memo=f"0.0.{node_id + 3}",
            public_key=f"30820{node_id}",
            node_account_id=node_id + 3,
            node_cert_hash=f"cafe{node_id}".encode(),
            description=f"node {node_id}",
            stake=None,
        ).save(force_insert=True)
        for ip_address, port in ((f"10.0.0.{node_id}", 50212), (f"10.0.0.{node_id}", 50211)):
            AddressBookServiceEndpoint(
                consensus_timestamp=start, node_id=node_id, ip_address_v4=ip_address, port=port, domain_name=""
            ).save(force_insert=True)


def create_node(node_id: int, **overrides) -> None:
    fields = {
        "admin_key": bytes.fromhex("1220" + "ab" * 32),
        "created_timestamp": SECOND,
        "deleted": False,
        "timestamp_range": Range(SECOND, None),
        "decline_reward": False,
        "grpc_proxy_endpoint": None,
        "account_id": None,
        "associated_registered_nodes": None,
    }
    Node(node_id=node_id, **{**fields, **overrides}).save(force_insert=True)


def create_node_stake(consensus_timestamp: int, node_id: int, **overrides) -> None:
    fields = {
        "epoch_day": 19000,
        "reward_rate": 100 + node_id,
        "stake": 1000 + node_id,
        "stake_rewarded": 900 + node_id,
        "staking_period": consensus_timestamp - 1,
        "max_stake": 5000,
        "min_stake": 500,
        "stake_not_rewarded": 100,
    }
    NodeStake(consensus_timestamp=consensus_timestamp, node_id=node_id, **{**fields, **overrides}).save(
        force_insert=True
    )


def registered_endpoint(node_type: RegisteredNodeType, **overrides) -> dict:
    """One service endpoint of `node_type` as the importer stores it: snake_case keys, none null."""
    kinds = {
        RegisteredNodeType.BLOCK_NODE: {"block_node": {"endpoint_apis": ["STATUS", "PUBLISH"]}},
        RegisteredNodeType.GENERAL_SERVICE: {"general_service": {"description": "a service"}},
        RegisteredNodeType.MIRROR_NODE: {"mirror_node": {}},
        RegisteredNodeType.RPC_RELAY: {"rpc_relay": {}},
    }
    return {**kinds.get(node_type, {}), "ip_address": "192.168.1.10", "port": 50211, "requires_tls": True, **overrides}


def create_registered_node(registered_node_id: int, *types: RegisteredNodeType, **overrides) -> None:
    """A registered node with one endpoint of each of `types` (a block node's by default)."""
    types = types or (RegisteredNodeType.BLOCK_NODE,)
    fields = {
        "admin_key": bytes.fromhex("1220" + "cd" * 32),
        "created_timestamp": SECOND + registered_node_id,
        "deleted": False,
        "description": f"registered node {registered_node_id}",
        "service_endpoints": [registered_endpoint(node_type) for node_type in types],
        "timestamp_range": Range(SECOND + registered_node_id, None),
        "type": sorted({int(node_type) for node_type in types}),
    }
    RegisteredNode(registered_node_id=registered_node_id, **{**fields, **overrides}).save(force_insert=True)
