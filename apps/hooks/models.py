"""The mirror's hook tables: an account's hooks (`hook`, `hook_history`), their storage
slots as they are now (`hook_storage`) and every change to a slot (`hook_storage_change`).

The unmanaged models over these tables are declared with the account's (`apps.accounts.models`),
where the schema's models already map them: each mirror table has exactly one model (the
mirror's table list is read from the models). This module is the hooks app's name for them.
"""

from apps.accounts.models import (
    Hook,
    HookExtensionPoint,
    HookHistory,
    HookStorage,
    HookStorageChange,
    HookType,
)

__all__ = ("Hook", "HookExtensionPoint", "HookHistory", "HookStorage", "HookStorageChange", "HookType")
