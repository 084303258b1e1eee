"""Query parameters of `/balances`, `/accounts` and `/accounts/{idOrAliasOrEvmAddress}`."""

import re

from apps.accounts.models import AccountBalance, Entity
from apps.accounts.selectors import AccountAlias, AccountListFilter, BalanceListFilter, EvmAddress
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import EvmAddressType, decode_base32_alias, parse_entity_id, parse_positive_long, parse_timestamp
from apps.common.filters import Comparison, LastValueFilter, OperatorFilter, equals_only, parse_bool
from apps.common.filtersets import ListFilterSet
from apps.transactions.selectors import TransactionListFilter, transaction_type_id

__all__ = (
    "AccountDetailFilterSet",
    "AccountFilterSet",
    "BalanceFilterSet",
    "parse_account_id",
    "parse_balance_account",
    "parse_public_key",
)

_PUBLIC_KEY = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{66}|[0-9A-Fa-f]{88})$")
# DER header of an ED25519 public key (SubjectPublicKeyInfo); entity.public_key holds the raw key.
_ED25519_DER_PREFIX = "302a300506032b6570032100"
ONLY_ONE_LOOKUP = "Only one EVM address or alias is allowed."
LOOKUP_EQUALS_ONLY = "EVM address or alias only supports equals operator"
HBAR_SUPPLY_TINYBARS = 50_000_000_000 * 100_000_000


def parse_balance_account(text: str) -> int | EvmAddress | AccountAlias:
    """An EVM address without shard and realm (a long-zero one is an id), or a base32 alias."""
    try:
        entity = parse_entity_id(text, evm_address_type=EvmAddressType.NO_SHARD_REALM)
    except ValueError:
        return AccountAlias(decode_base32_alias(text))
    if entity.evm_address is not None:
        return EvmAddress(bytes.fromhex(entity.evm_address))
    return entity.encoded


def parse_public_key(text: str) -> str:
    """A public key as `entity.public_key` holds it: lowercase hex, DER header removed."""
    match = _PUBLIC_KEY.match(text)
    if not match:
        raise ValueError(f"Invalid public key {text!r}")
    key = match.group(1).lower()
    return key.removeprefix(_ED25519_DER_PREFIX) if len(key) == 88 else key


def _parse_operand_text(text: str) -> str:
    """An operand checked later, once the rest of the query is valid."""
    return text


def parse_account_id(text: str) -> int | None:
    """Any spelling of an id, encoded; None for an EVM address that encodes none (it matches nothing)."""
    return parse_entity_id(text).encoded


def _parse_balance_amount(text: str) -> int:
    return parse_positive_long(text, allow_zero=True)


def _parse_account_balance(text: str) -> int:
    """A balance no account can exceed: at most the whole HBAR supply, in tinybars."""
    amount = _parse_balance_amount(text)
    if amount > HBAR_SUPPLY_TINYBARS:
        raise ValueError(f"Balance {text} exceeds the HBAR supply")
    return amount


class BalanceFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="account_id", parser=_parse_operand_text)
    account_balance = OperatorFilter(param="account.balance", field_name="balance", parser=_parse_balance_amount)
    account_publickey = OperatorFilter(
        param="account.publickey", field_name="account_id", parser=parse_public_key, operators={"eq"}
    )
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)

    default_order = "desc"
    messages_in_query_order = True

    class Meta:
        model = AccountBalance
        fields = ()

    def list_filter(self) -> BalanceListFilter:
        """The validated query, for `selectors.balance_list`."""
        self.validate()
        data = self.form.cleaned_data
        return BalanceListFilter(
            accounts=self._accounts(),
            balances=tuple(data.get("account.balance") or ()),
            public_keys=tuple(dict.fromkeys(c.value for c in data.get("account.publickey") or ())),
            timestamps=tuple(data.get("timestamp") or ()),
            limit=self.limit_value,
            order=self.order_value,
        )

    def _accounts(self) -> tuple[Comparison, ...]:
        """`account.id`, read after the other parameters: an id, or one EVM address or
        alias compared with `eq` only; problems are found value by value, in order."""
        comparisons, looked_up = [], 0
        for comparison in dict.fromkeys(self.form.cleaned_data.get("account.id") or ()):
            try:
                value = parse_entity_id(comparison.value, allow_evm_address=False).encoded
            except ValueError:
                try:
                    value = parse_balance_account(comparison.value)
                except ValueError:
                    raise InvalidArgument.for_params("account.id") from None
                looked_up += 1
                if looked_up > 1:
                    raise InvalidArgument.with_detail("account.id", ONLY_ONE_LOOKUP) from None
            if looked_up and comparison.operator != "eq":
                raise InvalidArgument.with_detail("account.id", LOOKUP_EQUALS_ONLY)
            comparisons.append(Comparison(comparison.operator, value))
        return tuple(comparisons)


class AccountFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="id", parser=parse_account_id)
    account_balance = OperatorFilter(param="account.balance", field_name="balance", parser=_parse_account_balance)
    account_publickey = OperatorFilter(param="account.publickey", field_name="public_key", parser=parse_public_key)
    balance = LastValueFilter(parser=equals_only(parse_bool))

    messages_in_query_order = True

    class Meta:
        model = Entity
        fields = ()

    def list_filter(self) -> AccountListFilter:
        """The validated query, for `selectors.account_list`."""
        self.validate()
        data = self.form.cleaned_data
        return AccountListFilter(
            accounts=tuple(data.get("account.id") or ()),
            balances=tuple(data.get("account.balance") or ()),
            public_keys=tuple(dict.fromkeys(data.get("account.publickey") or ())),
            include_balance=self.value("balance", True),
            limit=self.limit_value,
            order=self.order_value,
        )


class AccountDetailFilterSet(ListFilterSet):
    """The account's own state (`timestamp`) and its page of transactions."""

    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)
    transactiontype = OperatorFilter(field_name="type", parser=transaction_type_id, operators={"eq"})
    transactions = LastValueFilter(parser=equals_only(parse_bool))

    default_order = "desc"

    class Meta:
        model = Entity
        fields = ()

    @property
    def timestamps(self) -> tuple[Comparison, ...]:
        return tuple(self.form.cleaned_data.get("timestamp") or ())

    @property
    def include_transactions(self) -> bool:
        return self.value("transactions", True)

    def transaction_filter(self, account_id: int) -> TransactionListFilter:
        """The account's transactions the query asks for, for the transactions selectors."""
        return TransactionListFilter(
            accounts=(Comparison("eq", account_id),),
            timestamps=self.timestamps,
            types=tuple(comparison.value for comparison in self.form.cleaned_data.get("transactiontype") or ()),
            limit=self.limit_value,
            order=self.order_value,
        )
