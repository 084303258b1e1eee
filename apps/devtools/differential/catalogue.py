"""What the differential tester asks: the routes the upstream's Node service answers, their
path and query parameters, and the values each kind of parameter takes.

A route is a path template (`/api/v1/accounts/{account}/nfts`): each `{name}` is a path
parameter of that kind. Its query parameters are those our FilterSet for the route declares
together with those the reference OpenAPI document names for it, so a parameter either side
forgot is still asked. Values come from `Pool`, read from the ledger under test, or are the
boundary and malformed values every parameter of a kind is also given.
"""

import functools
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from django.conf import settings
from django.urls import get_resolver

from apps.common.api.routers import route_index

# Path templates of every GET route the upstream's Node service answers.
ROUTES = (
    "/api/v1/accounts",
    "/api/v1/accounts/{account}",
    "/api/v1/accounts/{account}/nfts",
    "/api/v1/accounts/{account}/rewards",
    "/api/v1/accounts/{allowance_owner}/allowances/crypto",
    "/api/v1/accounts/{allowance_owner}/allowances/tokens",
    "/api/v1/accounts/{account}/tokens",
    "/api/v1/balances",
    "/api/v1/blocks",
    "/api/v1/blocks/{block}",
    "/api/v1/contracts",
    "/api/v1/contracts/{contract}",
    "/api/v1/contracts/{contract}/results",
    "/api/v1/contracts/{contract}/results/{contract_timestamp}",
    "/api/v1/contracts/{contract}/results/logs",
    "/api/v1/contracts/{contract}/state",
    "/api/v1/contracts/results",
    "/api/v1/contracts/results/{contract_transaction}",
    "/api/v1/contracts/results/{contract_transaction}/actions",
    "/api/v1/contracts/results/logs",
    "/api/v1/schedules",
    "/api/v1/schedules/{schedule}",
    "/api/v1/tokens",
    "/api/v1/tokens/{token}",
    "/api/v1/tokens/{token}/balances",
    "/api/v1/tokens/{nft_token}/nfts",
    "/api/v1/tokens/{nft_token}/nfts/{serial}",
    "/api/v1/tokens/{nft_token}/nfts/{serial}/transactions",
    "/api/v1/topics/{topic}/messages",
    "/api/v1/topics/{topic}/messages/{sequence}",
    "/api/v1/topics/messages/{message_timestamp}",
    "/api/v1/transactions",
    "/api/v1/transactions/{transaction}",
)

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte")
REPEATS = (1, 2, 8, 9, 100, 101)
# Integers at the edges of the encodings: an int, an entity num or id, a long, an unsigned long.
BOUNDARY_NUMBERS = ("0", str(2**31), str(2**38 - 1), str(2**38), str(2**63 - 1), str(2**63), str(2**64), "-1")
MALFORMED = ("1" * 80, "\u0661\u0662\u0663", "abc", "", "0x", "1.2.3.4", "%20", "1e3")


@dataclass
class Pool:
    """Values that exist in the ledger under test, by kind (each a list of strings)."""

    values: dict[str, list[str]] = field(default_factory=dict)
    # (kinds) -> rows of values one path names together (`sql.linked_values`).
    linked: dict[tuple[str, ...], list[tuple[str, ...]]] = field(default_factory=dict)

    def pick(self, kind: str, rng: random.Random) -> str:
        choices = self.values.get(kind) or self.values.get(KIND_FALLBACK.get(kind, ""), []) or ["1"]
        return rng.choice(choices)


# A kind with no value in the ledger borrows another's.
KIND_FALLBACK = {
    "nft_token": "token",
    "allowance_owner": "account",
    "evm_address": "account",
    "contract_timestamp": "timestamp",
    "message_timestamp": "timestamp",
}

# Query parameter -> kind of its values.
PARAMETER_KINDS = {
    "account.id": "account",
    # EVM addresses too: one an entity holds (long-zero or not), or none does.
    "spender.id": "evm_address_or_account",
    "receiver.id": "account",
    "sender.id": "account",
    "from": "evm_address_or_account",
    "token.id": "token",
    "contract.id": "contract",
    "schedule.id": "schedule",
    "timestamp": "timestamp",
    "block.number": "block_number",
    "block.hash": "block_hash",
    "transaction.hash": "transaction_hash",
    "transaction.index": "small_number",
    "index": "small_number",
    "nonce": "small_number",
    "serialnumber": "serial",
    "sequencenumber": "sequence",
    "account.balance": "balance",
    "account.publickey": "public_key",
    "publickey": "public_key",
    "balance": "boolean",
    "internal": "boolean",
    "hbar": "boolean",
    "scheduled": "boolean",
    "transactions": "boolean",
    "limit": "limit",
    "order": "order",
    "type": "token_type_or_direction",
    "transactiontype": "transaction_type",
    "result": "result",
    "encoding": "encoding",
    "name": "name",
    "slot": "slot",
    "topic0": "log_topic",
    "topic1": "log_topic",
    "topic2": "log_topic",
    "topic3": "log_topic",
}

FIXED_VALUES = {
    "boolean": ["true", "false", "TRUE", "1", "yes"],
    "limit": ["1", "2", "5", "25", "100", "101"],
    "order": ["asc", "desc", "ASC", "Desc", "sideways"],
    "token_type_or_direction": ["FUNGIBLE_COMMON", "NON_FUNGIBLE_UNIQUE", "credit", "debit", "ALL", "fungible_common"],
    "transaction_type": ["CRYPTOTRANSFER", "cryptotransfer", "CONSENSUSSUBMITMESSAGE", "CONTRACTCALL", "TOKENMINT", "NOPE"],
    "result": ["success", "fail", "SUCCESS", "pending"],
    "encoding": ["base64", "utf-8", "UTF-8", "hex"],
    "name": ["a", "Token", "x" * 101, ""],
    "small_number": ["0", "1", "2", "3"],
}


def route_parameters(template: str, sample_path: str) -> list[str]:
    """The query parameters of a route: our FilterSet's and the reference document's."""
    names = list(_declared_parameters(sample_path))
    for name in _reference_parameters().get(_reference_path(template), ()):
        if name not in names:
            names.append(name)
    return names


def _declared_parameters(path: str) -> list[str]:
    match = route_index(get_resolver()).resolve(path)
    view = getattr(match.func, "cls", None) if match else None
    if view is None:
        return []
    action = (getattr(match.func, "actions", None) or {}).get("get")
    filterset = getattr(view, "detail_filterset_class" if action and action != "list" else "filterset_class", None)
    return list(filterset.base_filters) if filterset is not None else []


REFERENCE_DOCUMENT = Path(settings.BASE_DIR).parent / "shared" / "reference" / "openapi.yml"


@functools.cache
def _reference_parameters() -> dict[str, list[str]]:
    """Query parameter names by path in the reference OpenAPI document (none when it is absent)."""
    if not REFERENCE_DOCUMENT.exists():
        return {}
    document = yaml.safe_load(REFERENCE_DOCUMENT.read_text())
    components = document.get("components", {}).get("parameters", {})
    found = {}
    for path, operations in document.get("paths", {}).items():
        names = []
        for parameter in (operations.get("get") or {}).get("parameters", []) + operations.get("parameters", []):
            if "$ref" in parameter:
                parameter = components.get(parameter["$ref"].rsplit("/", 1)[-1], {})
            if parameter.get("in") == "query" and parameter.get("name") not in names:
                names.append(parameter["name"])
        found[path] = names
    return found


def _reference_path(template: str) -> str:
    """The reference document's path of a template (its path parameters renamed)."""
    parts = []
    for segment in template.split("/"):
        parts.append("{}" if segment.startswith("{") else segment)
    shape = "/".join(parts)
    for path in _reference_parameters():
        candidate = "/".join("{}" if segment.startswith("{") else segment for segment in path.split("/"))
        if candidate == shape:
            return path
    return template
