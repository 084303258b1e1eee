"""Stored values as the API prints them: one formatter per kind, for every admin page over the mirror.

Each takes a column's stored value and returns text, HTML (a link, a table) or None for NULL,
which a page shows as its empty value:

- entity ids: `shard.realm.num` (`display_entity_id`), on detail pages linked to the admin
  page of that entity (`entity_link`);
- timestamps: `seconds.nanos` with the UTC date (`display_timestamp`), linked to the page of
  the row they key (`timestamp_link`: a transaction's consensus timestamp); timestamp ranges,
  epoch seconds and durations alike;
- keys: their type and hex, the API's `{"_type", "key"}` (`display_key`);
- hbar amounts: in ℏ with the tinybars beside them (`display_hbar`);
- enumerations by name: transaction types and results, and any `enum_names` table;
- bytes: hashes and code as `0x` hex (`display_hex`), text (memos, messages) as that text
  when it is UTF-8, else hex (`display_bytes`).

A link goes to the admin that declares the kind of page (`MirrorModelAdmin.page_kinds`:
`ACCOUNT`, `TOKEN`, `TRANSACTION`…), so this module names no app.
"""

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import display_for_value, quote
from django.db import connection
from django.urls import reverse
from django.utils.html import format_html, format_html_join, strip_tags

from apps.common.ledger.codecs import (
    add_hex_prefix,
    encode_key,
    format_entity_id,
    format_hbars,
    format_timestamp,
    to_hex,
)
from apps.common.ledger.hapi import result_name, transaction_type_name

__all__ = (
    "Display",
    "admin_url",
    "display_as_stored",
    "display_boolean",
    "display_bytes",
    "display_each",
    "display_entity_id",
    "display_epoch_seconds",
    "display_hbar",
    "display_hex",
    "display_json",
    "display_key",
    "display_result",
    "display_seconds",
    "display_table",
    "display_timestamp",
    "display_timestamp_range",
    "display_transaction_type",
    "entity_link",
    "enum_names",
    "timestamp_link",
)

Display = Callable[[Any], Any]

NANOS_PER_SECOND = 1_000_000_000
# Longer than an id, a timestamp or most names: a hash, a key or other hex.
LONG_WORD = 32

# The API's own spellings, under the names the admins use.
display_entity_id = format_entity_id
display_transaction_type = transaction_type_name
display_result = result_name


def display_as_stored(value: Any) -> Any:
    """A column that stores the API's own name (`FUNGIBLE_COMMON`), not the choice's label."""
    return value


def display_boolean(value: bool | None):
    """The admin's yes or no icon; NULL as the empty value, not as the icon of an unknown."""
    return None if value is None else display_for_value(value, admin.site.empty_value_display, boolean=True)


def _utc_date(seconds: int) -> str:
    return f"{datetime.fromtimestamp(seconds, tz=UTC):%Y-%m-%d %H:%M:%S} UTC"


def display_timestamp(nanos: int | None) -> str | None:
    """`1700000000.000000001 (2023-11-14 22:13:20 UTC)`."""
    if nanos is None:
        return None
    return f"{format_timestamp(nanos)} ({_utc_date(nanos // NANOS_PER_SECOND)})"


def display_timestamp_range(timestamps) -> str | None:
    """`from <timestamp>`, and `to <timestamp>` when the range is closed."""
    if timestamps is None:
        return None
    shown = f"from {display_timestamp(timestamps.lower)}"
    return shown if timestamps.upper is None else f"{shown} to {display_timestamp(timestamps.upper)}"


def display_epoch_seconds(seconds: int | None) -> str | None:
    """Whole seconds since the epoch: `1700000000 (2023-11-14 22:13:20 UTC)`."""
    return None if seconds is None else f"{seconds} ({_utc_date(seconds)})"


def display_seconds(seconds: int | None) -> str | None:
    """A duration: `7776000 seconds (90 days, 0:00:00)`."""
    return None if seconds is None else f"{seconds} seconds ({timedelta(seconds=seconds)})"


def display_hbar(tinybars: int | None) -> str | None:
    """`12.50000000 ℏ (1250000000 tinybars)`."""
    if tinybars is None:
        return None
    return f"{format_hbars(tinybars)} ℏ ({tinybars} tinybars)"


def display_key(key: bytes | None) -> str | None:
    """`ED25519 <hex>`: a protobuf `Key` as the API's `_type` and `key`."""
    encoded = encode_key(key)
    return None if encoded is None else f"{encoded['_type']} {encoded['key']}"


def display_hex(value: bytes | memoryview | str | None) -> str | None:
    """`0x` hex of bytes, or of a hash the mirror stores as hex text."""
    if isinstance(value, str):
        return add_hex_prefix(value)
    return to_hex(value)


def display_bytes(value: bytes | memoryview | None) -> str | None:
    """Bytes that are UTF-8 text (a memo, a message) as that text; any other bytes as hex."""
    if value is None:
        return None
    try:
        text = bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        return to_hex(value)
    return text if all(char.isprintable() or char in "\t\n\r" for char in text) else to_hex(value)


def display_json(value) -> str | None:
    """A JSON column, indented, in a block the page keeps within its width."""
    if value is None:
        return None
    return format_html('<pre class="mirror-json">{}</pre>', json.dumps(value, indent=1, sort_keys=True))


def enum_names(names: Mapping[int, str] | Sequence[str]) -> Display:
    """A stored number shown by its name in `names` (a sequence by position); a number without one as itself."""
    lookup = dict(enumerate(names)) if isinstance(names, Sequence) else names

    def display(value: int | None) -> str | None:
        return None if value is None else lookup.get(value, str(value))

    return display


def display_each(display: Display) -> Display:
    """An array column, each element through `display`, comma separated."""

    def display_all(values: Iterable | None):
        if values is None:
            return None
        return format_html_join(", ", "{}", ((display(value),) for value in values))

    return display_all


def admin_url(kind: str | None, pk) -> str | None:
    """The admin page of row `pk` of the admin showing pages of `kind`; None when no admin does."""
    for model, model_admin in admin.site._registry.items():
        if kind in getattr(model_admin, "page_kinds", ()):
            opts = model._meta
            return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(pk)])
    return None


def _linked(text: str | None, url: str | None):
    if text is None or url is None:
        return text
    return format_html('<a href="{}">{}</a>', url, text)


def _entity_type(encoded: int) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("select type from entity where id = %s", [encoded])
        row = cursor.fetchone()
    return row[0] if row else None


def entity_link(entity_type: str | None = None) -> Display:
    """An entity id linked to its entity's page; `entity_type` (`ACCOUNT`, `TOKEN`…) says which
    kind of page, None has the `entity` table say (one read)."""

    def display(encoded: int | None):
        if encoded is None:
            return None
        return _linked(format_entity_id(encoded), admin_url(entity_type or _entity_type(encoded), encoded))

    return display


def timestamp_link(kind: str) -> Display:
    """A timestamp linked to the page of the `kind` row it keys (`TRANSACTION`: its consensus timestamp)."""

    def display(nanos: int | None):
        if nanos is None:
            return None
        return _linked(display_timestamp(nanos), admin_url(kind, nanos))

    return display


def _cell(value, empty: str):
    if value is None:
        return format_html("<td>{}</td>", empty)
    # A hash or a key breaks anywhere; other cells only between words, so that a table
    # squeezed into the page does not split its names and numbers.
    if any(len(word) > LONG_WORD for word in strip_tags(str(value)).split()):
        return format_html('<td class="mirror-long">{}</td>', value)
    return format_html("<td>{}</td>", value)


def display_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]):
    """Rows of a detail page's list (a block's transactions), each cell text or HTML; None without rows."""
    empty = admin.site.empty_value_display
    body = format_html_join(
        "", "<tr>{}</tr>", ((format_html_join("", "{}", ((_cell(cell, empty),) for cell in row)),) for row in rows)
    )
    if not body:
        return None
    head = format_html_join("", "<th>{}</th>", ((header,) for header in headers))
    return format_html('<table class="mirror-rows"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', head, body)
