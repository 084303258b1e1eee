"""Query parameters of `/topics/{topicId}/messages`."""

from django.db.models import Subquery

from apps.common.codecs import parse_positive_long, parse_timestamp
from apps.common.filters import LastValueFilter, OperatorFilter, split_operator
from apps.common.scoped_pages import ScopedPageFilterSet

__all__ = ("BASE64", "UTF8", "TopicMessageFilterSet", "parse_encoding")

BASE64 = "base64"
UTF8 = "utf-8"
_ENCODINGS = {"base64": BASE64, "utf-8": UTF8, "utf8": UTF8}
_LOOKUPS = {"eq": "exact", "lt": "lt", "lte": "lte", "gt": "gt", "gte": "gte"}


def parse_encoding(text: str) -> str:
    operator, operand = split_operator(text)
    if operator != "eq" or operand.lower() not in _ENCODINGS:
        raise ValueError(f"Invalid encoding {text!r}")
    return _ENCODINGS[operand.lower()]


class TopicMessageFilterSet(ScopedPageFilterSet):
    """Filters one topic's messages: the queryset given is already narrowed to the topic."""

    # Every condition is ANDed, equalities included, as the upstream builds them.
    sequencenumber = OperatorFilter(field_name="sequence_number", parser=parse_positive_long, merge_equals=False)
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp, merge_equals=False)
    encoding = LastValueFilter(parser=parse_encoding)

    ordering_fields = ("consensus_timestamp",)

    @property
    def encoding_value(self) -> str:
        return self.value("encoding", BASE64)

    def filter_queryset(self, queryset):
        return self._bound_timestamps_by_sequence_numbers(super().filter_queryset(queryset))

    def _bound_timestamps_by_sequence_numbers(self, queryset):
        """Restates each sequence number bound as a bound on the consensus timestamp.

        A topic numbers its messages in consensus order, so the message nearest a
        sequence number bound also bounds the timestamps. With it PostgreSQL
        range-scans the (topic_id, consensus_timestamp) index the page is ordered
        by instead of filtering its way through all of the topic's messages.
        """
        for comparison in self.form.cleaned_data.get("sequencenumber") or ():
            operator, value = comparison.operator, comparison.value
            if operator == "ne":
                continue
            nearest = self.queryset.filter(**{f"sequence_number__{_LOOKUPS[operator]}": value})
            if operator in ("lt", "lte"):
                nearest, bound = nearest.order_by("-sequence_number"), "lte"
            else:
                nearest, bound = nearest.order_by("sequence_number"), "gte" if operator != "eq" else "exact"
            nearest_timestamp = Subquery(nearest.values("consensus_timestamp")[:1])
            queryset = queryset.filter(**{f"consensus_timestamp__{bound}": nearest_timestamp})
        return queryset
