import re

from apps.common.ledger.codecs import MAX_LONG, parse_positive_long, parse_timestamp
from apps.common.query.comparisons import RANGE_OPERATORS
from apps.common.query.filters import (
    WITH_ANY_OPERATOR,
    WITH_RANGE_OPERATOR,
    OperatorFilter,
)
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pagination import Anchor

__all__ = ("BlockFilterSet", "parse_block_number")

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
        description=f"The block's number, decimal or `0x` hex, {WITH_RANGE_OPERATOR}. Each value is one more "
        "condition.",
    )
    timestamp = OperatorFilter(
        field_name="consensus_end",
        parser=parse_timestamp,
        merge_equals=False,
        description="When the block ends: the consensus timestamp (`seconds.nanos`) of its last transaction, "
        f"{WITH_ANY_OPERATOR}. Each value is one more condition.",
    )

    default_order = "desc"
    pagination = (Anchor("block.number", "index", parse=parse_block_number),)

    def order_by_fields(self) -> tuple[str, ...]:
        for name in self.params:
            if name == "block.number":
                return ("index",)
            if name == "timestamp":
                break
        return ("consensus_end",)
