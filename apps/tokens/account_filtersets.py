"""Query parameters of the token lists under an account: `/accounts/{id}/nfts`,
`/accounts/{id}/allowances/tokens` and `/accounts/{id}/tokens`."""

from apps.accounts.filtersets import (
    ID_ANCHOR,
    ID_CODEC,
    STARTUP_LIMIT_DEFAULT,
    reject_not_equal,
)
from apps.accounts.selectors.account_paths import account_exists
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import (
    parse_positive_long,
    parse_query_entity_id,
    parse_query_entity_id_or_num_alias,
)
from apps.common.query.comparisons import LOWER_OPERATORS, UPPER_OPERATORS
from apps.common.query.filters import WITH_RANGE_OPERATOR, OperatorFilter
from apps.common.query.filtersets import KeyFilter, KeysetFilterSet, ListFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor


class AccountNftFilterSet(KeysetFilterSet):
    token_id = KeyFilter(
        param="token.id",
        field_name="token_id",
        parser=parse_query_entity_id_or_num_alias,
        description=f"The token's id, or the EVM address encoding it, {WITH_RANGE_OPERATOR}: one value per "
        "operator kind (equal, lower bound, upper bound).",
    )
    serialnumber = KeyFilter(
        field_name="serial_number",
        parser=parse_positive_long,
        description=f"The serial number, from 1, {WITH_RANGE_OPERATOR}: one value per operator kind. It needs "
        "`token.id`.",
    )
    spender_id = OperatorFilter(
        param="spender.id",
        field_name="spender",
        parser=parse_query_entity_id,
        description=f"The spender's id, {WITH_RANGE_OPERATOR}: several `eq:` values keep any of them, and each "
        "side takes one bound.",
    )

    keyset_params = ("token.id", "serialnumber")
    anchor_codecs = (ID_CODEC, (str, int))
    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT

    def validate(self) -> None:
        super().validate()
        spenders = self.form.cleaned_data.get("spender.id") or ()
        for operators in (LOWER_OPERATORS, UPPER_OPERATORS):
            if sum(c.operator in operators for c in spenders) > 1:
                raise InvalidArgument("Multiple range params not allowed for spender.id")
        reject_not_equal(self, {"spender.id": "Not equals (ne) comparison operator is not supported"})


class TokenAllowanceFilterSet(KeysetFilterSet):
    # An EVM address that encodes no id matches nothing (an empty page), as the upstream answers.
    spender_id = KeyFilter(
        param="spender.id",
        field_name="spender",
        parser=parse_query_entity_id,
        description=f"The spender's id, {WITH_RANGE_OPERATOR}: one value per operator kind (equal, lower bound, "
        "upper bound).",
    )
    token_id = KeyFilter(
        param="token.id",
        field_name="token_id",
        parser=parse_query_entity_id_or_num_alias,
        description=f"The token's id, or the EVM address encoding it, {WITH_RANGE_OPERATOR}: one value per "
        "operator kind. It needs `spender.id`.",
    )

    keyset_params = ("spender.id", "token.id")
    anchor_codecs = (ID_CODEC, ID_CODEC)
    default_order = "asc"
    default_limit = STARTUP_LIMIT_DEFAULT


class TokenRelationshipFilterSet(ListFilterSet):
    token_id = OperatorFilter(
        param="token.id",
        field_name="token_id",
        parser=parse_query_entity_id_or_num_alias,
        description=f"The token's id, or the EVM address encoding it, {WITH_RANGE_OPERATOR}. Several `eq:` "
        "values keep any of them.",
    )

    default_order = "asc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("token_id",)
    pagination = (Anchor("token.id", "token_id", **ID_ANCHOR),)

    def validate(self) -> None:
        super().validate()
        reject_not_equal(self, {"token.id": "Not equal (ne) comparison operator is not supported for token.id"})

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        try:
            return super().criteria(scope=scope)
        except InvalidArgument:
            # The upstream looks the account up before it reads the query: an unknown one is 404 first.
            (account_id,) = scope
            if not account_exists(account_id=account_id):
                raise NotFound() from None
            raise
