"""`/accounts/{id}/hooks` and `/accounts/{id}/hooks/{hookId}/storage`, served upstream by its
Java service. The path is converted first (`ownerId`, then `hookId`), then the query, then
the account is looked up (by the selector), as the upstream does. Answers carry the Java
service's `ETag` (`apps.common.api.conditional`)."""

from drf_spectacular.utils import extend_schema

from apps.accounts.selectors import account_paths
from apps.common.api.views import MirrorViewSet
from apps.common.ledger.codecs import format_entity_id
from apps.common.query.strict import conversion_error
from apps.hooks import selectors
from apps.hooks.api.serializers import HookSerializer, HookStorageSerializer
from apps.hooks.filtersets import HookFilterSet, HookStorageFilterSet, parse_spring_long


def owner_path(text: str):
    try:
        return account_paths.java_account_path(text)
    except ValueError:
        raise conversion_error("ownerId") from None


@extend_schema(
    summary="List an account's hooks",
    description="The hooks the account has attached, each with its EVM contract, admin key, extension point, "
    "type and lifetime, in order of hook id. An alias or EVM address no account holds answers 404.",
)
class HookViewSet(MirrorViewSet):
    entity_tags = True
    filterset_class = HookFilterSet
    selector = selectors.hook_list
    serializer_class = HookSerializer
    results_key = "hooks"

    def scope(self) -> tuple:
        return (owner_path(self.kwargs["id"]),)


@extend_schema(
    summary="List a hook's storage",
    description="The storage slots of one of the account's hooks with their values: as they are now or, with "
    "`timestamp`, as they were then. They come in order of slot key.",
)
class HookStorageViewSet(MirrorViewSet):
    entity_tags = True
    filterset_class = HookStorageFilterSet
    selector = selectors.hook_storage_list
    serializer_class = HookStorageSerializer
    results_key = "storage"

    def scope(self) -> tuple:
        owner = owner_path(self.kwargs["id"])
        try:
            hook_id = parse_spring_long(self.kwargs["hook_id"])
        except ValueError:
            raise conversion_error("hookId") from None
        return owner, hook_id

    def list_envelope(self, rows: selectors.StoragePage) -> dict:
        return {"hook_id": rows.hook_id, "owner_id": format_entity_id(rows.owner_id)}
