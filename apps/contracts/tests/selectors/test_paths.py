"""Resolving the `{contractIdOrAddress}` path segment of the contract routes."""

import pytest

from apps.accounts.tests.factories import create_entity
from apps.common.errors import InvalidArgument, MirrorApiError
from apps.contracts.selectors.paths import contract_id_from_path

pytestmark = pytest.mark.django_db

ADDRESS = "71eaa748d5252be68c1185588beca495459fdba4"


@pytest.mark.parametrize("text", ["5001", "0.5001", "0.0.5001", "0x0000000000000000000000000000000000001389"])
def test_an_id_is_taken_without_a_lookup(text):
    assert contract_id_from_path(text) == 5001


@pytest.mark.parametrize("type", ["CONTRACT", "ACCOUNT"])
def test_an_address_names_a_live_contract_or_account(type):
    create_entity(5002, type=type, evm_address=bytes.fromhex(ADDRESS))
    assert contract_id_from_path(ADDRESS) == 5002
    assert contract_id_from_path("0x" + ADDRESS) == 5002
    assert contract_id_from_path("0.0." + ADDRESS) == 5002


def test_an_unknown_or_deleted_address_names_nothing():
    create_entity(5002, type="CONTRACT", evm_address=bytes.fromhex(ADDRESS), deleted=True)
    assert contract_id_from_path(ADDRESS) is None


def test_an_address_held_twice_is_an_internal_error():
    create_entity(5002, type="CONTRACT", evm_address=bytes.fromhex(ADDRESS))
    create_entity(5003, type="ACCOUNT", evm_address=bytes.fromhex(ADDRESS))
    with pytest.raises(MirrorApiError) as raised:
        contract_id_from_path(ADDRESS)
    assert raised.value.messages == [
        f"More than one contract or account with the evm address 0x{ADDRESS} have been found."
    ]


def test_a_shard_and_realm_before_an_opaque_address_are_ignored():
    create_entity(5002, type="ACCOUNT", evm_address=bytes.fromhex(ADDRESS))
    assert contract_id_from_path("1.0." + ADDRESS) == 5002


@pytest.mark.parametrize(
    "text", ["abc", "1.2.3.4", "0.0.-1", "0x" + ADDRESS[:-1], "1.0.0000000000000000000000000000000000001389"]
)
def test_anything_else_is_an_invalid_contractid(text):
    with pytest.raises(InvalidArgument) as raised:
        contract_id_from_path(text)
    assert raised.value.messages == ["Invalid parameter: contractid"]
