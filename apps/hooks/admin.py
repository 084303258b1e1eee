"""Read-only admin for hooks.

The admin cannot register the hook tables (their primary keys are composite), so an
account's page lists its hooks, each linking to a page of its storage: the slots as they are
now, a page at a time by key, and its latest changes. The account admin is the accounts
app's, extended here with these.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from apps.accounts import admin as accounts_admin
from apps.accounts.models import Entity
from apps.common.admin import (
    detail_display,
    display_boolean,
    display_hex,
    display_key,
    display_table,
    display_timestamp,
    display_timestamp_range,
    entity_link,
    timestamp_link,
)
from apps.common.ledger.codecs import format_entity_id
from apps.hooks import selectors

HOOKS_SHOWN = 100
SLOTS_PER_PAGE = 100
CHANGES_SHOWN = 50


class AccountHooksAdmin(accounts_admin.AccountAdmin):
    detail_related = (*accounts_admin.AccountAdmin.detail_related, "hooks")

    @detail_display("hooks")
    def hooks(self, entity):
        contract_link = entity_link("CONTRACT")
        return display_table(
            ("hook", "contract", "kind", "admin key", "created", "timestamp range", "deleted"),
            (
                (
                    format_html(
                        '<a href="{}">{}</a>',
                        reverse("admin:accounts_entity_hook_storage", args=[entity.id, hook["hook_id"]]),
                        hook["hook_id"],
                    ),
                    contract_link(hook["contract_id"]),
                    f"{hook['extension_point']} {hook['type']}",
                    display_key(hook["admin_key"]),
                    timestamp_link("TRANSACTION")(hook["created_timestamp"]),
                    display_timestamp_range(hook["timestamp_range"]),
                    display_boolean(hook["deleted"]),
                )
                for hook in selectors.hooks_of(entity.id, limit=HOOKS_SHOWN)
            ),
        )

    def get_urls(self):
        storage = self.admin_site.admin_view(self.hook_storage_view)
        return [
            path("<int:owner_id>/hooks/<int:hook_id>/storage/", storage, name="accounts_entity_hook_storage"),
            *super().get_urls(),
        ]

    def hook_storage_view(self, request, owner_id, hook_id):
        """A hook's slots by key (`after` pages, a `0x` key) and its latest changes, newest first."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        hook = selectors.hook_get(owner_id, hook_id)
        if hook is None:
            raise Http404("No such hook")
        try:
            after = bytes.fromhex(request.GET["after"].removeprefix("0x")) if request.GET.get("after") else None
        except ValueError:
            after = None
        slots = selectors.storage_slots(owner_id, hook_id, after=after, limit=SLOTS_PER_PAGE)
        changes = selectors.storage_changes(owner_id, hook_id, limit=CHANGES_SHOWN)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Storage of hook {hook_id} of {format_entity_id(owner_id)}",
            "owner_id": owner_id,
            "owner": format_entity_id(owner_id),
            "hook": {**hook, "contract": format_entity_id(hook["contract_id"])},
            "slots": [
                {
                    "key": display_hex(slot["key"]),
                    "value": display_hex(slot["value"]),
                    "created": display_timestamp(slot["created_timestamp"]),
                    "modified": display_timestamp(slot["modified_timestamp"]),
                    "deleted": slot["deleted"],
                }
                for slot in slots
            ],
            "changes": [
                {
                    "timestamp": display_timestamp(change["consensus_timestamp"]),
                    "key": display_hex(change["key"]),
                    "read": display_hex(change["value_read"]),
                    "written": display_hex(change["value_written"]),
                    "deleted": change["deleted"],
                }
                for change in changes
            ],
            "next_after": display_hex(slots[-1]["key"]) if len(slots) == SLOTS_PER_PAGE else None,
        }
        return TemplateResponse(request, "admin/hooks/hook_storage.html", context)


admin.site.unregister(Entity)
admin.site.register(Entity, AccountHooksAdmin)
