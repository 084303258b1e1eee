"""`selectors.account_paths`: resolving the `{idOrAliasOrEvmAddress}` path segment of the account
routes, and the entity lookups of `/balances`' addresses and aliases."""

import pytest

from apps.accounts.selectors.account_paths import (
    account_id_from_path,
    entity_id_by_alias,
    entity_id_by_evm_address,
)
from apps.accounts.tests.factories import create_entity
from apps.common.errors import InvalidArgument, MirrorApiError, NotFound

pytestmark = pytest.mark.django_db

EVM_ADDRESS = "71eaa748d5252be68c1185588beca495459fdba4"
ALIAS = bytes.fromhex("1220" + "ab" * 32)
ALIAS_TEXT = "CIQKXK5LVOV2XK5LVOV2XK5LVOV2XK5LVOV2XK5LVOV2XK5LVOV2XKY"


@pytest.mark.parametrize("text", ["1001", "0.1001", "0.0.1001", "0x00000000000000000000000000000000000003e9"])
def test_an_id_is_taken_without_a_lookup(text):
    assert account_id_from_path(text) == 1001


def test_an_evm_address_names_its_live_entity():
    create_entity(1500, evm_address=bytes.fromhex(EVM_ADDRESS))
    assert account_id_from_path(EVM_ADDRESS) == 1500
    assert account_id_from_path("0x" + EVM_ADDRESS) == 1500
    assert account_id_from_path("0.0." + EVM_ADDRESS) == 1500


def test_an_unknown_or_deleted_evm_address_is_not_found():
    create_entity(1500, evm_address=bytes.fromhex(EVM_ADDRESS), deleted=True)
    with pytest.raises(NotFound) as raised:
        account_id_from_path(EVM_ADDRESS)
    assert raised.value.messages == ["Not found"]


def test_an_alias_names_its_live_entity():
    create_entity(1600, alias=ALIAS)
    assert account_id_from_path(ALIAS_TEXT) == 1600
    assert account_id_from_path("0.0." + ALIAS_TEXT) == 1600


def test_an_unknown_alias_has_its_own_message():
    with pytest.raises(NotFound) as raised:
        account_id_from_path(ALIAS_TEXT)
    assert raised.value.messages == ["No account with a matching alias found"]


def test_two_entities_with_one_alias_is_an_internal_error():
    create_entity(1600, alias=ALIAS)
    create_entity(1601, alias=ALIAS)
    with pytest.raises(MirrorApiError) as raised:
        account_id_from_path(ALIAS_TEXT)
    assert (raised.value.status_code, raised.value.messages) == (500, ["Internal error"])


@pytest.mark.parametrize("text", ["0.5.6.7", "9.2." + EVM_ADDRESS, "1.0." + ALIAS_TEXT, "abc", "0.0.-1", ""])
def test_anything_else_is_an_invalid_parameter(text):
    with pytest.raises(InvalidArgument) as raised:
        account_id_from_path(text)
    assert raised.value.messages == ["Invalid parameter: idOrAliasOrEvmAddress"]


@pytest.fixture
def lookup_entities():
    create_entity(8, balance=800, evm_address=bytes.fromhex(EVM_ADDRESS), alias=b"\x01\x02\x03")
    create_entity(9, balance=900, evm_address=bytes(19) + b"\x09", deleted=True)


def test_entity_lookups_skip_deleted_entities(lookup_entities):
    assert entity_id_by_evm_address(bytes.fromhex(EVM_ADDRESS)) == 8
    assert entity_id_by_evm_address(bytes(19) + b"\x09") is None
    assert entity_id_by_alias(b"\x01\x02\x03") == 8
