"""The actions of a contract transaction: a page of `/contracts/results/{transactionIdOrHash}/actions`."""

from apps.common.errors import NotFound
from apps.common.query.pages import PageCriteria
from apps.contracts import sql
from apps.contracts.selectors.contract_transactions import (
    ContractTransactionKey,
    contract_transaction_named,
)


def contract_action_list(criteria: PageCriteria) -> list[dict]:
    """A page of the actions of the transaction the scope names (an Ethereum hash, or a
    transaction id's (payer, valid start)), by index; NotFound when there is none."""
    (named,) = criteria.scope
    transaction = contract_transaction_named(named, nonce=0)
    if transaction is None:
        raise NotFound()
    return action_page(transaction, criteria)


def action_page(transaction: ContractTransactionKey, criteria: PageCriteria) -> list[dict]:
    """A page of the actions of one transaction, of its payer, by index."""
    return sql.rows(
        *sql.action_page(
            timestamp=transaction.consensus_timestamp,
            payer=transaction.payer_account_id,
            indexes=criteria["index"],
            order=criteria.order,
            limit=criteria.limit,
        )
    )
