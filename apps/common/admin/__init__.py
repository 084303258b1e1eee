"""The admin's shared machinery over the mirror tables, which it only reads.

- `displays`: stored values as the API prints them, one formatter per kind (ids, timestamps,
  keys, hbar amounts, enumerations, bytes), and the links between detail pages.
- `options`: `MirrorModelAdmin`, the read-only admin whose detail page shows every column
  through those formatters; `column` for list and detail columns.
- `search`: the search boxes read what the API prints.
- `lockout`: the page of a login locked after too many failures.
"""

from apps.common.admin.displays import (
    Display,
    admin_url,
    display_as_stored,
    display_boolean,
    display_bytes,
    display_each,
    display_entity_id,
    display_epoch_seconds,
    display_hbar,
    display_hex,
    display_json,
    display_key,
    display_result,
    display_seconds,
    display_table,
    display_timestamp,
    display_timestamp_range,
    display_transaction_type,
    entity_link,
    enum_names,
    timestamp_link,
)
from apps.common.admin.options import (
    COUNT_CAP,
    CappedCountPaginator,
    MirrorModelAdmin,
    column,
    detail_display,
)
from apps.common.admin.search import (
    parse_search_entity_id,
    parse_search_hex,
    parse_search_timestamp,
)

__all__ = (
    "COUNT_CAP",
    "CappedCountPaginator",
    "Display",
    "MirrorModelAdmin",
    "admin_url",
    "column",
    "detail_display",
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
    "parse_search_entity_id",
    "parse_search_hex",
    "parse_search_timestamp",
    "timestamp_link",
)
