"""The admin class of the mirror tables: read-only detail pages in the API's spellings.

The importer owns these tables, so the admin only looks: no add, change or delete, and a
paginator that counts at most `COUNT_CAP` rows, as the tables are too large to count. A detail
page shows `detail_summary`, then every column of the row through its display, then
`detail_related` (the rows that belong to it, such as a block's transactions).
"""

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.postgres.fields import ArrayField, BigIntegerRangeField
from django.core.paginator import Paginator
from django.db import models
from django.utils.functional import cached_property

from apps.common.admin.displays import (
    Display,
    display_as_stored,
    display_boolean,
    display_each,
    display_hex,
    display_json,
    display_timestamp_range,
)

__all__ = ("COUNT_CAP", "CappedCountPaginator", "MirrorModelAdmin", "column", "detail_display")

COUNT_CAP = 10_000


class CappedCountPaginator(Paginator):
    """Counts at most `COUNT_CAP + 1` rows instead of the whole table."""

    @cached_property
    def count(self):
        return self.object_list.order_by()[: COUNT_CAP + 1].count()


def _shown(value):
    # A detail page would print None; a list shows the same dash either way.
    return admin.site.empty_value_display if value is None else value


def column(
    name: str, display: Display, *, description: str | None = None, sortable: bool = False
) -> Callable[[models.Model], Any]:
    """A list or detail column showing the model's `name` attribute through `display`."""

    def show(obj):
        return _shown(display(getattr(obj, name)))

    show.__name__ = name
    return admin.display(description=description or name.replace("_", " "), ordering=name if sortable else None)(
        show
    )


def detail_display(description: str):
    """An admin method shown on a detail page, its None as the empty value, as columns show theirs."""

    def decorate(method):
        @functools.wraps(method)
        def show(model_admin, obj):
            return _shown(method(model_admin, obj))

        return admin.display(description=description)(show)

    return decorate


def _default_display(field: models.Field) -> Display | None:
    """How a column shows when its admin names no display: None leaves it to Django (numbers, text, booleans)."""
    if isinstance(field, models.BinaryField):
        return display_hex
    if isinstance(field, ArrayField) and isinstance(field.base_field, models.BinaryField):
        return display_each(display_hex)
    if isinstance(field, BigIntegerRangeField):
        return display_timestamp_range
    if isinstance(field, models.JSONField):
        return display_json
    if field.choices:
        return display_as_stored
    if isinstance(field, models.BooleanField) and field.null:
        return display_boolean
    return None


class MirrorModelAdmin(admin.ModelAdmin):
    # The kinds of pages this admin shows, for links from other pages (`displays.admin_url`).
    page_kinds: tuple[str, ...] = ()
    # column -> how its stored value shows: a display function, or the name of an admin
    # method given the whole row, for a column whose value alone does not say enough
    column_displays: dict[str, Display | str] = {}
    # column -> its label, where the column's name would mislead (`valid_start_ns` holds a timestamp)
    column_labels: dict[str, str] = {}
    detail_summary: tuple[str, ...] = ()
    detail_related: tuple[str, ...] = ()
    list_per_page = 50
    paginator = CappedCountPaginator
    show_full_result_count = False

    class Media:
        css = {"all": ("common/admin/mirror.css",)}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @cached_property
    def detail_fields(self) -> list:
        fields: list = list(self.detail_summary)
        # The row's key first, as the page's title names it.
        for field in sorted(self.model._meta.concrete_fields, key=lambda field: not field.primary_key):
            display = self.column_displays.get(field.name) or _default_display(field)
            if isinstance(display, str):
                fields.append(display)
            elif display is None:
                fields.append(field.name)
            else:
                label = self.column_labels.get(field.name, field.verbose_name)
                fields.append(column(field.attname, display, description=label))
        return [*fields, *self.detail_related]

    def get_fields(self, request, obj=None):
        return self.detail_fields

    def get_readonly_fields(self, request, obj=None):
        return self.detail_fields
