"""Query parameters of `/balances`, `/accounts`, `/accounts/{idOrAliasOrEvmAddress}` and its sub-routes
(`/accounts/{id}/nfts`, ...)."""

import re
from dataclasses import dataclass

from django.conf import settings

from apps.accounts.models import AccountBalance, Entity
from apps.accounts.selectors import AccountAlias, AccountListFilter, BalanceListFilter, EvmAddress
from apps.common.api.exceptions import InvalidArgument
from apps.common.codecs import (
    EvmAddressType,
    decode_base32_alias,
    parse_entity_id,
    parse_id_or_any_address,
    parse_positive_long,
    parse_timestamp,
)
from apps.common.filters import Comparison, LastValueFilter, OperatorFilter, equals_only, operator_ignored, parse_bool
from apps.common.filtersets import ListFilterSet
from apps.common.java import (
    JavaQuery,
    bad_request,
    parse_java_entity_id,
    parse_java_number,
    validate_limit,
    validate_range_count,
)
from apps.common.keyset import (
    JAVA_LENIENT_RULES,
    JAVA_RULES,
    LOWER_OPERATORS,
    UPPER_OPERATORS,
    Bound,
    BoundRules,
    KeyFilter,
    Keyset,
    KeysetError,
    KeysetFilterSet,
)
from apps.common.scoped_pages import ScopedPageFilterSet
from apps.transactions.selectors import TransactionListFilter, transaction_type_id

__all__ = (
    "AccountDetailFilterSet",
    "AccountFilterSet",
    "AccountNftFilterSet",
    "BalanceFilterSet",
    "CryptoAllowanceFilterSet",
    "JavaListRequest",
    "NftAllowanceRequest",
    "StakingRewardFilterSet",
    "TokenAllowanceFilterSet",
    "TokenRelationshipFilterSet",
    "nft_allowance_request",
    "parse_balance_account",
    "parse_entity_id_or_num_alias",
    "parse_public_key",
    "token_airdrop_request",
)

_PUBLIC_KEY = re.compile(r"^(?:0x)?([0-9A-Fa-f]{64}|[0-9A-Fa-f]{66}|[0-9A-Fa-f]{88})$")
# DER header of an ED25519 public key (SubjectPublicKeyInfo); entity.public_key holds the raw key.
_ED25519_DER_PREFIX = "302a300506032b6570032100"
ONLY_ONE_LOOKUP = "Only one EVM address or alias is allowed."
LOOKUP_EQUALS_ONLY = "EVM address or alias only supports equals operator"


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


def _parse_balance_amount(text: str) -> int:
    return parse_positive_long(text, allow_zero=True)


class BalanceFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="account_id", parser=_parse_operand_text)
    account_balance = OperatorFilter(param="account.balance", field_name="balance", parser=_parse_balance_amount)
    account_publickey = OperatorFilter(
        param="account.publickey", field_name="account_id", parser=parse_public_key, operators={"eq"}
    )
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)

    default_order = "desc"
    bare_order_only = True
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


def _parse_balance_flag(text: str) -> bool:
    """`balance`: only `eq` is valid, but upstream includes balances only for a bare
    `true` (any case); `eq:true` reads as false."""
    return equals_only(parse_bool)(text) and ":" not in text


class AccountFilterSet(ListFilterSet):
    account_id = OperatorFilter(param="account.id", field_name="id", parser=parse_id_or_any_address)
    account_balance = OperatorFilter(param="account.balance", field_name="balance", parser=_parse_balance_amount)
    account_publickey = OperatorFilter(param="account.publickey", field_name="public_key", parser=parse_public_key)
    balance = LastValueFilter(parser=_parse_balance_flag)

    bare_order_only = True
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
    transactiontype = LastValueFilter(parser=operator_ignored(transaction_type_id))
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
            types=tuple(self.form.cleaned_data.get("transactiontype") or ()),
            limit=self.limit_value,
            order=self.order_value,
        )

#
# Account sub-routes: /accounts/{id}/nfts, /rewards, /allowances/crypto, /allowances/tokens, /tokens
#


def parse_entity_id_or_num_alias(text: str) -> int:
    """An entity id, or an EVM address that encodes one (long-zero)."""
    return parse_entity_id(text, evm_address_type=EvmAddressType.NUM_ALIAS).encoded


# The upstream's controllers of these routes read the default page size once, at startup.
STARTUP_LIMIT_DEFAULT = settings.MIRROR["LIMIT_DEFAULT"]


def _reject_not_equal(filterset, messages: dict[str, str]) -> None:
    """The upstream answers `ne` on these parameters with its own text, not `Invalid parameter`."""
    for param, message in messages.items():
        if any(c.operator == "ne" for c in filterset.form.cleaned_data.get(param) or ()):
            raise InvalidArgument(message)


class AccountNftFilterSet(ScopedPageFilterSet, KeysetFilterSet):
    token_id = KeyFilter(param="token.id", field_name="token_id", parser=parse_entity_id_or_num_alias)
    serialnumber = KeyFilter(field_name="serial_number", parser=parse_positive_long)
    spender_id = OperatorFilter(param="spender.id", field_name="spender", parser=parse_id_or_any_address)

    keyset_params = ("token.id", "serialnumber")
    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT

    def validate(self) -> None:
        super().validate()
        spenders = self.form.cleaned_data.get("spender.id") or ()
        for operators in (LOWER_OPERATORS, UPPER_OPERATORS):
            if sum(c.operator in operators for c in spenders) > 1:
                raise InvalidArgument("Multiple range params not allowed for spender.id")
        _reject_not_equal(self, {"spender.id": "Not equals (ne) comparison operator is not supported"})


class StakingRewardFilterSet(ScopedPageFilterSet):
    timestamp = OperatorFilter(field_name="consensus_timestamp", parser=parse_timestamp)

    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("consensus_timestamp",)

    def validate(self) -> None:
        super().validate()
        _reject_not_equal(self, {"timestamp": "Not equals (ne) operator is not supported for timestamp"})


class CryptoAllowanceFilterSet(ScopedPageFilterSet):
    spender_id = OperatorFilter(param="spender.id", field_name="spender", parser=parse_id_or_any_address)

    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("spender",)

    def validate(self) -> None:
        super().validate()
        _reject_not_equal(
            self, {"spender.id": "Not equal (ne) comparison operator is not supported for spender.id"}
        )


class TokenAllowanceFilterSet(ScopedPageFilterSet, KeysetFilterSet):
    spender_id = KeyFilter(param="spender.id", field_name="spender", parser=parse_entity_id_or_num_alias)
    token_id = KeyFilter(param="token.id", field_name="token_id", parser=parse_entity_id_or_num_alias)

    keyset_params = ("spender.id", "token.id")
    default_order = "asc"
    default_limit = STARTUP_LIMIT_DEFAULT


class TokenRelationshipFilterSet(ScopedPageFilterSet):
    token_id = OperatorFilter(param="token.id", field_name="token_id", parser=parse_entity_id_or_num_alias)

    default_order = "asc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("token_id",)

    def validate(self) -> None:
        super().validate()
        _reject_not_equal(self, {"token.id": "Not equal (ne) comparison operator is not supported for token.id"})


#
# Java-served account sub-routes: /accounts/{id}/allowances/nfts, /airdrops/outstanding, /airdrops/pending
#


@dataclass(frozen=True, kw_only=True)
class JavaListRequest:
    """A validated query of a Java-served list: its keyset, order and page size."""

    keyset: Keyset
    order: str
    limit: int


@dataclass(frozen=True, kw_only=True)
class NftAllowanceRequest(JavaListRequest):
    # True: the path account is the owner and `account.id` the spender; False: the other way round.
    owner: bool


def nft_allowance_request(query: JavaQuery) -> NftAllowanceRequest:
    accounts = query.ranges("account.id", parse_java_entity_id)
    limit = query.limit_text()
    order = query.order()
    owner = query.boolean("owner", True)
    tokens = query.ranges("token.id", parse_java_entity_id)
    validate_range_count("account.id", query.values("account.id"))
    validate_range_count("token.id", query.values("token.id"))
    keyset = _java_keyset(
        (("account.id", "spender" if owner else "owner", accounts), ("token.id", "token_id", tokens)),
        JAVA_RULES,
    )
    return NftAllowanceRequest(keyset=keyset, order=order, limit=validate_limit(limit), owner=owner)


def token_airdrop_request(query: JavaQuery, *, counterpart_param: str, counterpart_column: str) -> JavaListRequest:
    """`/airdrops/outstanding` (`receiver.id`) or `/airdrops/pending` (`sender.id`)."""
    limit = query.limit_text()
    order = query.order()
    counterparts = query.ranges(counterpart_param, parse_java_entity_id)
    serials = query.ranges("serialnumber", parse_java_number)
    tokens = query.ranges("token.id", parse_java_entity_id)
    for name in (counterpart_param, "serialnumber", "token.id"):
        validate_range_count(name, query.values(name))
    keyset = _java_keyset(
        (
            (counterpart_param, counterpart_column, counterparts),
            ("token.id", "token_id", tokens),
            ("serialnumber", "serial_number", serials),
        ),
        JAVA_LENIENT_RULES,
    )
    return JavaListRequest(keyset=keyset, order=order, limit=validate_limit(limit))


def _java_keyset(columns, rules: BoundRules) -> Keyset:
    try:
        bounds = tuple(
            Bound.of(param, column, comparisons, rules if index == 0 else rules.for_later_columns)
            for index, (param, column, comparisons) in enumerate(columns)
        )
        return Keyset(bounds, rules)
    except KeysetError as error:
        raise bad_request(str(error)) from None
