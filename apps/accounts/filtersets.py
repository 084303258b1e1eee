"""Query parameters of `/balances`, `/accounts`, `/accounts/{idOrAliasOrEvmAddress}` and the lists
under it (`/accounts/{id}/rewards`, `/allowances/crypto`; the tokens app's build on the helpers here)."""

import re

from django.conf import settings

from apps.accounts.selectors.account_paths import (
    AccountAlias,
    EvmAddress,
    require_account,
)
from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import (
    EvmAddressType,
    OutOfRangeEntityId,
    decode_base32_alias,
    decode_entity_id,
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    parse_id_or_any_address,
    parse_positive_long,
    parse_query_entity_id,
    parse_timestamp,
)
from apps.common.query.comparisons import Comparison
from apps.common.query.filters import (
    WITH_ANY_OPERATOR,
    WITH_RANGE_OPERATOR,
    LastValueFilter,
    OperatorFilter,
    equals_only,
    operator_ignored,
    parse_bool,
)
from apps.common.query.filtersets import ListFilterSet
from apps.common.query.pages import PageCriteria
from apps.common.query.pagination import Anchor
from apps.transactions.selectors import transaction_type_id

__all__ = (
    "ID_ANCHOR",
    "ID_CODEC",
    "STARTUP_LIMIT_DEFAULT",
    "AccountDetailFilterSet",
    "AccountFilterSet",
    "BalanceFilterSet",
    "CryptoAllowanceFilterSet",
    "StakingRewardFilterSet",
    "parse_balance_account",
    "parse_entity_id_or_num_alias",
    "parse_public_key",
    "reject_not_equal",
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


def _format_account(encoded: int) -> str:
    return str(decode_entity_id(encoded))


def _parse_account(text: str) -> int:
    return parse_entity_id(text, allow_evm_address=False).encoded


PUBLIC_KEY_TEXT = "hex of 64, 66 or 88 digits, optionally after `0x` (an ED25519 key in DER is read as its raw key)"
SNAPSHOT_TIMESTAMP = (
    f"The balance snapshot to read: the newest at a consensus timestamp (`seconds.nanos`) {WITH_ANY_OPERATOR} "
    "(`eq:` reads as `lte:`). Without it, the balances as they are now."
)


class BalanceFilterSet(ListFilterSet):
    """`/balances`: every parameter is read by `selectors.balances.balance_list`."""

    account_id = OperatorFilter(
        param="account.id",
        parser=_parse_operand_text,
        description=f"The account's id {WITH_ANY_OPERATOR}; or its EVM address or base32 alias, without shard and "
        "realm, after `eq:` or none, once in a query.",
    )
    account_balance = OperatorFilter(
        param="account.balance",
        parser=_parse_balance_amount,
        description=f"The account's hbar balance in tinybars, {WITH_ANY_OPERATOR}.",
    )
    account_publickey = OperatorFilter(
        param="account.publickey",
        parser=parse_public_key,
        description=f"The public key the account must have: {PUBLIC_KEY_TEXT}.",
    )
    timestamp = OperatorFilter(parser=parse_timestamp, description=SNAPSHOT_TIMESTAMP)

    default_order = "desc"
    bare_order_only = True
    messages_in_query_order = True
    pagination = (Anchor("account.id", "account_id", format=_format_account, parse=_parse_account),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        return criteria.replaced(comparisons={**criteria.comparisons, "account.id": self._accounts()})

    def _accounts(self) -> tuple[Comparison, ...]:
        """`account.id`, read after the other parameters: an id, or one EVM address or
        alias compared with `eq` only; problems are found value by value, in order."""
        comparisons, looked_up = [], 0
        for comparison in dict.fromkeys(self.form.cleaned_data.get("account.id") or ()):
            try:
                value = parse_query_entity_id(comparison.value, allow_evm_address=False)
                if isinstance(value, OutOfRangeEntityId):
                    raise InvalidArgument(value.message)
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
    """`/accounts`: repeated `account.balance` and `account.publickey` values are all required."""

    account_id = OperatorFilter(
        param="account.id",
        field_name="id",
        parser=parse_query_entity_id,
        description=f"The account's id (`0.0.1001`, `1001`) or EVM address, {WITH_ANY_OPERATOR}. Several `eq:` "
        "values keep any of them.",
    )
    account_balance = OperatorFilter(
        param="account.balance",
        field_name="balance",
        parser=_parse_balance_amount,
        merge_equals=False,
        description=f"The account's hbar balance in tinybars, {WITH_ANY_OPERATOR}. Each value is one more condition.",
    )
    account_publickey = OperatorFilter(
        param="account.publickey",
        field_name="public_key",
        parser=parse_public_key,
        merge_equals=False,
        description=f"The public key the account must have: {PUBLIC_KEY_TEXT}.",
    )
    balance = LastValueFilter(
        parser=_parse_balance_flag,
        description="`true` (the default) or `false`: whether each account shows its hbar and token balances. "
        "`eq:` is the only operator, and `eq:true` reads as `false`.",
    )

    bare_order_only = True
    messages_in_query_order = True
    ordering_fields = ("id",)
    # The query may bound account.id with an EVM address too.
    pagination = (Anchor("account.id", "id", format=_format_account, parse=parse_id_or_any_address),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        if criteria.option("balance", True):
            return criteria
        # Without balances, the upstream leaves `account.balance` out of the query too.
        return criteria.replaced(
            comparisons={param: c for param, c in criteria.comparisons.items() if param != "account.balance"},
            columns={param: c for param, c in criteria.columns.items() if param != "account.balance"},
        )


class AccountDetailFilterSet(ListFilterSet):
    """The account's own state (`timestamp`) and its page of transactions."""

    timestamp = OperatorFilter(
        parser=parse_timestamp,
        description=f"The moment to show the account at, a consensus timestamp (`seconds.nanos`) {WITH_ANY_OPERATOR} "
        "(`eq:` reads as at or before it); it bounds its page of transactions too.",
    )
    transactiontype = LastValueFilter(
        parser=operator_ignored(transaction_type_id),
        description="Only the transactions of this type: a `TransactionTypes` name, in any case. Several values "
        "keep any of them.",
    )
    transactions = LastValueFilter(
        parser=equals_only(parse_bool),
        description="`true` (the default) or `false`: whether the answer lists the account's transactions. "
        "`eq:` is the only operator.",
    )

    default_order = "desc"
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        criteria = super().criteria(scope=scope)
        # Every `transactiontype` value counts, as on `/transactions`.
        types = tuple(self.form.cleaned_data.get("transactiontype") or ())
        return criteria.replaced(extra={**criteria.extra, "transaction_types": types})


# Lists under an account: /accounts/{id}/rewards and /allowances/crypto (and the tokens app's)


def parse_entity_id_or_num_alias(text: str) -> int:
    """An entity id, or an EVM address that encodes one (long-zero)."""
    return parse_entity_id(text, evm_address_type=EvmAddressType.NUM_ALIAS).encoded


# How the lists under an account write and read an entity id in `links.next`.
ID_CODEC = (format_entity_id, parse_entity_id_or_num_alias)
ID_ANCHOR = {"format": format_entity_id, "parse": parse_entity_id_or_num_alias}

# The upstream's controllers of these routes read the default page size once, at startup.
STARTUP_LIMIT_DEFAULT = settings.MIRROR["LIMIT_DEFAULT"]


def reject_not_equal(filterset, messages: dict[str, str]) -> None:
    """The upstream answers `ne` on these parameters with its own text, not `Invalid parameter`."""
    for param, message in messages.items():
        if any(c.operator == "ne" for c in filterset.form.cleaned_data.get(param) or ()):
            raise InvalidArgument(message)


class StakingRewardFilterSet(ListFilterSet):
    timestamp = OperatorFilter(
        field_name="consensus_timestamp",
        parser=parse_timestamp,
        description=f"The consensus timestamp (`seconds.nanos`) of the reward's payment, {WITH_RANGE_OPERATOR}. "
        "Each value is one more condition.",
    )

    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("consensus_timestamp",)
    pagination = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)

    def validate(self) -> None:
        super().validate()
        reject_not_equal(self, {"timestamp": "Not equals (ne) operator is not supported for timestamp"})

    def criteria(self, *, scope: tuple = ()) -> PageCriteria:
        try:
            return super().criteria(scope=scope)
        except InvalidArgument:
            # An unknown account is not found before its query is checked.
            require_account(*scope)
            raise


class CryptoAllowanceFilterSet(ListFilterSet):
    spender_id = OperatorFilter(
        param="spender.id",
        field_name="spender",
        parser=parse_query_entity_id,
        description=f"The spender's id, {WITH_RANGE_OPERATOR}. Several `eq:` values keep any of them.",
    )

    default_order = "desc"
    default_limit = STARTUP_LIMIT_DEFAULT
    ordering_fields = ("spender",)
    pagination = (Anchor("spender.id", "spender", **ID_ANCHOR),)

    def validate(self) -> None:
        super().validate()
        reject_not_equal(
            self, {"spender.id": "Not equal (ne) comparison operator is not supported for spender.id"}
        )
