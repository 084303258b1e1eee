"""An account's hooks and a hook's storage, as the upstream's Java service reads them.

The account is the path's (`criteria.scope[0]`), looked up once the query is valid: an id is
taken as given (an unknown one has no hooks), an EVM address or alias names the live
entity holding it, else 404 `No account found for the given ID`. The hooks of a list
include deleted ones. Storage is read from `hook_storage` (its slots that are not deleted),
or, with a `timestamp`, from `hook_storage_change`: each slot's newest change within the
timestamp bounds, its value the one written (null when none was).
"""

from django.db.models import QuerySet

from apps.accounts.selectors import account_paths
from apps.common.errors import DetailedError
from apps.common.query.compiled import CompiledQuery
from apps.common.query.pages import PageCriteria
from apps.hooks.filtersets import KEY_BYTES, HookIdRange, StorageRange
from apps.hooks.models import Hook, HookStorage, HookStorageChange

__all__ = (
    "HOOK_COLUMNS",
    "StoragePage",
    "hook_get",
    "hook_list",
    "hook_storage_list",
    "hooks_of",
    "owner_id",
    "storage_changes",
    "storage_slots",
)

HOOK_COLUMNS = (
    "admin_key", "contract_id", "created_timestamp", "deleted", "extension_point", "hook_id", "owner_id",
    "timestamp_range", "type",
)


def owner_id(account) -> int:
    """The id of the account a path names (`account_paths.java_account_path`)."""
    found = account_paths.java_account_id(account)
    if found is None:
        raise DetailedError(404, "No account found for the given ID")
    return found


def _hooks(owner: int, *hook_ids: int, shape: tuple) -> QuerySet:
    """The page's hooks: `hook_ids` are the bounds (`between`), or the ids (`in`)."""
    order, limit, selection = shape
    hooks = Hook.objects.filter(owner_id=owner)
    if selection == "between":
        lower, upper = hook_ids
        hooks = hooks.filter(hook_id__gte=lower, hook_id__lte=upper)
    else:
        hooks = hooks.filter(hook_id__in=hook_ids)
    # The page size is part of the shape: the statement holds it as a literal.
    return hooks.values(*HOOK_COLUMNS).order_by("-hook_id" if order == "desc" else "hook_id")[:limit]


_HOOKS = CompiledQuery(_hooks)


def hook_list(criteria: PageCriteria) -> list[dict]:
    """The account's hooks by id: those asked for within the bounds, or all within them."""
    owner = owner_id(criteria.scope[0])
    hook_ids: HookIdRange = criteria.extra["hook_ids"]
    if not hook_ids.ids:
        values, selection = (hook_ids.lower, hook_ids.upper), "between"
    else:
        values, selection = hook_ids.ids_in_range(), "in"
        if not values:
            return []
    return _HOOKS.rows(owner, *values, shape=(criteria.order, criteria.limit, selection))


class StoragePage(list):
    """A page of storage slots (`{"key", "value", "timestamp"}`), with the owner and hook they belong to."""

    owner_id: int
    hook_id: int


def hook_storage_list(criteria: PageCriteria) -> StoragePage:
    owner, hook_id = owner_id(criteria.scope[0]), criteria.scope[1]
    storage: StorageRange = criteria.extra["storage"]
    page = StoragePage(_storage(owner, hook_id, storage, criteria))
    page.owner_id, page.hook_id = owner, hook_id
    return page


def _storage(owner: int, hook_id: int, storage: StorageRange, criteria: PageCriteria) -> list[dict]:
    keys_in_range = storage.keys_in_range()
    if storage.keys and not keys_in_range:
        return []
    descending = criteria.order == "desc"
    if storage.timestamps is None:
        slots = HookStorage.objects.filter(owner_id=owner, hook_id=hook_id, deleted=False)
        if storage.keys:
            slots = slots.filter(key__in=[_key_bytes(key) for key in keys_in_range])
        else:
            slots = slots.filter(key__gte=_key_bytes(storage.lower), key__lte=_key_bytes(storage.upper))
        rows = slots.order_by("-key" if descending else "key").values_list("key", "value", "modified_timestamp")
    else:
        lower, upper = storage.timestamps
        changes = HookStorageChange.objects.filter(
            owner_id=owner, hook_id=hook_id, consensus_timestamp__gte=lower, consensus_timestamp__lte=upper
        )
        if storage.keys:
            # Every slot asked for, as the upstream reads them once one is within the key bounds.
            changes = changes.filter(key__in=[_key_bytes(key) for key in storage.keys])
        else:
            changes = changes.filter(key__gte=_key_bytes(storage.lower), key__lte=_key_bytes(storage.upper))
        rows = (
            changes.order_by("-key" if descending else "key", "-consensus_timestamp")
            .distinct("key")
            .values_list("key", "value_written", "consensus_timestamp")
        )
    return [
        {"key": bytes(key), "value": None if value is None else bytes(value), "timestamp": timestamp}
        for key, value, timestamp in rows[: criteria.limit]
    ]


def _key_bytes(key: int) -> bytes:
    return key.to_bytes(KEY_BYTES, "big")


#
# The admin's reads
#


def hooks_of(owner: int, *, limit: int) -> list[dict]:
    """The account's hooks, by id."""
    return list(Hook.objects.filter(owner_id=owner).order_by("hook_id").values(*HOOK_COLUMNS)[:limit])


def hook_get(owner: int, hook_id: int) -> dict | None:
    return Hook.objects.filter(owner_id=owner, hook_id=hook_id).values(*HOOK_COLUMNS).first()


def storage_slots(owner: int, hook_id: int, *, after: bytes | None, limit: int) -> list[dict]:
    """The hook's slots as they are now, deleted ones included, by key from after `after`."""
    slots = HookStorage.objects.filter(owner_id=owner, hook_id=hook_id)
    if after is not None:
        slots = slots.filter(key__gt=after)
    columns = ("key", "value", "created_timestamp", "modified_timestamp", "deleted")
    return list(slots.order_by("key").values(*columns)[:limit])


def storage_changes(owner: int, hook_id: int, *, limit: int) -> list[dict]:
    """The hook's latest storage changes, newest first."""
    changes = HookStorageChange.objects.filter(owner_id=owner, hook_id=hook_id).order_by("-consensus_timestamp")
    return list(changes.values("consensus_timestamp", "key", "value_read", "value_written", "deleted")[:limit])
