"""Read-only admin for topics and their messages.

`topic_message` is among the largest mirror tables: lists are ordered, limited
reads by the primary key, searches use indexed columns, and the paginator
counts at most `apps.common.admin.COUNT_CAP` rows.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_bytes,
    display_entity_id,
    display_json,
    display_key,
    display_table,
    display_timestamp,
    entity_link,
    timestamp_link,
)
from apps.common.ledger.codecs import parse_entity_id, parse_timestamp
from apps.topics import selectors
from apps.topics.api.serializers import chunk_info
from apps.topics.models import Topic, TopicMessage
from apps.topics.protobuf import key_list_keys

LATEST_MESSAGES = 10
MESSAGE_PREVIEW_BYTES = 80


def search_entity_id(term: str) -> int | None:
    try:
        return parse_entity_id(term.strip(), allow_evm_address=False).encoded
    except ValueError:
        return None


def message_preview(message: bytes) -> str:
    text = bytes(message[:MESSAGE_PREVIEW_BYTES]).decode("utf-8", errors="replace")
    return text + ("…" if len(message) > MESSAGE_PREVIEW_BYTES else "")


def display_key_list(key_list: bytes | None):
    """A protobuf `KeyList`, each key as `display_key` shows it, one a line."""
    if key_list is None:
        return None
    return format_html_join(mark_safe("<br>"), "{}", ((display_key(key),) for key in key_list_keys(bytes(key_list))))


@admin.register(Topic)
class TopicAdmin(MirrorModelAdmin):
    page_kinds = ("TOPIC",)
    list_display = (
        column("id", display_entity_id, description="topic", sortable=True),
        column("created_timestamp", display_timestamp, description="created", sortable=True),
        "valid_from",
    )
    search_fields = ("id",)
    search_help_text = "Topic id (0.0.1009)"
    ordering = ("-id",)
    column_displays = {
        "id": display_entity_id,
        "admin_key": display_key,
        "created_timestamp": timestamp_link("TRANSACTION"),
        "fee_exempt_key_list": display_key_list,
        "fee_schedule_key": display_key,
        "submit_key": display_key,
    }
    detail_related = ("latest_messages",)

    @admin.display(description="valid from")
    def valid_from(self, topic):
        return display_timestamp(topic.timestamp_range.lower)

    @detail_display(f"latest {LATEST_MESSAGES} messages")
    def latest_messages(self, topic):
        messages = selectors.topic_message_queryset(topic_id=topic.id).order_by("-consensus_timestamp")
        return display_table(
            ("sequence number", "consensus timestamp", "message"),
            (
                (
                    format_html(
                        '<a href="{}">{}</a>',
                        reverse("admin:topics_topicmessage_change", args=[message["consensus_timestamp"]]),
                        message["sequence_number"],
                    ),
                    display_timestamp(message["consensus_timestamp"]),
                    message_preview(message["message"]),
                )
                for message in messages[:LATEST_MESSAGES]
            ),
        )

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        topic_id = search_entity_id(search_term)
        return (queryset.none() if topic_id is None else queryset.filter(id=topic_id)), False


@admin.register(TopicMessage)
class TopicMessageAdmin(MirrorModelAdmin):
    list_display = (
        column("consensus_timestamp", display_timestamp, description="consensus timestamp", sortable=True),
        column("topic_id", display_entity_id, description="topic"),
        "sequence_number",
        column("payer_account_id", display_entity_id, description="payer"),
        "preview",
    )
    search_fields = ("consensus_timestamp",)
    search_help_text = "Topic id (0.0.1009) or consensus timestamp (1234567890.000000001)"
    # The order of the (topic_id, consensus_timestamp) index: no sort of the whole table.
    ordering = ("-topic_id", "-consensus_timestamp")
    column_displays = {
        "consensus_timestamp": timestamp_link("TRANSACTION"),
        "initial_transaction_id": "initial_transaction",
        "message": display_bytes,
        "payer_account_id": entity_link("ACCOUNT"),
        "topic_id": entity_link("TOPIC"),
        "valid_start_timestamp": display_timestamp,
    }

    @admin.display(description="message")
    def preview(self, message):
        return message_preview(message.message)

    @detail_display("initial transaction id")
    def initial_transaction(self, message):
        chunk = chunk_info(vars(message))
        return None if chunk is None else display_json(chunk["initial_transaction_id"])

    def get_search_results(self, request, queryset, search_term):
        """`seconds.nanos` (one dot) selects the message at that instant; an entity id its topic's messages."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if term.count(".") == 1:
            try:
                return self._at(queryset, parse_timestamp(term)), False
            except ValueError:
                pass
        topic_id = search_entity_id(term)
        return (queryset.none() if topic_id is None else queryset.filter(topic_id=topic_id)), False

    def get_object(self, request, object_id, from_field=None):
        try:
            return self._at(self.get_queryset(request), int(object_id)).first()
        except ValueError:
            return None

    @staticmethod
    def _at(queryset, consensus_timestamp: int):
        """The message at an instant, found through its transaction: the table has no index
        on the timestamp alone, only on (topic_id, consensus_timestamp)."""
        message = selectors.topic_message_at(consensus_timestamp=consensus_timestamp)
        if message is None:
            return queryset.none()
        return queryset.filter(topic_id=message["topic_id"], consensus_timestamp=consensus_timestamp)
