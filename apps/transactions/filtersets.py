"""Query parameters of `/transactions` and `/transactions/{transactionIdOrHash}`."""


from apps.common.ledger.codecs import (
    format_timestamp,
    parse_query_entity_id,
    parse_timestamp,
)
from apps.common.query.filters import (
    WITH_ANY_OPERATOR,
    LastValueFilter,
    OperatorFilter,
    equals_only,
    operator_ignored,
    parse_bool,
)
from apps.common.query.filtersets import ListFilterSet, QueryFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.transactions.selectors import (
    CREDIT,
    DEBIT,
    RESULT_FAIL,
    RESULT_SUCCESS,
    transaction_type_id,
)

__all__ = (
    "TransactionDetailFilterSet",
    "TransactionFilterSet",
    "parse_bool",
    "parse_nonce",
)

MAX_INT = (1 << 31) - 1


def parse_credit_debit(text: str) -> str:
    if text.lower() not in (CREDIT, DEBIT):
        raise ValueError(f"Invalid transfer type {text!r}")
    return text.lower()


def parse_result(text: str) -> str:
    if text not in (RESULT_SUCCESS, RESULT_FAIL):
        raise ValueError(f"Invalid result {text!r}")
    return text


def parse_nonce(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_INT:
        raise ValueError(f"Invalid nonce {text!r}")
    return int(text)


class TransactionFilterSet(ListFilterSet):
    account_id = OperatorFilter(
        param="account.id",
        parser=parse_query_entity_id,
        description="An account that paid for or took part in the transaction: its id (`0.0.1001`, `1001`) or "
        f"the EVM address encoding it, {WITH_ANY_OPERATOR}. Several `eq:` values keep any of them.",
    )
    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description=f"The transaction's consensus timestamp (`seconds.nanos`), {WITH_ANY_OPERATOR}. Repeat it "
        "for a range.",
    )
    transactiontype = LastValueFilter(
        parser=operator_ignored(transaction_type_id),
        description="Only the transactions of this type: a `TransactionTypes` name, in any case. Several "
        "values keep any of them.",
    )
    result = LastValueFilter(
        parser=operator_ignored(parse_result),
        description="`success` or `fail`: only the transactions with that result. The last value counts.",
    )
    type = LastValueFilter(
        parser=operator_ignored(parse_credit_debit),
        description="`credit` or `debit`: only the transactions moving hbars or tokens into (or out of) an "
        "account, the one `account.id` names when it is given.",
    )

    default_order = "desc"
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        """The valid query as `selectors.transaction_list` reads it; `extra` holds every
        `transactiontype` value (`types`) and the distinct `type` values (`directions`),
        where options hold the last."""
        criteria = super().criteria(scope=scope)
        data = self.form.cleaned_data
        types = tuple(data.get("transactiontype") or ())
        directions = tuple(dict.fromkeys(data.get("type") or ()))
        return criteria.replaced(extra={"types": types, "directions": directions})


class TransactionDetailFilterSet(QueryFilterSet):
    nonce = LastValueFilter(
        parser=equals_only(parse_nonce),
        description="Only the transaction with this nonce: 0 for the one its payer sent, from 1 for the child "
        "transactions it caused. `eq:` is the only operator.",
    )
    scheduled = LastValueFilter(
        parser=equals_only(parse_bool),
        description="`true` for the scheduled transaction alone, `false` for the others. `eq:` is the only "
        "operator.",
    )
