import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.selectors.account_paths import AccountAlias, EvmAddress
from apps.accounts.tests.factories import create_entity
from apps.common.errors import DetailedError
from apps.hooks import selectors
from apps.hooks.filtersets import HookFilterSet, HookStorageFilterSet
from apps.hooks.tests.factories import T, create_change, create_hook, create_slot, key

pytestmark = pytest.mark.django_db


def hooks(query: str = "", account=1001) -> list[int]:
    criteria = HookFilterSet(HookFilterSet.read_query(query)).criteria(scope=(account,))
    return [row["hook_id"] for row in selectors.hook_list(criteria)]


def storage(query: str = "", account=1001, hook_id: int = 7) -> selectors.StoragePage:
    criteria = HookStorageFilterSet(HookStorageFilterSet.read_query(query)).criteria(scope=(account, hook_id))
    return selectors.hook_storage_list(criteria)


def test_owner_id_of_an_id_address_or_alias():
    create_entity(1001, alias=b"\x01" * 32, evm_address=b"\xab" * 20)
    create_entity(1002, alias=b"\x02" * 32, deleted=True)

    assert selectors.owner_id(9999) == 9999
    assert selectors.owner_id(EvmAddress(b"\xab" * 20)) == 1001
    assert selectors.owner_id(AccountAlias(b"\x01" * 32)) == 1001
    with pytest.raises(DetailedError) as error:
        selectors.owner_id(AccountAlias(b"\x02" * 32))
    assert (error.value.status_code, error.value.messages) == (
        404, [{"message": "Not Found", "detail": "No account found for the given ID"}]
    )


def test_hook_list_reads_one_compiled_statement_a_shape():
    for hook_id in (1, 2, 3):
        create_hook(1001, hook_id)
    create_hook(1002, 4)

    with CaptureQueriesContext(connection) as captured:
        assert hooks() == [3, 2, 1]
        assert hooks("order=asc&limit=2&hook.id=gt:0") == [1, 2]
        assert hooks("hook.id=3&hook.id=1&hook.id=9") == [3, 1]
        assert hooks("hook.id=3&hook.id=lt:3") == []
        assert hooks("hook.id=3", account=1002) == []
    # The last two: no id within the bounds is no statement; an id is taken as given.
    assert len(captured.captured_queries) == 4


def test_hook_rows_hold_the_columns_the_serializer_reads():
    create_hook(1001, 1)

    criteria = HookFilterSet(HookFilterSet.read_query("")).criteria(scope=(1001,))
    (row,) = selectors.hook_list(criteria)

    assert set(row) == set(selectors.HOOK_COLUMNS)
    assert (row["owner_id"], row["extension_point"], row["type"], row["timestamp_range"].lower) == (
        1001, "ACCOUNT_ALLOWANCE_HOOK", "EVM", T + 1,
    )


def test_current_storage_skips_deleted_slots():
    for number in (1, 2, 3):
        create_slot(1001, 7, number)
    create_slot(1001, 7, 4, deleted=True)

    page = storage("order=desc")

    assert (page.owner_id, page.hook_id) == (1001, 7)
    assert [int.from_bytes(row["key"]) for row in page] == [3, 2, 1]
    assert page[0] == {"key": key(3), "value": key(1003), "timestamp": T + 3}
    assert [int.from_bytes(row["key"]) for row in storage("key=4&key=2")] == [2]


def test_storage_as_of_a_timestamp_is_each_slots_newest_change_within_the_bounds():
    create_change(1001, 7, 1, T + 1, written=b"\x01")
    create_change(1001, 7, 1, T + 5, written=b"\x05")
    create_change(1001, 7, 1, T + 9, written=b"\x09")
    create_change(1001, 7, 2, T + 6, written=None)
    create_change(1001, 7, 3, T + 9, written=b"\x03")

    page = storage("timestamp=lte:1726874345.123456787")
    as_of = {int.from_bytes(row["key"]): (row["value"], row["timestamp"]) for row in page}
    window = storage("timestamp=gte:1726874345.123456782&timestamp=lt:1726874345.123456789&order=desc")

    assert as_of == {1: (b"\x05", T + 5), 2: (None, T + 6)}
    assert [(int.from_bytes(row["key"]), row["timestamp"]) for row in window] == [(2, T + 6), (1, T + 5)]
    assert [row["timestamp"] for row in storage("timestamp=lte:1726874345.123456789&limit=1")] == [T + 9]


#
# The admin's reads
#


def test_admin_reads():
    create_hook(1001, 2)
    create_hook(1001, 1)
    for number in (1, 2, 3):
        create_slot(1001, 7, number, deleted=number == 2)
    create_change(1001, 7, 1, T + 1)
    create_change(1001, 7, 2, T + 3)
    create_change(1001, 7, 3, T + 2)

    assert [hook["hook_id"] for hook in selectors.hooks_of(1001, limit=10)] == [1, 2]
    assert selectors.hook_get(1001, 2)["hook_id"] == 2
    assert selectors.hook_get(1001, 3) is None
    assert [slot["key"] for slot in selectors.storage_slots(1001, 7, after=None, limit=10)] == [key(1), key(2), key(3)]
    assert [slot["key"] for slot in selectors.storage_slots(1001, 7, after=key(1), limit=1)] == [key(2)]
    assert [change["consensus_timestamp"] for change in selectors.storage_changes(1001, 7, limit=2)] == [T + 3, T + 2]
