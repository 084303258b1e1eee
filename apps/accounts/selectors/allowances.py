"""An account's crypto allowances: `/accounts/{id}/allowances/crypto`."""

from django.db.models import QuerySet

from apps.accounts.models import CryptoAllowance
from apps.common.query.pages import CompiledPages, PageCriteria, narrow

# The columns of an allowance row (the tokens app's token allowances add `token_id`).
ALLOWANCE_COLUMNS = ("amount", "amount_granted", "owner", "spender", "timestamp_range")


def crypto_allowance_list(criteria: PageCriteria) -> list[dict]:
    """A page of the crypto allowances with an amount left that the account of
    `criteria.scope` granted; empty for an unknown account."""
    return _CRYPTO_ALLOWANCES.rows(criteria)


def _crypto_allowance_page(criteria: PageCriteria) -> QuerySet:
    (owner_id,) = criteria.scope
    allowances = CryptoAllowance.objects.filter(owner=owner_id, amount__gt=0)
    return narrow(allowances.values(*ALLOWANCE_COLUMNS), criteria)


_CRYPTO_ALLOWANCES = CompiledPages(_crypto_allowance_page)
