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


class BalanceViewSet(MirrorViewSet):
    filterset_class = BalanceFilterSet
    selector = balances.balance_list
    serializer_class = BalanceSerializer
    results_key = "balances"

    def list_envelope(self, rows):
        return newest_timestamp_envelope(rows)


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


class StakingRewardViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = StakingRewardFilterSet
    selector = rewards.staking_reward_list
    serializer_class = StakingRewardSerializer
    results_key = "rewards"
    cache_control = {"list": "public, max-age=60"}


class CryptoAllowanceViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = CryptoAllowanceFilterSet
    selector = allowances.crypto_allowance_list
    serializer_class = CryptoAllowanceSerializer
    results_key = "allowances"
