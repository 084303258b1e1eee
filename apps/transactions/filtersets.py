"""Query parameters of `/transactions` and `/transactions/{transactionIdOrHash}`."""

from apps.common.codecs import parse_id_or_any_address, parse_timestamp
from apps.common.filters import LastValueFilter, OperatorFilter, equals_only, operator_ignored, parse_bool
from apps.common.filtersets import ListFilterSet, QueryFilterSet
from apps.transactions.models import Transaction
from apps.transactions.selectors import (
    CREDIT,
    DEBIT,
    RESULT_FAIL,
    RESULT_SUCCESS,
    TransactionListFilter,
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
    if not text.isdigit() or int(text) > MAX_INT:
        raise ValueError(f"Invalid nonce {text!r}")
    return int(text)


class TransactionFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="payer_account_id", parser=parse_id_or_any_address)
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)
    transactiontype = LastValueFilter(parser=operator_ignored(transaction_type_id))
    result = LastValueFilter(parser=operator_ignored(parse_result))
    type = LastValueFilter(parser=operator_ignored(parse_credit_debit))

    default_order = "desc"

    class Meta:
        model = Transaction
        fields = ()

    def list_filter(self) -> TransactionListFilter:
        """The validated query, for `selectors.transaction_list`."""
        self.validate()
        data = self.form.cleaned_data
        return TransactionListFilter(
            accounts=tuple(data.get("account.id") or ()),
            timestamps=tuple(data.get("timestamp") or ()),
            types=tuple(data.get("transactiontype") or ()),
            result=self.value("result"),
            directions=tuple(dict.fromkeys(data.get("type") or ())),
            limit=self.limit_value,
            order=self.order_value,
        )


class TransactionDetailFilterSet(QueryFilterSet):
    nonce = LastValueFilter(parser=equals_only(parse_nonce))
    scheduled = LastValueFilter(parser=equals_only(parse_bool))

    class Meta:
        model = Transaction
        fields = ()
