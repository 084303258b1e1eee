import pytest

from apps.accounts.filtersets import (
    BalanceFilterSet,
    parse_balance_account,
    parse_public_key,
)
from apps.accounts.selectors.account_paths import AccountAlias, EvmAddress
from apps.common.errors import InvalidArgument
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria
from apps.common.query.params import parse_query_string

ED25519 = "3c3d546321ff6f63d701d2ec5c277095874e19f4a235bee1e6bb19258bf362be"
ADDRESS = "71eaa748d5252be68c1185588beca495459fdba4"


def criteria_of(query: str) -> PageCriteria:
    return BalanceFilterSet(parse_query_string(query)).criteria()


def read(criteria: PageCriteria) -> dict:
    """What `selectors.balances.balance_list` reads of the criteria."""
    return {
        "accounts": criteria["account.id"],
        "balances": criteria["account.balance"],
        "public_keys": criteria["account.publickey"],
        "timestamps": criteria["timestamp"],
        "limit": criteria.limit,
        "order": criteria.order,
    }


def messages_of(query: str) -> list[str]:
    with pytest.raises(InvalidArgument) as error:
        criteria_of(query)
    return error.value.messages


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", 5),
        ("0.5", 5),
        ("0.0.5", 5),
        ("0.1.5", (1 << 38) + 5),
        ("0x0000000000000000000000000000000000000005", 5),
        ("0000000000000000000000000000000000000005", 5),
        ("0x" + ADDRESS, EvmAddress(bytes.fromhex(ADDRESS))),
        ("AEBAG", AccountAlias(b"\x01\x02\x03")),
    ],
)
def test_parse_balance_account(text, expected):
    assert parse_balance_account(text) == expected


@pytest.mark.parametrize("text", ["", "0.x", "abc", "0.0.AEBAG", "0.0.0x" + ADDRESS, "A1"])
def test_parse_balance_account_rejects(text):
    with pytest.raises(ValueError):
        parse_balance_account(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (ED25519, ED25519),
        ("0x" + ED25519.upper(), ED25519),
        ("02" + ED25519, "02" + ED25519),
        ("302a300506032b6570032100" + ED25519, ED25519),
    ],
)
def test_parse_public_key(text, expected):
    assert parse_public_key(text) == expected


@pytest.mark.parametrize("text", ["", "abc", ED25519[:-1], ED25519 + "0", "zz" * 32])
def test_parse_public_key_rejects(text):
    with pytest.raises(ValueError):
        parse_public_key(text)


def test_every_parameter_reads():
    criteria = criteria_of(
        f"account.id=gte:0.0.18&account.id=lt:0.0.20&account.balance=gt:45&account.publicKey={ED25519}"
        "&timestamp=1566560003.000000000&order=asc&limit=3"
    )

    assert read(criteria) == {
        "accounts": (Comparison("gte", 18), Comparison("lt", 20)),
        "balances": (Comparison("gt", 45),),
        "public_keys": (Comparison("eq", ED25519),),
        "timestamps": (Comparison("eq", 1566560003000000000),),
        "limit": 3,
        "order": "asc",
    }


def test_defaults():
    assert read(criteria_of("")) == {
        "accounts": (),
        "balances": (),
        "public_keys": (),
        "timestamps": (),
        "limit": 25,
        "order": "desc",
    }


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("consensus=hashgraph", ["Unknown query parameter: consensus"]),
        ("account.id=0.x", ["Invalid parameter: account.id"]),
        ("account.balance=-1", ["Invalid parameter: account.balance"]),
        ("account.balance=x", ["Invalid parameter: account.balance"]),
        ("account.publickey=abc", ["Invalid parameter: account.publickey"]),
        ("timestamp=abc", ["Invalid parameter: timestamp"]),
        ("limit=0", ["Invalid parameter: limit"]),
        ("order=x", ["Invalid parameter: order"]),
    ],
)
def test_messages(query, messages):
    assert messages_of(query) == messages


ONLY_ONE = {"message": "Invalid parameter: account.id", "detail": "Only one EVM address or alias is allowed."}
EQUALS_ONLY = {"message": "Invalid parameter: account.id", "detail": "EVM address or alias only supports equals operator"}


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        (f"account.id=AEBAG&account.id=0x{ADDRESS}", [ONLY_ONE]),
        (f"account.id={ADDRESS}&account.id=0x0000000000000000000000000000000000000009", [ONLY_ONE]),
        (f"account.id=gt:0x{ADDRESS}", [EQUALS_ONLY]),
        ("account.id=lte:AEBAG", [EQUALS_ONLY]),
        # A long-zero address names an id, yet is still an address.
        ("account.id=gte:0x0000000000000000000000000000000000000008", [EQUALS_ONLY]),
        # After an address, no other account.id may bound a range.
        (f"account.id={ADDRESS}&account.id=gt:0.0.5", [EQUALS_ONLY]),
        ("account.id=0.0.AEBAG", ["Invalid parameter: account.id"]),
        (f"account.id=0.0.{ADDRESS}", ["Invalid parameter: account.id"]),
        # account.id is read once the other parameters are valid, and alone.
        ("account.id=0.x&order=x&account.balance=-1", ["Invalid parameter: order", "Invalid parameter: account.balance"]),
        ("account.id=0.x&account.id=AEBAG&account.id=AEBAG&limit=2", ["Invalid parameter: account.id"]),
    ],
)
def test_evm_address_and_alias_rules(query, messages):
    assert messages_of(query) == messages


def test_evm_address_or_alias_after_a_range_and_repeated():
    criteria = criteria_of(f"account.id=gt:0.0.5&account.id=0x{ADDRESS}&account.id=0x{ADDRESS}")

    assert criteria["account.id"] == (Comparison("gt", 5), Comparison("eq", EvmAddress(bytes.fromhex(ADDRESS))))


def test_messages_follow_the_query_order():
    assert messages_of("order=x&consensus=1&limit=0") == [
        "Invalid parameter: order",
        "Unknown query parameter: consensus",
        "Invalid parameter: limit",
    ]
