import pytest

from apps.accounts.tests.factories import (
    create_account_balances,
    create_token_account,
    create_token_balances,
)
from apps.common import clock
from apps.tokens import selectors
from apps.tokens.filtersets import TokenBalanceFilterSet
from apps.tokens.tests.factories import (
    SECOND,
    T,
    create_nft,
    create_nft_history,
    create_token,
    create_token_history,
)
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db

SNAPSHOT = 1566560003 * SECOND


def test_token_queryset_carries_the_entity_key():
    create_token(1001, key=b"\x01")

    assert list(selectors.token_queryset()) == [
        {"admin_key": b"\x01", "decimals": 2, "metadata": None, "name": "Token 1001", "symbol": "SYM1001",
         "token_id": 1001, "type": "FUNGIBLE_COMMON"}
    ]


@pytest.mark.parametrize(
    ("as_of", "symbol", "valid_from"),
    [(None, "NEW", T), (("lte", T), "NEW", T), (("lt", T), "OLD", T - SECOND), (("lte", T - SECOND), "OLD", T - SECOND)],
)
def test_token_info_versions(as_of, symbol, valid_from):
    create_token(1001, symbol="NEW", fees={"fixed_fees": [{"amount": 1}]})
    create_token_history(1001, T - SECOND, T, symbol="OLD")

    info = selectors.token_info(token_id=1001, as_of=as_of)

    assert info["token"]["symbol"] == symbol
    assert info["token"]["valid_from"] == info["entity"]["valid_from"] == info["custom_fee"]["valid_from"] == valid_from
    assert info["custom_fee"]["fixed_fees"] == ([{"amount": 1}] if symbol == "NEW" else None)


def test_token_info_before_the_token_is_none():
    create_token(1001)

    assert selectors.token_info(token_id=1001, as_of=("lt", T)) is None
    assert selectors.token_info(token_id=1002) is None


def test_token_balance_list():
    create_token(1001, decimals=4)
    create_token_account(5, 1001, 50)
    create_token_account(6, 1001, 60)
    create_account_balances(SNAPSHOT, {2: 1})
    create_token_balances(SNAPSHOT - SECOND, 5, {1001: 1})
    create_token_balances(SNAPSHOT, 5, {1001: 2})

    with clock.frozen_at(SNAPSHOT):
        current = selectors.token_balance_list(TokenBalanceFilterSet({"order": ["asc"]}).criteria(scope=(1001,)))
        snapshot = selectors.token_balance_list(
            TokenBalanceFilterSet({"timestamp": ["lte:1566560003"]}).criteria(scope=(1001,))
        )

    assert [(row["account_id"], row["balance"], row["decimals"]) for row in current] == [(5, 50, 4), (6, 60, 4)]
    assert snapshot == [{"account_id": 5, "balance": 2, "consensus_timestamp": SNAPSHOT, "decimals": 4}]


def test_nft_transaction_list_picks_the_nft_transfer():
    create_token(1500, type="NON_FUNGIBLE_UNIQUE")
    create_nft_history(1500, 1, T + 1, T + 2)
    create_nft(1500, 1, since=T + 2)
    create_transaction(T + 1, type=37, nft_transfer=[
        {"token_id": 1500, "serial_number": 2, "receiver_account_id": 9},
        {"token_id": 1500, "serial_number": 1, "receiver_account_id": 8},
    ])
    create_transaction(T + 2, nft_transfer=[{"token_id": 1500, "serial_number": 1, "sender_account_id": 8}])

    rows = selectors.nft_transactions(token_id=1500, serial_number=1, timestamps=(), limit=1, order="asc")

    assert [(row["consensus_timestamp"], row["type"], row["transfer"]) for row in rows] == [
        (T + 1, 37, {"token_id": 1500, "serial_number": 1, "receiver_account_id": 8})
    ]
