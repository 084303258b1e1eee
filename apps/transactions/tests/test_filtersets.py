import pytest
from django.conf import settings
from django.test import override_settings

from apps.common.errors import InvalidArgument
from apps.common.ledger.codecs import parse_id_or_any_address
from apps.common.query.comparisons import Comparison
from apps.common.query.params import parse_query_string
from apps.transactions.filtersets import (
    TransactionDetailFilterSet,
    TransactionFilterSet,
    parse_bool,
    parse_nonce,
)
from apps.transactions.selectors import TransactionListFilter, transaction_filter


def list_filter(query: str) -> TransactionListFilter:
    return transaction_filter(TransactionFilterSet(parse_query_string(query)).criteria())


def list_messages(query: str) -> list[str]:
    with pytest.raises(InvalidArgument) as error:
        list_filter(query)
    return error.value.messages


def detail_messages(query: str) -> list[str]:
    with pytest.raises(InvalidArgument) as error:
        TransactionDetailFilterSet(parse_query_string(query)).validate()
    return error.value.messages


def test_defaults():
    assert list_filter("") == TransactionListFilter(limit=25, order="desc")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8", 8),
        ("0.8", 8),
        ("0.0.8", 8),
        ("0.1.8", (1 << 38) + 8),
        ("0x0000000000000000000000000000000000000008", 8),
        ("0.0.0000000000000000000000000000000000000008", 8),
        ("0x71eaa748d5252be68c1185588beca495459fdba4", None),
    ],
)
def test_parse_account_id(text, expected):
    assert parse_id_or_any_address(text) == expected


@pytest.mark.parametrize("text", ["", "0.x", "-", "0.0.8.1", "1.2.3.4", "0x123", "0.0.274877906944"])
def test_parse_account_id_rejects(text):
    with pytest.raises(ValueError):
        parse_id_or_any_address(text)


def test_every_parameter_reads():
    criteria = list_filter(
        "account.id=0.0.8&account.id=gt:0.0.2&timestamp=gte:1.5&timestamp=ne:2&transactiontype=CryptoTransfer"
        "&transactiontype=tokenmint&result=FAIL&type=Credit&limit=10&order=ASC"
    )

    assert criteria == TransactionListFilter(
        accounts=(Comparison("eq", 8), Comparison("gt", 2)),
        timestamps=(Comparison("gte", 1_500_000_000), Comparison("ne", 2_000_000_000)),
        types=(14, 37),
        result="fail",
        directions=("credit",),
        limit=10,
        order="asc",
    )


def test_repeated_values():
    assert list_filter("result=fail&result=success").result == "success"
    assert list_filter("result=eq:success").result == "success"
    assert list_filter("type=credit&type=CREDIT&type=debit").directions == ("credit", "debit")
    assert list_filter("limit=3&limit=7").limit == 7


def test_any_operator_on_result_type_and_transactiontype_reads_as_equals():
    # As upstream, which validates the operator and then compares with the value alone.
    criteria = list_filter("result=ne:fail&type=gt:debit&type=ne:debit&transactiontype=lte:tokenmint")
    assert (criteria.result, criteria.directions, criteria.types) == ("fail", ("debit",), (37,))


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_MAX": 4})
def test_limit_is_capped():
    assert list_filter("limit=5").limit == 4


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("timestamp=-1", ["Invalid parameter: timestamp"]),
        ("timestamp=xx:1", ["Invalid parameter: timestamp"]),
        ("account.id=0.x", ["Invalid parameter: account.id"]),
        ("type=good", ["Invalid parameter: type"]),
        ("type=xx:credit", ["Invalid parameter: type"]),
        ("result=best", ["Invalid parameter: result"]),
        ("result=lt:best", ["Invalid parameter: result"]),
        ("result=xx:success", ["Invalid parameter: result"]),
        ("transactionType=invalid", ["Invalid parameter: transactiontype"]),
        ("transactiontype=gt:invalid", ["Invalid parameter: transactiontype"]),
        ("transactiontype=xx:cryptotransfer", ["Invalid parameter: transactiontype"]),
        ("limit=0", ["Invalid parameter: limit"]),
        ("order=up", ["Invalid parameter: order"]),
        ("account.publickey=abc", ["Unknown query parameter: account.publickey"]),
        (
            "timestamp=-1&account.id=0.x&type=good&result=best&transactionType=invalid&account.publickey=3c",
            [
                "Invalid parameter: timestamp",
                "Invalid parameter: account.id",
                "Invalid parameter: type",
                "Invalid parameter: result",
                "Invalid parameter: transactiontype",
                "Unknown query parameter: account.publickey",
            ],
        ),
    ],
)
def test_list_messages(query, messages):
    assert list_messages(query) == messages


@pytest.mark.parametrize(("text", "expected"), [("0", 0), ("1", 1), ("2147483647", 2147483647)])
def test_parse_nonce(text, expected):
    assert parse_nonce(text) == expected


@pytest.mark.parametrize("text", ["-1", "2147483648", "x", "", "1.0"])
def test_parse_nonce_rejects(text):
    with pytest.raises(ValueError):
        parse_nonce(text)


@pytest.mark.parametrize(("text", "expected"), [("true", True), ("TRUE", True), ("false", False), ("False", False)])
def test_parse_bool(text, expected):
    assert parse_bool(text) is expected


def test_detail_parameters_last_value_wins():
    filterset = TransactionDetailFilterSet(parse_query_string("nonce=2&nonce=eq:1&scheduled=true&scheduled=false"))
    filterset.validate()

    assert (filterset.value("nonce"), filterset.value("scheduled")) == (1, False)


def test_detail_messages():
    query = (
        "scheduled=ne:true&scheduled=lte:true&scheduled=lt:true&scheduled=gte:true&scheduled=gt:true"
        "&scheduled=1&scheduled=&nonce=-1&nonce=2147483648&nonce=x&nonce=lt:10&token.id=0.0.45678"
    )
    with override_settings(MIRROR={**settings.MIRROR, "MAX_REPEATED_QUERY_PARAMETERS": 8}):
        messages = detail_messages(query)

    assert messages == [
        *["Invalid parameter: scheduled"] * 7,
        *["Invalid parameter: nonce"] * 4,
        "Unknown query parameter: token.id",
    ]
