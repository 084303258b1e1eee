"""An account's staking rewards: `/accounts/{id}/rewards`, 404 for an unknown account."""

from django.db.models import QuerySet

from apps.accounts.models import StakingRewardTransfer
from apps.accounts.selectors.account_paths import (
    entity_exists,
    entity_queryset,
    require_account,
)
from apps.common.errors import NotFound
from apps.common.query.pages import CompiledPages, PageCriteria, narrow


def staking_reward_list(criteria: PageCriteria) -> list[dict]:
    """A page of the rewards paid to the account of `criteria.scope`; NotFound without
    its entity row. A compiled page tells in its own statement whether the account
    exists; any other page that comes back empty looks it up."""
    rows, account_exists = _REWARDS.rows_and_parent(criteria)
    if account_exists is False:
        raise NotFound()
    if not rows and account_exists is None:
        require_account(*criteria.scope)
    return rows


def _reward_page(criteria: PageCriteria) -> QuerySet:
    (account_id,) = criteria.scope
    # None without the account's entity row, whichever way the page is read.
    rewards = StakingRewardTransfer.objects.filter(entity_exists(account_id), account_id=account_id)
    return narrow(rewards.values("account_id", "amount", "consensus_timestamp"), criteria)


_REWARDS = CompiledPages(_reward_page, parent=lambda criteria: entity_queryset(entity_id=criteria.scope[0]))
