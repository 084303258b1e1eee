"""The account a path or a parameter names, and whether it exists.

`/accounts/{idOrAliasOrEvmAddress}` and the lists under it name an account by its id,
its EVM address or its base32 alias (`account_id_from_path`); the Java-served lists
under it read the same segment with the Java service's rules (`java_account_path`,
`java_account_id`). `/balances` names accounts by address or alias too (`EvmAddress`,
`AccountAlias`), looked up once the query is valid.
"""

import re
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, QuerySet

from apps.accounts import sql
from apps.accounts.models import Entity
from apps.common.database.connections import statement_cursor
from apps.common.errors import InvalidArgument, MirrorApiError, NotFound
from apps.common.ledger.codecs import decode_base32_alias, parse_entity_id
from apps.common.query.compiled import CompiledQuery
from apps.common.query.strict import parse_java_entity_id


@dataclass(frozen=True)
class EvmAddress:
    """An account id given as an EVM address that does not encode the id: looked up."""

    address: bytes


@dataclass(frozen=True)
class AccountAlias:
    """An account id given as its (base32) alias: looked up."""

    alias: bytes


def account_id_from_path(text: str, *, param: str = "idOrAliasOrEvmAddress") -> int:
    """The encoded id named by an account path segment: an id, an EVM address or a base32 alias.

    An id is taken as given, without checking that the account exists (routes
    that need it check themselves); an address or alias must name exactly one
    live entity.
    """
    try:
        entity = parse_entity_id(text)
    except ValueError:
        alias = _path_alias(text)
        if alias is None:
            raise InvalidArgument.for_params(param) from None
        return _only_match(sql.ENTITY_BY_ALIAS, alias, "No account with a matching alias found")
    if entity.evm_address is None:
        return entity.encoded
    return _only_match(sql.ENTITY_BY_EVM_ADDRESS, bytes.fromhex(entity.evm_address), "Not found")


def _path_alias(text: str) -> bytes | None:
    """The alias of `[shard.][realm.]BASE32`, or None; a shard or realm must be the system's."""
    *prefix, alias = text.split(".")
    if len(prefix) > 2 or not all(part.isdigit() and len(part) <= 5 for part in prefix):
        return None
    system = [settings.MIRROR["SHARD"], settings.MIRROR["REALM"]][-len(prefix) :] if prefix else []
    if [int(part) for part in prefix] != system:
        return None
    try:
        return decode_base32_alias(alias)
    except ValueError:
        return None


def _only_match(statement: str, value: bytes, missing_message: str) -> int:
    # A constant statement, prepared by psycopg once it repeats.
    with statement_cursor() as cursor:
        cursor.execute(statement, [value])
        ids = [found for (found,) in cursor.fetchall()]
    if not ids:
        raise NotFound(missing_message)
    if len(ids) > 1:
        raise MirrorApiError("Internal error")
    return ids[0]


def entity_id_by_evm_address(address: bytes) -> int | None:
    return _live_entities().filter(evm_address=address).values_list("id", flat=True).first()


def entity_id_by_alias(alias: bytes) -> int | None:
    return _live_entities().filter(alias=alias).values_list("id", flat=True).first()


def _live_entities() -> QuerySet:
    return Entity.objects.exclude(deleted=True).order_by("id")


def account_exists(*, account_id: int) -> bool:
    return bool(_ENTITY_BY_ID.rows(account_id))


_ENTITY_BY_ID = CompiledQuery(lambda entity_id: Entity.objects.filter(id=entity_id).values("id")[:1])


def require_account(account_id: int) -> None:
    """Raises NotFound unless the account's entity row exists."""
    if not account_exists(account_id=account_id):
        raise NotFound()


def entity_queryset(*, entity_id: int) -> QuerySet:
    """The entity row of `entity_id` (none when it is unknown)."""
    return Entity.objects.filter(id=entity_id)


def entity_exists(entity_id: int) -> Exists:
    return Exists(Entity.objects.filter(id=entity_id))


_JAVA_NUM_PATH = re.compile(r"^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$")
_JAVA_EVM_PATH = re.compile(r"^(?:(?:\d{1,5}\.)?(?:\d{1,5}\.)?|0x)?([A-Fa-f0-9]{40})$")
_JAVA_ALIAS_PATH = re.compile(r"^(?:\d{1,5}\.)?(?:\d{1,5}\.)?([A-Z2-7]{40,70})$")


def java_account_path(text: str) -> int | EvmAddress | AccountAlias:
    """The account a Java route's path names, before any lookup; ValueError when malformed."""
    if _JAVA_NUM_PATH.match(text):
        return parse_java_entity_id(text)
    if match := _JAVA_EVM_PATH.match(text):
        return EvmAddress(bytes.fromhex(match.group(1)))
    if match := _JAVA_ALIAS_PATH.match(text):
        return AccountAlias(decode_base32_alias(match.group(1), strict=False))
    raise ValueError(f"Invalid account {text!r}")


def java_account_id(account: int | EvmAddress | AccountAlias) -> int | None:
    """An id as given (not checked), or the live entity with the address or alias.

    The upstream's Java lookup (`deleted <> true`) also skips entities whose `deleted` is null.
    """
    if isinstance(account, int):
        return account
    entities = Entity.objects.filter(deleted=False)
    if isinstance(account, EvmAddress):
        entities = entities.filter(evm_address=account.address)
    else:
        entities = entities.filter(alias=account.alias)
    return entities.order_by("id").values_list("id", flat=True).first()
