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
from apps.common.query.filters import WITH_ANY_OPERATOR, OperatorFilter
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

    account_id = OperatorFilter(
        param="account.id",
        parser=parse_query_entity_id_or_num_alias,
        description="Only the tokens associated with this account: its id, or the EVM address encoding it, given "
        "once and without an operator.",
    )
    name = OperatorFilter(
        parser=parse_token_name,
        operators={"eq"},
        description="Only the tokens whose name contains this text (3 to 100 bytes), in any case. `eq:` is the "
        "only operator; each value is one more condition.",
    )
    publickey = OperatorFilter(
        parser=parse_public_key,
        description="The admin public key the token must have: hex of 64, 66 or 88 digits, optionally after `0x` "
        "(an ED25519 key in DER is read as its raw key).",
    )
    token_id = OperatorFilter(
        param="token.id",
        field_name="token_id",
        parser=parse_query_entity_id_or_num_alias,
        description=f"The token's id, or the EVM address encoding it, {WITH_ANY_OPERATOR}. Several `eq:` values "
        "keep any of them.",
    )
    type = OperatorFilter(
        parser=parse_token_type,
        description="`FUNGIBLE_COMMON`, `NON_FUNGIBLE_UNIQUE` or `ALL` (the default), in any case.",
    )

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

    timestamp = OperatorFilter(
        parser=parse_timestamp,
        operators={"eq", "lt", "lte"},
        description="The moment to show the token at, a consensus timestamp (`seconds.nanos`) after an optional "
        "operator: `lte:` or `eq:` (the default) for at or before it, `lt:` for before it. The last value counts.",
    )

    def as_of(self) -> tuple[str, int] | None:
        """(`lt` or `lte`, nanoseconds) of the last timestamp given, or None."""
        self.validate()
        comparison = self.value("timestamp")
        if comparison is None:
            return None
        return ("lt" if comparison.operator == "lt" else "lte"), comparison.value


class TokenBalanceFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/balances`: its selector reads every parameter itself."""

    account_id = OperatorFilter(
        param="account.id",
        parser=parse_query_entity_id,
        description=f"The holder's id, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )
    account_balance = OperatorFilter(
        param="account.balance",
        parser=parse_balance,
        description=f"The holder's balance of the token, in its smallest unit, {WITH_ANY_OPERATOR}.",
    )
    account_publickey = OperatorFilter(
        param="account.publickey",
        parser=parse_public_key,
        description="The public key the holder must have: hex of 64, 66 or 88 digits, optionally after `0x` (an "
        "ED25519 key in DER is read as its raw key). The last value counts.",
    )
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description="The balance snapshot to read: the newest at a consensus timestamp (`seconds.nanos`) "
        f"{WITH_ANY_OPERATOR} (`eq:` reads as `lte:`). Without it, the balances as they are now.",
    )

    default_order = "desc"
    pagination = (Anchor("account.id", "account_id", format=format_entity_id, parse=parse_entity_id_or_num_alias),)


class NftFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/nfts`: every comparison is ANDed, equalities included."""

    account_id = OperatorFilter(
        param="account.id",
        field_name="account_id",
        parser=parse_query_entity_id,
        merge_equals=False,
        description=f"The owner's id, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )
    serialnumber = OperatorFilter(
        field_name="serial_number",
        parser=parse_positive_long,
        merge_equals=False,
        description=f"The serial number, from 1, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )

    default_order = "desc"
    ordering_fields = ("serial_number",)
    pagination = (Anchor("serialnumber", "serial_number"),)


class NftTransactionFilterSet(ListFilterSet):
    """`/tokens/{tokenId}/nfts/{serialNumber}/transactions`: its selector reads `timestamp` itself."""

    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description=f"The transaction's consensus timestamp (`seconds.nanos`), {WITH_ANY_OPERATOR}.",
    )

    default_order = "desc"
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)
