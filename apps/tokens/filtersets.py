"""Query parameters of the token routes (`/tokens...`)."""

from django.db import connection
from django.db.models import Exists, OuterRef

from apps.accounts.filtersets import parse_public_key
from apps.accounts.models import Entity
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import EvmAddressType, parse_entity_id, parse_id_or_any_address, parse_positive_long, parse_timestamp
from apps.common.filters import OPERATOR_LOOKUPS, OperatorFilter, split_operator
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.common.scoped_pages import ScopedPageFilterSet
from apps.tokens.models import Nft, Token, TokenAccount, TokenType
from apps.tokens.selectors import TokenBalanceListFilter

__all__ = (
    "NftFilterSet",
    "NftTransactionFilterSet",
    "TokenBalanceFilterSet",
    "TokenDetailFilterSet",
    "TokenFilterSet",
    "parse_equals",
    "parse_token_id",
)

NAME_BYTES_MIN, NAME_BYTES_MAX = 3, 100
TYPE_ALL = "ALL"


def parse_token_id(text: str) -> int:
    """An entity id, or an EVM address that encodes one (long-zero); ValueError otherwise."""
    return parse_entity_id(text, evm_address_type=EvmAddressType.NUM_ALIAS).encoded


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

    account_id = OperatorFilter(param="account.id", parser=parse_token_id, method="associated_with")
    name = OperatorFilter(parser=parse_token_name, operators={"eq"}, method="named")
    publickey = OperatorFilter(parser=parse_public_key, method="with_public_key")
    token_id = OperatorFilter(param="token.id", field_name="token_id", parser=parse_token_id)
    type = OperatorFilter(parser=parse_token_type, method="of_type")

    ordering_fields = ("token_id",)

    class Meta:
        model = Token
        fields = ()

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

    @property
    def paged(self) -> bool:
        """A name search answers one page: no `links.next`."""
        return "name" not in self.params

    def associated_with(self, queryset, name, comparisons):
        for comparison in comparisons or ():
            associations = TokenAccount.objects.filter(
                token_id=OuterRef("token_id"), account_id=comparison.value, associated=True
            )
            queryset = queryset.filter(Exists(associations))
        return queryset

    def named(self, queryset, name, comparisons):
        # A case-insensitive substring, as upstream's `ilike '%name%'`, but of the name as
        # written: its `%`, `_` and `\` match only themselves (upstream reads them as a pattern).
        for comparison in comparisons or ():
            pattern = f"%{connection.ops.prep_for_like_query(comparison.value)}%"
            queryset = queryset.extra(where=["token.name ilike %s"], params=[pattern])
        return queryset

    def with_public_key(self, queryset, name, comparisons):
        for comparison in comparisons or ():
            queryset = queryset.filter(Exists(Entity.objects.filter(id=OuterRef("token_id"), public_key=comparison.value)))
        return queryset

    def of_type(self, queryset, name, comparisons):
        # Upstream compares with the operator given, in the `token_type` enum's order.
        for comparison in comparisons or ():
            if comparison.value != TYPE_ALL:
                queryset = queryset.filter(**{f"type__{OPERATOR_LOOKUPS[comparison.operator]}": comparison.value})
        return queryset


class TokenDetailFilterSet(QueryFilterSet):
    """`/tokens/{tokenId}`: the token as of `timestamp` (`eq` reads as `lte`; the last value counts)."""

    timestamp = OperatorFilter(field_name="timestamp_range", parser=parse_timestamp, operators={"eq", "lt", "lte"})

    class Meta:
        model = Token
        fields = ()

    def as_of(self) -> tuple[str, int] | None:
        """(`lt` or `lte`, nanoseconds) of the last timestamp given, or None."""
        self.validate()
        comparison = self.value("timestamp")
        if comparison is None:
            return None
        return ("lt" if comparison.operator == "lt" else "lte"), comparison.value


class TokenBalanceFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="account_id", parser=parse_id_or_any_address)
    account_balance = OperatorFilter(param="account.balance", field_name="balance", parser=parse_balance)
    account_publickey = OperatorFilter(param="account.publickey", field_name="account_id", parser=parse_public_key)
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)

    default_order = "desc"

    class Meta:
        model = TokenAccount
        fields = ()

    def list_filter(self, token_id: int) -> TokenBalanceListFilter:
        """The validated query, for `selectors.token_balance_list`."""
        self.validate()
        data = self.form.cleaned_data
        public_key = self.value("account.publickey")
        return TokenBalanceListFilter(
            token_id=token_id,
            accounts=tuple(data.get("account.id") or ()),
            balances=tuple(data.get("account.balance") or ()),
            public_key=public_key.value if public_key else None,
            timestamps=tuple(data.get("timestamp") or ()),
            limit=self.limit_value,
            order=self.order_value,
        )


class NftFilterSet(ScopedPageFilterSet):
    account_id = OperatorFilter(
        param="account.id", field_name="account_id", parser=parse_id_or_any_address, merge_equals=False
    )
    serialnumber = OperatorFilter(field_name="serial_number", parser=parse_positive_long, merge_equals=False)

    default_order = "desc"
    ordering_fields = ("serial_number",)

    class Meta:
        model = Nft
        fields = ()


class NftTransactionFilterSet(ListFilterSet):
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)

    default_order = "desc"

    class Meta:
        model = Nft
        fields = ()


def parse_equals(text: str) -> str:
    """The operand of `value` or `eq:value`; ValueError for another operator."""
    operator, operand = split_operator(text)
    if operator != "eq":
        raise ValueError(f"Unsupported operator {operator!r}")
    return operand
