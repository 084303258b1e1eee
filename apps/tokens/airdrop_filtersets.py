"""Query parameters of the Java-served lists under an account: its NFT allowances
(`/accounts/{id}/allowances/nfts`) and its airdrops (`/accounts/{id}/airdrops/outstanding|pending`),
FilterSets of the strict dialect (`apps.common.query.strict`), each declaring its
parameters in the order of the upstream's controller."""


from apps.common.ledger.codecs import format_entity_id
from apps.common.query.filters import (
    LIMIT_DESCRIPTION,
    ORDER_DESCRIPTION,
    WITH_ANY_OPERATOR,
    WITH_RANGE_OPERATOR,
    parse_order,
)
from apps.common.query.filtersets import KeysetFilterSet
from apps.common.query.keyset import JAVA_LENIENT_RULES, JAVA_RULES
from apps.common.query.pages import PageCriteria
from apps.common.query.strict import (
    STRICT,
    RangeFilter,
    ValueFilter,
    parse_java_boolean,
    parse_java_entity_id,
    parse_java_int,
    parse_java_number,
)

__all__ = ("NftAllowanceFilterSet", "OutstandingAirdropFilterSet", "PendingAirdropFilterSet")

ENTITY_ID_CODEC = (format_entity_id, parse_java_entity_id)


def format_serial_number(serial_number: int) -> str | None:
    """A fungible airdrop has serial number 0: nothing to page by."""
    return str(serial_number) if serial_number else None


class NftAllowanceFilterSet(KeysetFilterSet):
    """`owner` (true by default): the path account is the owner and `account.id` the spender;
    false, the other way round."""

    dialect = STRICT
    account_id = RangeFilter(
        param="account.id",
        parser=parse_java_entity_id,
        description="The other account (the spender when `owner` is true, the owner when it is false): its id "
        f"{WITH_RANGE_OPERATOR}, the operator in any case.",
    )
    limit = ValueFilter(parser=parse_java_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)
    owner = ValueFilter(
        parser=parse_java_boolean,
        description="`true` (the default): the allowances the path's account granted; `false`: those granted to it.",
    )
    token_id = RangeFilter(
        param="token.id",
        field_name="token_id",
        parser=parse_java_entity_id,
        description=f"The token's id {WITH_RANGE_OPERATOR}, the operator in any case. It needs `account.id`.",
    )

    keyset_params = ("account.id", "token.id")
    keyset_rules = JAVA_RULES
    anchor_codecs = (ENTITY_ID_CODEC, ENTITY_ID_CODEC)

    def key_column(self, param: str) -> str:
        if param == "account.id":
            return "spender" if self.value("owner", True) else "owner"
        return super().key_column(param)


SERIAL_NUMBER_DESCRIPTION = f"The NFT's serial number {WITH_ANY_OPERATOR}, the operator in any case."
TOKEN_ID_DESCRIPTION = f"The token's id {WITH_ANY_OPERATOR}, the operator in any case."


class AirdropFilterSet(KeysetFilterSet):
    """The airdrops between the path account and the other party (`receiver.id` of the
    outstanding ones, `sender.id` of the pending ones), by token and serial number."""

    dialect = STRICT
    limit = ValueFilter(parser=parse_java_int, description=LIMIT_DESCRIPTION)
    order = ValueFilter(parser=parse_order, description=ORDER_DESCRIPTION)
    serial_number = RangeFilter(
        param="serialnumber",
        field_name="serial_number",
        parser=parse_java_number,
        description=SERIAL_NUMBER_DESCRIPTION,
    )
    token_id = RangeFilter(
        param="token.id", field_name="token_id", parser=parse_java_entity_id, description=TOKEN_ID_DESCRIPTION
    )

    keyset_rules = JAVA_LENIENT_RULES
    anchor_codecs = (ENTITY_ID_CODEC, ENTITY_ID_CODEC, (format_serial_number, int))

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        # The upstream pages by every key its rows carry, both parties' included: their
        # bounds in the order's direction give way to the next page's.
        paged_params = ("receiver.id", "sender.id", "serialnumber", "token.id")
        return super().criteria(scope=scope).replaced(paged_params=paged_params)


class OutstandingAirdropFilterSet(AirdropFilterSet):
    receiver_id = RangeFilter(
        param="receiver.id",
        field_name="receiver_account_id",
        parser=parse_java_entity_id,
        description=f"The receiver's id {WITH_ANY_OPERATOR}, the operator in any case.",
    )

    keyset_params = ("receiver.id", "token.id", "serialnumber")


class PendingAirdropFilterSet(AirdropFilterSet):
    sender_id = RangeFilter(
        param="sender.id",
        field_name="sender_account_id",
        parser=parse_java_entity_id,
        description=f"The sender's id {WITH_ANY_OPERATOR}, the operator in any case.",
    )

    keyset_params = ("sender.id", "token.id", "serialnumber")
