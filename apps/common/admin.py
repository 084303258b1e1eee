"""Shared pieces of the read-only admins over the mirror tables.

- `display_*`: stored values as the API prints them: entity ids `0.0.N`, timestamps
  `seconds.nanos` with their UTC date, hashes and other bytes as `0x` hex, transaction types
  and results by name; memos as their text. They return None for NULL, which the admin shows as "-".
- `parse_search_*`: the search box reads what the API prints.
- `column`: a list or detail column that shows an attribute through a display function.
- `ReadOnlyModelAdmin`: no add, change or delete, and a paginator that counts at most
  `COUNT_CAP` rows, as these tables are too large to count.
- `MirrorModelAdmin`: a `ReadOnlyModelAdmin` whose detail page shows every column,
  through `column_displays` (column -> display function), bytes as hex.
"""

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.contrib import admin
from django.contrib.postgres.fields import ArrayField
from django.core.paginator import Paginator
from django.db import models
from django.utils.functional import cached_property

from apps.common.ledger.codecs import (
    add_hex_prefix,
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    parse_timestamp,
    to_hex,
)
from apps.common.ledger.hapi import result_name, transaction_type_name

__all__ = (
    "COUNT_CAP",
    "CappedCountPaginator",
    "MirrorModelAdmin",
    "ReadOnlyModelAdmin",
    "column",
    "display_entity_id",
    "display_hex",
    "display_result",
    "display_text",
    "display_timestamp",
    "display_transaction_type",
    "parse_search_entity_id",
    "parse_search_hex",
    "parse_search_timestamp",
)

COUNT_CAP = 10_000
NANOS_PER_SECOND = 1_000_000_000

_SEARCH_ENTITY_ID = re.compile(r"^\d{1,4}\.\d{1,5}\.\d{1,12}$")
_SEARCH_TIMESTAMP = re.compile(r"^\d{1,10}\.\d{1,9}$")
_SEARCH_HEX = re.compile(r"^(?:0x)?([0-9A-Fa-f]+)$")


# The API's own spellings, under the names the admins use.
display_entity_id = format_entity_id
display_transaction_type = transaction_type_name
display_result = result_name


def display_timestamp(nanos: int | None) -> str | None:
    """`1700000000.000000001 (2023-11-14 22:13:20 UTC)`."""
    if nanos is None:
        return None
    date = datetime.fromtimestamp(nanos // NANOS_PER_SECOND, tz=UTC)
    return f"{format_timestamp(nanos)} ({date:%Y-%m-%d %H:%M:%S} UTC)"


def display_hex(value: bytes | memoryview | str | None) -> str | None:
    """`0x` hex of bytes, or of a hash the mirror stores as hex text."""
    if isinstance(value, str):
        return add_hex_prefix(value)
    return to_hex(value)


def display_text(value: bytes | memoryview | None) -> str | None:
    """Bytes that hold text (a memo) as that text; undecodable bytes as replacement characters."""
    return None if value is None else bytes(value).decode("utf-8", errors="replace")


def parse_search_entity_id(term: str) -> int | None:
    """The encoded id of a `shard.realm.num` term; None for anything else."""
    if not _SEARCH_ENTITY_ID.match(term):
        return None
    try:
        return parse_entity_id(term, allow_evm_address=False).encoded
    except ValueError:
        return None


def parse_search_timestamp(term: str) -> int | None:
    """The nanoseconds of a `seconds.nanos` term; None for anything else."""
    return parse_timestamp(term) if _SEARCH_TIMESTAMP.match(term) else None


def parse_search_hex(term: str, *, min_digits: int) -> str | None:
    """The lowercase hex digits of a hex term (`0x` optional) of at least `min_digits`."""
    match = _SEARCH_HEX.match(term)
    if not match or len(match.group(1)) < min_digits:
        return None
    return match.group(1).lower()


class CappedCountPaginator(Paginator):
    """Counts at most `COUNT_CAP + 1` rows instead of the whole table."""

    @cached_property
    def count(self):
        return self.object_list.order_by()[: COUNT_CAP + 1].count()


def column(
    name: str, display: Callable[[Any], Any], *, description: str | None = None, sortable: bool = False
) -> Callable[[models.Model], Any]:
    """A list or detail column showing the model's `name` attribute through `display`."""

    def show(obj):
        shown = display(getattr(obj, name))
        # The detail page would print None; the list shows the same dash either way.
        return admin.site.empty_value_display if shown is None else shown

    show.__name__ = name
    return admin.display(description=description or name.replace("_", " "), ordering=name if sortable else None)(
        show
    )


def _display_hex_list(values: list | None) -> str | None:
    return None if values is None else ", ".join(display_hex(value) for value in values)


def _default_display(field: models.Field) -> Callable[[Any], Any] | None:
    if isinstance(field, models.BinaryField):
        return display_hex
    if isinstance(field, ArrayField) and isinstance(field.base_field, models.BinaryField):
        return _display_hex_list
    return None


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """The mirror tables belong to the importer: the admin only looks, and never counts a whole table."""

    paginator = CappedCountPaginator
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MirrorModelAdmin(ReadOnlyModelAdmin):
    # column -> how its stored value shows on the detail page
    column_displays: dict[str, Callable[[Any], Any]] = {}
    # names of admin display methods shown before the columns
    detail_summary: tuple[str, ...] = ()

    @cached_property
    def detail_fields(self) -> list:
        fields: list = list(self.detail_summary)
        for field in self.model._meta.concrete_fields:
            display = self.column_displays.get(field.name) or _default_display(field)
            fields.append(field.name if display is None else column(field.attname, display, description=field.verbose_name))
        return fields

    def get_fields(self, request, obj=None):
        return self.detail_fields

    def get_readonly_fields(self, request, obj=None):
        return self.detail_fields
