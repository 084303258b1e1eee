import pytest

from apps.common.errors import TooManyParameters, TooManyValues
from apps.common.query.params import parse_query_string


@pytest.mark.parametrize(
    ("query_string", "expected"),
    [
        ("", {}),
        ("limit=2", {"limit": ["2"]}),
        ("LIMIT=2", {"limit": ["2"]}),
        ("Block.Number=1", {"block.number": ["1"]}),
        ("limit=1&Limit=2&LIMIT=3", {"limit": ["1", "2", "3"]}),
        (
            "timestamp=gte:1&limit=2&timestamp=lt:3",
            {"timestamp": ["gte:1", "lt:3"], "limit": ["2"]},
        ),
        ("order=DESC", {"order": ["desc"]}),
        ("ORDER=Asc&order=DESC", {"order": ["asc", "desc"]}),
        ("result=SUCCESS", {"result": ["success"]}),
        ("type=CRYPTOTRANSFER", {"type": ["CRYPTOTRANSFER"]}),
        ("account.id=0.0.ABC", {"account.id": ["0.0.ABC"]}),
        ("limit=", {"limit": [""]}),
        ("limit", {"limit": [""]}),
        ("limit=&limit=2", {"limit": ["", "2"]}),
        ("a[]=1", {"a": ["1"]}),
        ("a[]=1&a=2", {"a": ["1", "2"]}),
        ("a[b]=1", {"a": [None]}),
        ("timestamp[$ne]=0", {"timestamp": [None]}),
        ("order[x]=ASC", {"order": [None]}),
        ("=1", {}),
        ("timestamp=gt%3A1", {"timestamp": ["gt:1"]}),
        ("memo=a+b", {"memo": ["a b"]}),
    ],
)
def test_parse_query_string(query_string, expected):
    assert parse_query_string(query_string) == expected


def test_parse_query_string_keeps_names_in_first_seen_order():
    assert list(parse_query_string("b=1&a=1&B=2&c=1")) == ["b", "a", "c"]


def test_parse_query_string_reads_indexed_name_as_array_element():
    assert parse_query_string("limit[0]=5") == {"limit": ["5"]}


@pytest.mark.parametrize(
    "query_string",
    ["&".join(f"p{number}=1" for number in range(1000)), "limit=1" + "&" * 999],
)
def test_a_thousand_fields_are_read(query_string):
    assert parse_query_string(query_string) is not None


@pytest.mark.parametrize(
    "query_string",
    ["&".join(["a"] * 1001), "&".join(f"p{number}=1" for number in range(1001)), "limit=1" + "&" * 1000],
)
def test_more_than_a_thousand_fields_are_refused(query_string):
    with pytest.raises(TooManyParameters) as raised:
        parse_query_string(query_string)

    assert raised.value.messages == ["Parameter limit exceeded. Only 1000 parameters allowed."]
    assert raised.value.status_code == 400


@pytest.mark.parametrize(
    ("maximum", "message"),
    [
        (8, "Array limit exceeded. Only 8 elements allowed in an array."),
        (1, "Array limit exceeded. Only 1 element allowed in an array."),
    ],
)
def test_a_name_given_more_times_than_allowed_refuses_the_query(settings, maximum, message):
    settings.MIRROR = {**settings.MIRROR, "MAX_REPEATED_QUERY_PARAMETERS": maximum}

    with pytest.raises(TooManyValues) as error:
        parse_query_string("&".join(["foo=1"] + [f"timestamp={n}" for n in range(maximum + 1)]))
    assert error.value.messages == [message]
    assert len(parse_query_string("&".join(f"timestamp={n}" for n in range(maximum)))["timestamp"]) == maximum
