from django.conf import settings
from drf_spectacular.utils import extend_schema

from apps.accounts.api.serializers import (
    AccountSerializer,
    BalanceSerializer,
    CryptoAllowanceSerializer,
    StakingRewardSerializer,
)
from apps.accounts.filtersets import (
    AccountDetailFilterSet,
    AccountFilterSet,
    BalanceFilterSet,
    CryptoAllowanceFilterSet,
    StakingRewardFilterSet,
)
from apps.accounts.selectors import accounts, allowances, balances, rewards
from apps.accounts.selectors.account_paths import account_id_from_path
from apps.common.api.views import MirrorViewSet, newest_timestamp_envelope, represent
from apps.common.query.pagination import page_link
from apps.transactions.api.serializers import TransactionSerializer

__all__ = (
    "AccountPathMixin",
    "AccountViewSet",
    "BalanceViewSet",
    "CryptoAllowanceViewSet",
    "StakingRewardViewSet",
)


# Token balances shown with each account of a list, and with one account.
TOKENS_PER_LISTED_ACCOUNT = settings.MIRROR["TOKEN_BALANCE_LIMIT_MULTIPLE_ACCOUNTS"]
TOKENS_PER_ACCOUNT = settings.MIRROR["TOKEN_BALANCE_LIMIT_SINGLE_ACCOUNT"]


@extend_schema(
    summary="List account balances",
    description="Each account's hbar balance, in tinybars, with up to "
    f"{TOKENS_PER_LISTED_ACCOUNT} of its token balances (by token id): as they are now or, with `timestamp`, "
    "as recorded by the newest balance snapshot in that range. The answer's `timestamp` is when the newest "
    "balance on the page was recorded. The accounts come in order of account id.",
)
class BalanceViewSet(MirrorViewSet):
    filterset_class = BalanceFilterSet
    selector = balances.balance_list
    serializer_class = BalanceSerializer
    results_key = "balances"

    def list_envelope(self, rows):
        return newest_timestamp_envelope(rows)


@extend_schema(
    summary="List accounts",
    description="Accounts and contracts, each with its keys, memo, alias, EVM address, expiry and staking, and "
    f"(unless `balance=false`) its hbar balance with up to {TOKENS_PER_LISTED_ACCOUNT} of its token balances. "
    "They come in order of account id.",
)
class AccountViewSet(MirrorViewSet):
    filterset_class = AccountFilterSet
    selector = accounts.account_list
    detail_filterset_class = AccountDetailFilterSet
    serializer_class = AccountSerializer
    results_key = "accounts"
    list_cache = True
    cache_control = {"list": "public, max-age=10", "retrieve": "public, max-age=2"}
    lookup_url_kwarg = "id_or_alias_or_evm_address"
    lookup_value_regex = "[^/]+"

    @extend_schema(
        summary="Get an account",
        description="One account, as it is now or as it was at `timestamp`, with its hbar balance and up to "
        f"{TOKENS_PER_ACCOUNT} token balances, and a page of the transactions it took part in, in order of "
        "consensus timestamp (`transactions=false` leaves them out, `transactiontype` keeps some types): "
        "`limit`, `order` and `links.next` page through those transactions. An account that does not exist "
        "answers 404.",
    )
    def retrieve(self, request, id_or_alias_or_evm_address):
        filterset = self.query_filterset(self.detail_filterset_class)
        filterset.validate()  # the query's problems come before the path's
        criteria = filterset.criteria(scope=(account_id_from_path(id_or_alias_or_evm_address),))
        account, transactions = accounts.account_detail(criteria)
        return self.answer(
            {
                **self.represent_one(account),
                "transactions": represent(TransactionSerializer(), transactions),
                "links": {"next": page_link(request.path, criteria, transactions)},
            }
        )


class AccountPathMixin:
    """Lists under `/accounts/{idOrAliasOrEvmAddress}/`: the account is the page's scope."""

    def scope(self) -> tuple[int]:
        return (account_id_from_path(self.kwargs["id"]),)


@extend_schema(
    summary="List an account's staking rewards",
    description="The staking rewards paid to the account: each its amount in tinybars and the consensus "
    "timestamp of the transaction paying it, in order of that timestamp. An account that does not exist "
    "answers 404.",
)
class StakingRewardViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = StakingRewardFilterSet
    selector = rewards.staking_reward_list
    serializer_class = StakingRewardSerializer
    results_key = "rewards"
    cache_control = {"list": "public, max-age=60"}


@extend_schema(
    summary="List an account's hbar allowances",
    description="The hbar allowances the account granted that have an amount left: for each spender, the "
    "amount granted and the amount remaining, in tinybars, and since when. They come in order of spender id.",
)
class CryptoAllowanceViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = CryptoAllowanceFilterSet
    selector = allowances.crypto_allowance_list
    serializer_class = CryptoAllowanceSerializer
    results_key = "allowances"
