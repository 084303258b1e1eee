"""The GET network routes' bodies, built from dicts and parsed system files."""

from decimal import ROUND_HALF_UP, Decimal

from apps.common.api.serializers import RowSerializer
from apps.common.ledger.codecs import (
    add_hex_prefix,
    encode_key,
    format_entity_id,
    format_timestamp,
)
from apps.network.protobuf import functionality_number
from apps.network.selectors import Supply, SystemFile

__all__ = (
    "TOTAL_SUPPLY",
    "NetworkNodeSerializer",
    "RegisteredNodeSerializer",
    "exchange_rate_set",
    "network_fees",
    "network_stake",
    "network_supply",
)

DAY_NANOS = 86_400 * 10**9
# Tinybars: 50 billion hbars.
TOTAL_SUPPLY = 50_000_000_000 * 10**8


def exchange_rate_set(rates, consensus_timestamp: int) -> dict:
    """An `ExchangeRateSet` (file 0.0.112) and the timestamp of its file."""
    return {
        "current_rate": exchange_rate(rates.currentRate),
        "next_rate": exchange_rate(rates.nextRate),
        "timestamp": format_timestamp(consensus_timestamp),
    }


def effective(current, following, expiry_seconds: int, reference: int):
    """The current version, or the next one once `reference` (ns) is past the current one's expiry."""
    return following if reference > expiry_seconds * 10**9 else current


# Transactions whose fee schedule entry prices gas, by `HederaFunctionality` name.
GAS_PRICED_TRANSACTIONS = ("ContractCall", "ContractCreate", "EthereumTransaction")


def network_fees(schedules: SystemFile, rates: SystemFile, *, reference: int, order: str) -> dict:
    """Gas prices in tinybars (file 0.0.111's tinycents per 1000 gas, through file 0.0.112's
    rate) of the schedule and rate in force at `reference`, sorted by transaction type."""
    schedule = schedules.data
    fee_schedule = effective(
        schedule.currentFeeSchedule, schedule.nextFeeSchedule, schedule.currentFeeSchedule.expiryTime.seconds, reference
    )
    rate = effective(
        rates.data.currentRate, rates.data.nextRate, rates.data.currentRate.expirationTime.seconds, reference
    )
    names = {functionality_number(name): name for name in GAS_PRICED_TRANSACTIONS}
    fees = []
    for entry in fee_schedule.transactionFeeSchedule:
        name = names.get(entry.hederaFunctionality)
        if name is None or not entry.fees or not entry.fees[0].HasField("servicedata") or rate.centEquiv == 0:
            continue
        tinycents = java_division(entry.fees[0].servicedata.gas, 1000)
        fees.append({"gas": max(1, java_division(tinycents * rate.hbarEquiv, rate.centEquiv)), "transaction_type": name})
    fees.sort(key=lambda fee: fee["transaction_type"].lower(), reverse=order == "desc")
    return {"fees": fees, "timestamp": format_timestamp(schedules.consensus_timestamp)}


def java_division(dividend: int, divisor: int) -> int:
    """Integer division truncating toward zero, as Java's `long` division."""
    quotient = abs(dividend) // abs(divisor)
    return quotient if (dividend < 0) == (divisor < 0) else -quotient


def exchange_rate(rate) -> dict:
    return {
        "cent_equivalent": rate.centEquiv,
        "expiration_time": rate.expirationTime.seconds,
        "hbar_equivalent": rate.hbarEquiv,
    }


def staking_period(start: int | None) -> dict | None:
    """A staking period from the nanosecond its previous one ended: one UTC day."""
    if start is None:
        return None
    return {"from": format_timestamp(start + 1), "to": format_timestamp(start + 1 + DAY_NANOS)}


def fraction(numerator: int, denominator: int) -> float:
    if denominator == 0:
        return 0.0
    return float((Decimal(numerator) / Decimal(denominator)).quantize(Decimal("1e-9"), rounding=ROUND_HALF_UP))


def network_stake(row: dict) -> dict:
    return {
        "max_stake_rewarded": row["max_stake_rewarded"],
        "max_staking_reward_rate_per_hbar": row["max_staking_reward_rate_per_hbar"],
        "max_total_reward": row["max_total_reward"],
        "node_reward_fee_fraction": fraction(row["node_reward_fee_numerator"], row["node_reward_fee_denominator"]),
        "reserved_staking_rewards": row["reserved_staking_rewards"],
        "reward_balance_threshold": row["reward_balance_threshold"],
        "stake_total": row["stake_total"],
        "staking_period": staking_period(row["staking_period"]),
        "staking_period_duration": row["staking_period_duration"],
        "staking_periods_stored": row["staking_periods_stored"],
        "staking_reward_fee_fraction": fraction(
            row["staking_reward_fee_numerator"], row["staking_reward_fee_denominator"]
        ),
        "staking_reward_rate": row["staking_reward_rate"],
        "staking_start_threshold": row["staking_start_threshold"],
        "unreserved_staking_reward_balance": row["unreserved_staking_reward_balance"],
    }


def network_supply(supply: Supply) -> dict:
    return {
        "released_supply": str(TOTAL_SUPPLY - supply.unreleased),
        "timestamp": format_timestamp(supply.consensus_timestamp),
        "total_supply": str(TOTAL_SUPPLY),
    }


class NetworkNodeSerializer(RowSerializer):
    """A node of `selectors.network_nodes`; stake and `node` columns are None without their rows."""

    def to_representation(self, row: dict) -> dict:
        return {
            "admin_key": encode_key(row["admin_key"]),
            "associated_registered_nodes": list(row["associated_registered_nodes"] or ()),
            "decline_reward": row["decline_reward"],
            "description": row["description"],
            "file_id": format_entity_id(row["file_id"]),
            "grpc_proxy_endpoint": service_endpoint(row["grpc_proxy_endpoint"]),
            "max_stake": unset_as_none(row["max_stake"]),
            "memo": row["memo"],
            "min_stake": unset_as_none(row["min_stake"]),
            "node_account_id": format_entity_id(row["node_account_id"]),
            # Stored as the hex text's bytes.
            "node_cert_hash": add_hex_prefix(bytes(row["node_cert_hash"] or b"").decode("utf-8", errors="replace")),
            "node_id": row["node_id"],
            "public_key": add_hex_prefix(row["public_key"]),
            "reward_rate_start": row["reward_rate"],
            "service_endpoints": [service_endpoint(endpoint) for endpoint in row["service_endpoints"]],
            "stake": row["stake"],
            "stake_not_rewarded": unset_as_none(row["stake_not_rewarded"]),
            "stake_rewarded": row["stake_rewarded"],
            "staking_period": staking_period(row["staking_period"]),
            "timestamp": {
                "from": format_timestamp(row["start_consensus_timestamp"]),
                "to": format_timestamp(row["end_consensus_timestamp"]),
            },
        }


def service_endpoint(endpoint: dict | None) -> dict | None:
    if endpoint is None:
        return None
    return {
        "domain_name": endpoint.get("domain_name") or "",
        "ip_address_v4": endpoint.get("ip_address_v4") or "",
        "port": endpoint.get("port"),
    }


def unset_as_none(value: int | None) -> int | None:
    """-1 marks a stake figure the network did not report."""
    return None if value == -1 else value


#
# /network/registered-nodes
#

# An endpoint's type follows from the one of these keys it holds; the upstream answers one holding
# none (an endpoint type it does not know) as a general service endpoint.
_ENDPOINT_TYPES = (
    ("block_node", "BLOCK_NODE"),
    ("general_service", "GENERAL_SERVICE"),
    ("mirror_node", "MIRROR_NODE"),
    ("rpc_relay", "RPC_RELAY"),
)
_UNKNOWN_ENDPOINT_TYPE = "GENERAL_SERVICE"


class RegisteredNodeSerializer(RowSerializer):
    """A row of `selectors.registered_nodes`."""

    def to_representation(self, row: dict) -> dict:
        timestamp_range = row["timestamp_range"]
        return {
            "admin_key": encode_key(row["admin_key"]),
            "created_timestamp": format_timestamp(row["created_timestamp"]),
            "description": row["description"],
            "registered_node_id": row["registered_node_id"],
            "service_endpoints": [registered_service_endpoint(endpoint) for endpoint in row["service_endpoints"] or ()],
            "timestamp": {
                "from": format_timestamp(timestamp_range.lower),
                "to": format_timestamp(timestamp_range.upper),
            },
        }


def registered_service_endpoint(endpoint: dict) -> dict:
    """An endpoint as the importer stores it (snake_case keys, those without a value left out)."""
    block_node = endpoint.get("block_node")
    general_service = endpoint.get("general_service")
    return {
        "block_node": None if block_node is None else {"endpoint_apis": list(block_node.get("endpoint_apis") or ())},
        "domain_name": endpoint.get("domain_name"),
        "general_service": None if general_service is None else {"description": general_service.get("description")},
        "ip_address": endpoint.get("ip_address"),
        "mirror_node": None if endpoint.get("mirror_node") is None else {},
        "port": endpoint.get("port", 0),
        "requires_tls": endpoint.get("requires_tls", False),
        "rpc_relay": None if endpoint.get("rpc_relay") is None else {},
        "type": next((name for key, name in _ENDPOINT_TYPES if endpoint.get(key) is not None), _UNKNOWN_ENDPOINT_TYPE),
    }
