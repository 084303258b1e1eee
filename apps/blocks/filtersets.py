import re

from django.db.models import Subquery

from apps.blocks.models import RecordFile
from apps.common.codecs import MAX_LONG, parse_positive_long, parse_timestamp
from apps.common.filters import RANGE_OPERATORS, OperatorFilter
from apps.common.filtersets import ListFilterSet

__all__ = ("BlockFilterSet", "parse_block_number")

_LOOKUPS = {"eq": "exact", "lt": "lt", "lte": "lte", "gt": "gt", "gte": "gte"}
_HEX_DIGITS = re.compile(r"^0x([0-9A-Fa-f]+)")


def parse_block_number(text: str) -> int:
    """A decimal number, or `0x` hex read up to the first non-hex character as the upstream reads it."""
    if text.startswith("0x"):
        match = _HEX_DIGITS.match(text)
        if not match or int(match.group(1), 16) > MAX_LONG:
            raise ValueError(f"Invalid block number {text!r}")
        return int(match.group(1), 16)
    return parse_positive_long(text, allow_zero=True)


class BlockFilterSet(ListFilterSet):
    # Blocks AND every condition, equalities included.
    block_number = OperatorFilter(
        param="block.number",
        field_name="index",
        parser=parse_block_number,
        operators=RANGE_OPERATORS,
        merge_equals=False,
    )
    timestamp = OperatorFilter(field_name="consensus_end", parser=parse_timestamp, merge_equals=False)

    default_order = "desc"
    compiled_page = True

    def order_by_fields(self) -> tuple[str, ...]:
        for name in self.params:
            if name == "block.number":
                return ("index",)
            if name == "timestamp":
                break
        return ("consensus_end",)

    def filter_queryset(self, queryset):
        return self._bound_ordered_column(super().filter_queryset(queryset))

    def _bound_ordered_column(self, queryset):
        """Restates bounds on the other column as bounds on the ordered one.

        Block numbers and consensus timestamps rise together, so the first
        block past a timestamp bound is also a bound on the number (and the
        other way round). With it PostgreSQL range-scans the index of the
        ordered column instead of filtering its way through the whole table.
        """
        ordered = self.order_by_fields()[0]
        param, other = ("timestamp", "consensus_end") if ordered == "index" else ("block.number", "index")
        for comparison in self.form.cleaned_data.get(param) or ():
            operator, value = comparison.operator, comparison.value
            if operator == "ne":
                continue
            nearest = RecordFile.objects.filter(**{f"{other}__{_LOOKUPS[operator]}": value})
            if operator in ("lt", "lte"):
                nearest, bound = nearest.order_by(f"-{other}"), "lte"
            else:
                nearest, bound = nearest.order_by(other), "gte" if operator != "eq" else "exact"
            queryset = queryset.filter(**{f"{ordered}__{bound}": Subquery(nearest.values(ordered)[:1])})
        return queryset
