"""Query parameters of the token routes (`/tokens...`)."""

from apps.accounts.filtersets import parse_entity_id_or_num_alias, parse_public_key
from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import (
    format_entity_id,
    format_timestamp,
    parse_positive_long,
    parse_query_entity_id,
    parse_query_entity_id_or_num_alias,
    parse_timestamp,
)
from apps.common.query.filters import OperatorFilter
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pagination import Anchor
from apps.tokens.models import TokenType

__all__ = (
    "NftFilterSet",
    "NftTransactionFilterSet",
    "TokenBalanceFilterSet",
    "TokenDetailFilterSet",
    "TokenFilterSet",
)

NAME_BYTES_MIN, NAME_BYTES_MAX = 3, 100
# A `type` that names every type.
TYPE_ALL = "ALL"


def parse_token_type(text: str) -> str:
    value = text.upper()
    if value != TYPE_ALL and value not in TokenType.values:
        raise ValueError(f"Invalid token type {text!r}")
    return value


def parse_token_name(text: str) -> str:
    if not NAME_BYTES_MIN <= len(text.encode()) <= NAME_BYTES_MAX:
        raise ValueError(f"Invalid token name length {text!r}")
    return text


def parse_balance(text: str) -> int:
    return parse_positive_long(text, allow_zero=True)


class TokenFilterSet(ListFilterSet):
    """`/tokens`: each filter narrows the tokens that have an entity row."""

    account_id = OperatorFilter(param="account.id", parser=parse_query_entity_id_or_num_alias)
    name = OperatorFilter(parser=parse_token_name, operators={"eq"})
    publickey = OperatorFilter(parser=parse_public_key)
    token_id = OperatorFilter(param="token.id", field_name="token_id", parser=parse_query_entity_id_or_num_alias)
    type = OperatorFilter(parser=parse_token_type)

    ordering_fields = ("token_id",)
    pagination = (Anchor("token.id", "token_id", format=format_entity_id, parse=parse_entity_id_or_num_alias),)

    def validate(self) -> None:
        # The upstream rejects these combinations before looking at any value.
        if "name" in self.params:
            if "token.id" in self.params:
                raise InvalidArgument("token.id and name can not be used together. Use a more specific name instead.")
            if "account.id" in self.params:
                raise InvalidArgument("account.id and name cannot be used together")
        super().validate()
        # Upstream reads `account.id` as one bare id, once the values have passed validation.
        accounts = self.params.get("account.id") or ()
        if len(accounts) > 1:
            raise InvalidArgument(f'Entity ID "{",".join(accounts)}" is not a string')
        if accounts and ":" in accounts[0]:
            raise InvalidArgument.for_params("account.id")

    def pagination_anchors(self) -> tuple[Anchor, ...]:
        # A name search answers one page: no `links.next`.
        return () if "name" in self.params else self.pagination


class TokenDetailFilterSet(QueryFilterSet):
    """`/tokens/{tokenId}`: the token as of `timestamp` (`eq` reads as `lte`; the last value counts)."""

    timestamp = OperatorFilter(parser=parse_timestamp, operators={"eq", "lt", "lte"})

    def as_of(self) -> tuple[str, int] | None:
        """(`lt` or `lte`, nanoseconds) of the last timestamp given, or None."""
        self.validate()
        comparison = self.value("timestamp")
        if comparison is None:
            return None
        return ("lt" if comparison.operator == "lt" else "lte"), comparison.value


class TokenBalanceFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/balances`: its selector reads every parameter itself."""

    account_id = OperatorFilter(param="account.id", parser=parse_query_entity_id)
    account_balance = OperatorFilter(param="account.balance", parser=parse_balance)
    account_publickey = OperatorFilter(param="account.publickey", parser=parse_public_key)
    timestamp = OperatorFilter(parser=parse_timestamp)

    default_order = "desc"
    pagination = (Anchor("account.id", "account_id", format=format_entity_id, parse=parse_entity_id_or_num_alias),)


class NftFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/nfts`: every comparison is ANDed, equalities included."""

    account_id = OperatorFilter(
        param="account.id", field_name="account_id", parser=parse_query_entity_id, merge_equals=False
    )
    serialnumber = OperatorFilter(field_name="serial_number", parser=parse_positive_long, merge_equals=False)

    default_order = "desc"
    ordering_fields = ("serial_number",)
    pagination = (Anchor("serialnumber", "serial_number"),)


class NftTransactionFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/nfts/{serialNumber}/transactions`: its selector reads `timestamp` itself."""

    timestamp = OperatorFilter(parser=parse_timestamp)

    default_order = "desc"
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)
