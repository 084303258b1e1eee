"""Query parameters of `/topics/{topicId}/messages`."""

from apps.common.codecs import parse_positive_long, parse_timestamp
from apps.common.filters import LastValueFilter, OperatorFilter, split_operator
from apps.common.filtersets import ListFilterSet

__all__ = ("BASE64", "UTF8", "TopicMessageFilterSet", "parse_encoding")

BASE64 = "base64"
UTF8 = "utf-8"
_ENCODINGS = {"base64": BASE64, "utf-8": UTF8, "utf8": UTF8}


def parse_encoding(text: str) -> str:
    operator, operand = split_operator(text)
    if operator != "eq" or operand.lower() not in _ENCODINGS:
        raise ValueError(f"Invalid encoding {text!r}")
    return _ENCODINGS[operand.lower()]


class TopicMessageFilterSet(ListFilterSet):
    # Every condition is ANDed, equalities included, as the upstream builds them.
    sequencenumber = OperatorFilter(field_name="sequence_number", parser=parse_positive_long, merge_equals=False)
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp, merge_equals=False)
    encoding = LastValueFilter(parser=parse_encoding)

    ordering_fields = ("consensus_timestamp",)

    @property
    def encoding_value(self) -> str:
        return self.value("encoding", BASE64)
