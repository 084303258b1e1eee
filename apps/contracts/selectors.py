"""Reads of contracts and what they produced (results, logs, state, actions)."""

import re

from django.conf import settings

from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument, MirrorApiError
from apps.common.codecs import encode_entity_id, parse_entity_id

__all__ = ("contract_id_from_path",)

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
