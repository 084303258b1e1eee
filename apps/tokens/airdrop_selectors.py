"""The Java-served lists under an account: its approved-for-all NFT allowances and its pending
airdrops. The account is the path's (`criteria.scope`), looked up once the query is valid."""

from apps.accounts.selectors import account_paths
from apps.common.errors import DetailedError
from apps.common.query.pages import PageCriteria, narrow, page_of
from apps.tokens.models import AirdropState, NftAllowance, TokenAirdrop


def nft_allowance_list(criteria: PageCriteria) -> list[dict]:
    """Approved-for-all NFT allowances the account granted (`owner`) or received, ordered by
    the other party and token."""
    own_column = "owner" if criteria.option("owner", True) else "spender"
    allowances = NftAllowance.objects.filter(**{own_column: _account_id(criteria)}, approved_for_all=True).values(
        "approved_for_all", "owner", "spender", "timestamp_range", "token_id"
    )
    return list(page_of(narrow(allowances, criteria), criteria))


def outstanding_airdrop_list(criteria: PageCriteria) -> list[dict]:
    """Pending airdrops the account sent, ordered by receiver, token and serial."""
    return _airdrops(criteria, own_column="sender_account_id")


def pending_airdrop_list(criteria: PageCriteria) -> list[dict]:
    """Pending airdrops the account is to receive, ordered by sender, token and serial."""
    return _airdrops(criteria, own_column="receiver_account_id")


def _airdrops(criteria: PageCriteria, *, own_column: str) -> list[dict]:
    airdrops = TokenAirdrop.objects.filter(**{own_column: _account_id(criteria)}, state=AirdropState.PENDING).values(
        "amount", "receiver_account_id", "sender_account_id", "serial_number", "timestamp_range", "token_id"
    )
    return list(page_of(narrow(airdrops, criteria), criteria))


def _account_id(criteria: PageCriteria) -> int:
    account_id = account_paths.java_account_id(criteria.scope[0])
    if account_id is None:
        raise DetailedError(404, "No account found for the given ID")
    return account_id
