"""Read-only admin for topics and their messages.

`topic_message` is among the largest mirror tables: lists are ordered, limited
reads by the primary key, searches use indexed columns, and the paginator
counts at most `apps.common.admin.COUNT_CAP` rows.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from apps.common.admin import ReadOnlyModelAdmin
from apps.common.ledger.codecs import (
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    parse_timestamp,
)
from apps.topics import selectors
from apps.topics.models import Topic, TopicMessage

LATEST_MESSAGES = 10
MESSAGE_PREVIEW_BYTES = 80


class ReadOnlyAdmin(ReadOnlyModelAdmin):
    list_per_page = 50

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields] + list(self.readonly_fields)


def search_entity_id(term: str) -> int | None:
    try:
        return parse_entity_id(term.strip(), allow_evm_address=False).encoded
    except ValueError:
        return None


def message_preview(message: bytes) -> str:
    text = bytes(message[:MESSAGE_PREVIEW_BYTES]).decode("utf-8", errors="replace")
    return text + ("…" if len(message) > MESSAGE_PREVIEW_BYTES else "")


@admin.register(Topic)
class TopicAdmin(ReadOnlyAdmin):
    list_display = ("topic", "created", "valid_from")
    search_fields = ("id",)
    search_help_text = "Topic id (0.0.1009)"
    ordering = ("-id",)
    readonly_fields = ("latest_messages",)

    @admin.display(description="topic", ordering="id")
    def topic(self, topic):
        return format_entity_id(topic.id)

    @admin.display(description="created", ordering="created_timestamp")
    def created(self, topic):
        return format_timestamp(topic.created_timestamp)

    @admin.display(description="valid from")
    def valid_from(self, topic):
        return format_timestamp(topic.timestamp_range.lower)

    @admin.display(description=f"latest {LATEST_MESSAGES} messages")
    def latest_messages(self, topic):
        messages = selectors.topic_message_queryset(topic_id=topic.id).order_by("-consensus_timestamp")
        rows = format_html_join(
            "",
            '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td></tr>',
            (
                (
                    reverse("admin:topics_topicmessage_change", args=[message["consensus_timestamp"]]),
                    message["sequence_number"],
                    format_timestamp(message["consensus_timestamp"]),
                    message_preview(message["message"]),
                )
                for message in messages[:LATEST_MESSAGES]
            ),
        )
        if not rows:
            return "none"
        return format_html(
            "<table><tr><th>sequence number</th><th>consensus timestamp</th><th>message</th></tr>{}</table>",
            rows,
        )

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        topic_id = search_entity_id(search_term)
        return (queryset.none() if topic_id is None else queryset.filter(id=topic_id)), False


@admin.register(TopicMessage)
class TopicMessageAdmin(ReadOnlyAdmin):
    list_display = ("timestamp", "topic", "sequence_number", "payer", "preview")
    search_fields = ("consensus_timestamp",)
    search_help_text = "Topic id (0.0.1009) or consensus timestamp (1234567890.000000001)"
    # The order of the (topic_id, consensus_timestamp) index: no sort of the whole table.
    ordering = ("-topic_id", "-consensus_timestamp")

    @admin.display(description="consensus timestamp", ordering="consensus_timestamp")
    def timestamp(self, message):
        return format_timestamp(message.consensus_timestamp)

    @admin.display(description="topic")
    def topic(self, message):
        return format_entity_id(message.topic_id)

    @admin.display(description="payer")
    def payer(self, message):
        return format_entity_id(message.payer_account_id)

    @admin.display(description="message")
    def preview(self, message):
        return message_preview(message.message)

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
