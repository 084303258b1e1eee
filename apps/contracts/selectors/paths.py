"""The `{contractIdOrAddress}` path segment (and a `contract.id` value): parsed, and an EVM
address read into the live contract or account holding it."""

import re

from django.conf import settings

from apps.accounts.models import Entity
from apps.common.errors import InvalidArgument, MirrorApiError
from apps.common.ledger.codecs import EntityId, encode_entity_id, parse_entity_id

_CONTRACT_PATH = re.compile(r"^(\d{1,10}\.){0,2}(\d{1,10}|(0x)?[A-Fa-f0-9]{40})$", re.ASCII)
# The shapes upstream reads as a contract id before decoding: a shard of up to 4 digits, a realm
# of up to 5, a num of up to 12 (19 alone, with a sign), and a bare EVM address, or a prefixed
# one without `0x`. Any other shape is a bad parameter; these shapes may still encode no id.
_CONTRACT_DETAIL_PATH = re.compile(
    r"^(?:(?:\d{1,4}\.)?\d{1,5}\.(?:\d{1,12}|[A-Fa-f0-9]{40})|-?\d{1,19}|(?:0x)?[A-Fa-f0-9]{40})$", re.ASCII
)
EVM_ADDRESS_HEX_DIGITS = 40


def contract_id_from_path(text: str) -> int | None:
    """The encoded id named by a `{contractIdOrAddress}` path segment, or None
    for an EVM address that no live contract or account holds.

    An id or a long-zero address is taken as given, without checking that it
    exists. Since HIP-1340 an externally owned account with a code delegation
    produces results, logs and state like a contract, so an address may name an
    account as well as a contract.
    """
    entity = parse_contract_path(text)
    if entity.evm_address is None:
        return encode_entity_id(entity.shard, entity.realm, entity.num)
    return contract_id_by_evm_address(bytes.fromhex(entity.evm_address))


def parse_contract_path(text: str) -> EntityId:
    """The id or EVM address a `{contractIdOrAddress}` path segment spells, unresolved."""
    if not _CONTRACT_PATH.match(text):
        raise InvalidArgument.for_params("contractid")
    try:
        return parse_contract_id(text)
    except ValueError:
        raise InvalidArgument.for_params("contractid") from None


def parse_contract_id(text: str) -> EntityId:
    """A contract id (a bare number is a num) or EVM address; ValueError otherwise.

    The upstream ignores a shard and realm written before an address that
    encodes no id, and checks them before one that does.
    """
    *prefix, last = text.split(".")
    address = last.removeprefix("0x")
    if len(address) == EVM_ADDRESS_HEX_DIGITS and len(prefix) <= 2:
        entity = parse_entity_id(address)
        if entity.evm_address is not None:
            return entity
    elif not prefix:
        text = _with_system_shard_realm(last)
    return parse_entity_id(text)


def parse_contract_detail_path(text: str) -> EntityId:
    """As `parse_contract_path`, for `/contracts/{contractIdOrAddress}`, where the
    upstream names an id of the right shape that encodes none (a num too large,
    say) in its message."""
    if not _CONTRACT_DETAIL_PATH.match(text):
        raise InvalidArgument.for_params("contractid")
    try:
        return parse_contract_id(text)
    except ValueError:
        raise InvalidArgument(f'Invalid entity ID "{_with_system_shard_realm(text)}"') from None


def _with_system_shard_realm(text: str) -> str:
    """`text` with the shard and realm it leaves out, the system's, in front."""
    missing = 3 - len(text.split("."))
    return ".".join([str(settings.MIRROR["SHARD"]), str(settings.MIRROR["REALM"])][:missing] + [text])


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
