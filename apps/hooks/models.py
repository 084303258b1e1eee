"""The mirror's hook tables: an account's hooks (`hook`, `hook_history`), their storage
slots as they are now (`hook_storage`) and every change to a slot (`hook_storage_change`).
Unmanaged models over the importer's tables."""

from django.contrib.postgres.fields import BigIntegerRangeField
from django.db import models

__all__ = ("Hook", "HookExtensionPoint", "HookHistory", "HookStorage", "HookStorageChange", "HookType")


class HookExtensionPoint(models.TextChoices):
    ACCOUNT_ALLOWANCE_HOOK = "ACCOUNT_ALLOWANCE_HOOK"


class HookType(models.TextChoices):
    EVM = "EVM"


class HookColumns(models.Model):
    """The columns of hook and hook_history."""

    contract_id = models.BigIntegerField(null=True)
    created_timestamp = models.BigIntegerField(null=True)
    hook_id = models.BigIntegerField()
    owner_id = models.BigIntegerField()
    timestamp_range = BigIntegerRangeField(null=True)
    extension_point = models.CharField(max_length=22, choices=HookExtensionPoint.choices)
    deleted = models.BooleanField()
    admin_key = models.BinaryField(null=True)
    type = models.CharField(max_length=3, choices=HookType.choices)

    class Meta:
        abstract = True


class Hook(HookColumns):
    pk = models.CompositePrimaryKey("owner_id", "hook_id")

    class Meta:
        managed = False
        db_table = "hook"


class HookHistory(HookColumns):
    # No primary key in the mirror schema; these columns identify a row.
    pk = models.CompositePrimaryKey("owner_id", "hook_id")

    class Meta:
        managed = False
        db_table = "hook_history"


class HookStorage(models.Model):
    pk = models.CompositePrimaryKey("owner_id", "hook_id", "key")
    created_timestamp = models.BigIntegerField()
    hook_id = models.BigIntegerField()
    modified_timestamp = models.BigIntegerField()
    owner_id = models.BigIntegerField()
    key = models.BinaryField()
    value = models.BinaryField()
    deleted = models.BooleanField()

    class Meta:
        managed = False
        db_table = "hook_storage"


class HookStorageChange(models.Model):
    pk = models.CompositePrimaryKey("owner_id", "hook_id", "key", "consensus_timestamp")
    consensus_timestamp = models.BigIntegerField()
    hook_id = models.BigIntegerField()
    owner_id = models.BigIntegerField()
    key = models.BinaryField()
    value_read = models.BinaryField()
    value_written = models.BinaryField(null=True)
    deleted = models.BooleanField()

    class Meta:
        managed = False
        db_table = "hook_storage_change"
