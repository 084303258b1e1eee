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
from django.utils.html import format_html, format_html_join

from apps.accounts import admin as accounts_admin
from apps.accounts.models import Entity
from apps.common.admin import display_hex, display_timestamp
from apps.common.ledger.codecs import encode_key, format_entity_id
from apps.hooks import selectors
from apps.hooks.api.serializers import format_timestamp_range

HOOKS_SHOWN = 100
SLOTS_PER_PAGE = 100
CHANGES_SHOWN = 50


class AccountHooksAdmin(accounts_admin.AccountAdmin):
    fields = (*accounts_admin.AccountAdmin.fields, "hooks")
    readonly_fields = fields

    @admin.display(description="hooks")
    def hooks(self, entity):
        hooks = selectors.hooks_of(entity.id, limit=HOOKS_SHOWN)
        if not hooks:
            return None
        rows = format_html_join(
            "",
            '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
            (
                (
                    reverse("admin:accounts_entity_hook_storage", args=[entity.id, hook["hook_id"]]),
                    hook["hook_id"],
                    format_entity_id(hook["contract_id"]) or "-",
                    f"{hook['extension_point']} {hook['type']}",
                    _key_text(hook["admin_key"]),
                    display_timestamp(hook["created_timestamp"]) or "-",
                    _range_text(hook["timestamp_range"]),
                    hook["deleted"],
                )
                for hook in hooks
            ),
        )
        return format_html(
            "<table><tr><th>hook</th><th>contract</th><th>kind</th><th>admin key</th><th>created</th>"
            "<th>timestamp range</th><th>deleted</th></tr>{}</table>",
            rows,
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


def _key_text(key: bytes | None) -> str:
    encoded = encode_key(key)
    return f"{encoded['_type']} {encoded['key']}" if encoded else "-"


def _range_text(timestamp_range) -> str:
    shown = format_timestamp_range(timestamp_range)
    return f"{shown['from'] or '…'} – {shown['to'] or '…'}" if shown else "-"


admin.site.unregister(Entity)
admin.site.register(Entity, AccountHooksAdmin)
