from apps.common.database.schema import mirror_tables
from apps.hooks.models import Hook, HookHistory, HookStorage, HookStorageChange


def test_the_models_map_the_hook_tables_once():
    tables = {model: model._meta.db_table for model in (Hook, HookHistory, HookStorage, HookStorageChange)}

    assert list(tables.values()) == ["hook", "hook_history", "hook_storage", "hook_storage_change"]
    assert not any(model._meta.managed for model in tables)
    assert all(mirror_tables().count(table) == 1 for table in tables.values())


def test_the_keys_of_the_tables():
    assert [field.name for field in Hook._meta.pk.fields] == ["owner_id", "hook_id"]
    assert [field.name for field in HookStorage._meta.pk.fields] == ["owner_id", "hook_id", "key"]
    assert [field.name for field in HookStorageChange._meta.pk.fields] == [
        "owner_id", "hook_id", "key", "consensus_timestamp",
    ]


def test_the_hooks_app_owns_its_models():
    assert {model._meta.app_label for model in (Hook, HookHistory, HookStorage, HookStorageChange)} == {"hooks"}
