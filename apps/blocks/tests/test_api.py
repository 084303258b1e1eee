import pytest
from django.conf import settings
from django.test import Client, override_settings

from apps.blocks.tests.factories import block_hash, create_record_files, record_file

pytestmark = pytest.mark.django_db

T = 1_676_540_001_000_000_000
LIST_CACHE_CONTROL = "public, max-age=1"
DETAIL_CACHE_CONTROL = "public, max-age=600"


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def numbers(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [block["number"] for block in response.json()["blocks"]]


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def blocks():
    """Blocks 10-13, block n ending at T + n microseconds."""
    create_record_files(*(record_file(number, T + number * 1000) for number in range(10, 14)))


def test_list_renders_exact_block_shape(client):
    create_record_files(
        record_file(
            7,
            1_676_540_001_234_600_000,
            name="2022-04-27T12_24_30.768994443Z.rcd",
            consensus_start=1_676_540_001_234_500_001,
            count=5,
            gas_used=-1,
            hapi_version_major=0,
            hapi_version_minor=22,
            hapi_version_patch=3,
            hash="b0" * 48,
            prev_hash="fb" * 48,
            logs_bloom=b"\x01\x02",
            size=None,
            bytes=b"\x00" * 9,
        )
    )

    response = client.get("/api/v1/blocks")

    assert response.status_code == 200
    assert response.json() == {
        "blocks": [
            {
                "count": 5,
                "gas_used": None,
                "hapi_version": "0.22.3",
                "hash": "0x" + "b0" * 48,
                "logs_bloom": "0x" + "0" * 508 + "0102",
                "name": "2022-04-27T12_24_30.768994443Z.rcd",
                "number": 7,
                "previous_hash": "0x" + "fb" * 48,
                "size": 9,
                "timestamp": {"from": "1676540001.234500001", "to": "1676540001.234600000"},
            }
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize(
    ("overrides", "field", "expected"),
    [
        ({"gas_used": -1}, "gas_used", None),
        ({"gas_used": None}, "gas_used", None),
        ({"gas_used": 0}, "gas_used", 0),
        ({"gas_used": 123456789012}, "gas_used", 123456789012),
        ({"hapi_version_major": None}, "hapi_version", None),
        ({"hapi_version_minor": None}, "hapi_version", None),
        ({"hapi_version_patch": None}, "hapi_version", None),
        ({"hapi_version_major": 1, "hapi_version_minor": 0, "hapi_version_patch": 10}, "hapi_version", "1.0.10"),
        ({"logs_bloom": None}, "logs_bloom", None),
        ({"logs_bloom": b""}, "logs_bloom", "0x"),
        ({"logs_bloom": b"\xff" * 256}, "logs_bloom", "0x" + "ff" * 256),
        ({"logs_bloom": b"\x00\xab"}, "logs_bloom", "0x" + "0" * 508 + "00ab"),
        ({"size": 321, "bytes": b"\x00" * 5}, "size", 321),
        ({"size": None, "bytes": b"\x00" * 5}, "size", 5),
        ({"size": None, "bytes": b""}, "size", 0),
        ({"size": None, "bytes": None}, "size", None),
        ({"consensus_start": 0}, "timestamp", {"from": "0.000000000", "to": "1676540001.000000000"}),
        ({"count": 0}, "count", 0),
    ],
)
def test_list_field_rendering(client, overrides, field, expected):
    create_record_files(record_file(1, T, **overrides))

    response = client.get("/api/v1/blocks")

    assert response.json()["blocks"][0][field] == expected


def test_list_of_empty_table(client):
    response = client.get("/api/v1/blocks")

    assert response.status_code == 200
    assert response.json() == {"blocks": [], "links": {"next": None}}
    assert "Link" not in response


def test_list_headers(client, blocks):
    response = client.get("/api/v1/blocks")

    assert response["Cache-Control"] == LIST_CACHE_CONTROL
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Access-Control-Allow-Origin"] == "*"


def test_list_defaults_to_descending_consensus_order(client, blocks):
    assert numbers(client.get("/api/v1/blocks")) == [13, 12, 11, 10]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("block.number=11", [11]),
        ("block.number=eq:11", [11]),
        ("block.number=0xb", [11]),
        ("block.number=eq:0xB", [11]),
        ("block.number=lt:12", [11, 10]),
        ("block.number=lt:0xc", [11, 10]),
        ("block.number=lte:12", [12, 11, 10]),
        ("block.number=gt:11", [13, 12]),
        ("block.number=gte:11", [13, 12, 11]),
        ("block.number=gt:10&block.number=lt:13", [12, 11]),
        ("block.number=gt:10&block.number=gte:12", [13, 12]),
        ("block.number=11&block.number=12", []),
        ("Block.Number=11", [11]),
        ("block.number=99", []),
    ],
)
def test_list_block_number_filter(client, blocks, query, expected):
    assert numbers(client.get(f"/api/v1/blocks?{query}")) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("timestamp=1676540001.000011", [11]),
        ("timestamp=eq:1676540001.000011000", [11]),
        ("timestamp=ne:1676540001.000011", [13, 12, 10]),
        ("timestamp=lt:1676540001.000012", [11, 10]),
        ("timestamp=lte:1676540001.000012", [12, 11, 10]),
        ("timestamp=gt:1676540001.000011", [13, 12]),
        ("timestamp=gte:1676540001.000011", [13, 12, 11]),
        ("timestamp=gt:1676540001.00001&timestamp=lt:1676540001.000013", [12, 11]),
        ("timestamp=1676540001.000011&timestamp=1676540001.000012", []),
        ("timestamp=lt:1676540001", []),
    ],
)
def test_list_timestamp_filter(client, blocks, query, expected):
    assert numbers(client.get(f"/api/v1/blocks?{query}")) == expected


def test_list_block_number_and_timestamp_together(client, blocks):
    response = client.get("/api/v1/blocks?block.number=gt:10&timestamp=lt:1676540001.000013&order=asc&limit=1")

    assert numbers(response) == [11]
    assert response.json()["links"]["next"] == (
        "/api/v1/blocks?timestamp=lt:1676540001.000013&order=asc&limit=1&block.number=gt:11"
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [2, 3, 4, 1]),
        ("order=asc", [1, 4, 3, 2]),
        ("block.number=gte:1", [4, 3, 2, 1]),
        ("block.number=gte:1&order=asc", [1, 2, 3, 4]),
        ("timestamp=gte:1676540001.0000001", [2, 3, 4, 1]),
        ("block.number=gte:1&timestamp=ne:1", [4, 3, 2, 1]),
        ("timestamp=ne:1&block.number=gte:1", [2, 3, 4, 1]),
        ("limit=10&block.number=gte:1", [4, 3, 2, 1]),
    ],
)
def test_list_ordering_column_follows_the_first_filter(client, query, expected):
    create_record_files(
        record_file(1, T + 100),
        record_file(2, T + 400),
        record_file(3, T + 300),
        record_file(4, T + 200),
    )

    assert numbers(client.get(f"/api/v1/blocks?{query}")) == expected


@pytest.mark.parametrize(("query", "expected"), [("order=asc", [10, 11, 12, 13]), ("order=DESC", [13, 12, 11, 10])])
def test_list_order(client, blocks, query, expected):
    assert numbers(client.get(f"/api/v1/blocks?{query}")) == expected


def test_list_pages_descending(client, blocks):
    first = client.get("/api/v1/blocks?limit=2")

    assert numbers(first) == [13, 12]
    assert first.json()["links"] == {"next": "/api/v1/blocks?limit=2&block.number=lt:12"}
    assert first["Link"] == '</api/v1/blocks?limit=2&block.number=lt:12>; rel="next"'

    second = client.get(first.json()["links"]["next"])

    assert numbers(second) == [11, 10]
    assert second.json()["links"] == {"next": "/api/v1/blocks?limit=2&block.number=lt:10"}

    third = client.get(second.json()["links"]["next"])

    assert third.json() == {"blocks": [], "links": {"next": None}}
    assert "Link" not in third


def test_list_pages_ascending(client, blocks):
    first = client.get("/api/v1/blocks?order=asc&limit=3")

    assert numbers(first) == [10, 11, 12]
    assert first.json()["links"] == {"next": "/api/v1/blocks?order=asc&limit=3&block.number=gt:12"}
    assert first["Link"] == '</api/v1/blocks?order=asc&limit=3&block.number=gt:12>; rel="next"'

    second = client.get(first.json()["links"]["next"])

    assert numbers(second) == [13]
    assert second.json()["links"] == {"next": None}
    assert "Link" not in second


def test_list_next_link_keeps_the_opposite_bound(client, blocks):
    response = client.get("/api/v1/blocks?block.number=gt:10&block.number=lt:13&limit=1")

    assert numbers(response) == [12]
    assert response.json()["links"]["next"] == "/api/v1/blocks?block.number=gt:10&block.number=lt:12&limit=1"


def test_list_next_link_is_none_when_the_range_is_exhausted(client, blocks):
    response = client.get("/api/v1/blocks?block.number=gt:11&block.number=lte:12&order=asc&limit=1")

    assert numbers(response) == [12]
    assert response.json()["links"]["next"] is None
    assert "Link" not in response


def test_list_next_link_after_timestamp_filter_uses_block_number(client, blocks):
    response = client.get("/api/v1/blocks?timestamp=gte:1676540001.000011&limit=2")

    assert numbers(response) == [13, 12]
    assert response.json()["links"]["next"] == (
        "/api/v1/blocks?timestamp=gte:1676540001.000011&limit=2&block.number=lt:12"
    )


def test_list_next_link_keeps_lower_cased_names_and_values_as_sent(client, blocks):
    response = client.get("/api/v1/blocks?LIMIT=1&Order=ASC&block.number=gte:0xa")

    assert numbers(response) == [10]
    assert response.json()["links"]["next"] == "/api/v1/blocks?limit=1&order=asc&block.number=gt:10"


def test_list_limit_last_value_wins(client, blocks):
    assert numbers(client.get("/api/v1/blocks?limit=3&limit=1")) == [13]


def test_list_limit_above_maximum_is_capped(client, blocks):
    with override_settings(MIRROR={**settings.MIRROR, "LIMIT_MAX": 2}):
        response = client.get("/api/v1/blocks?limit=3")

    assert numbers(response) == [13, 12]
    assert response.json()["links"]["next"] == "/api/v1/blocks?limit=3&block.number=lt:12"


def test_list_default_limit(client, blocks):
    with override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 3}):
        response = client.get("/api/v1/blocks")

    assert numbers(response) == [13, 12, 11]
    assert response.json()["links"]["next"] == "/api/v1/blocks?block.number=lt:11"


def test_list_trailing_slash(client, blocks):
    response = client.get("/api/v1/blocks/?limit=1")

    assert numbers(response) == [13]
    assert response.json()["links"]["next"] == "/api/v1/blocks?limit=1&block.number=lt:13"


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("block.number=ne:11", ["Invalid parameter: block.number"]),
        ("block.number=abc", ["Invalid parameter: block.number"]),
        ("block.number=-1", ["Invalid parameter: block.number"]),
        ("block.number=gt:invalidnumber", ["Invalid parameter: block.number"]),
        ("block.number=0x", ["Invalid parameter: block.number"]),
        ("block.number=9223372036854775808", ["Invalid parameter: block.number"]),
        ("block.number=", ["Invalid parameter: block.number"]),
        ("block.number=gt:1:2", ["Invalid parameter: block.number"]),
        ("block.number[gt]=1", ["Invalid parameter: block.number"]),
        ("timestamp=invalidtimestamp", ["Invalid parameter: timestamp"]),
        ("timestamp=gt:1.0000000001", ["Invalid parameter: timestamp"]),
        ("timestamp=le:1", ["Invalid parameter: timestamp"]),
        ("timestamp=-1", ["Invalid parameter: timestamp"]),
        ("limit=0", ["Invalid parameter: limit"]),
        ("limit=-1", ["Invalid parameter: limit"]),
        ("limit=invalidlimit", ["Invalid parameter: limit"]),
        ("limit=", ["Invalid parameter: limit"]),
        ("order=any", ["Invalid parameter: order"]),
        ("index=2", ["Unknown query parameter: index"]),
        ("block_number=2", ["Unknown query parameter: block_number"]),
        ("limit=x&limit=y", ["Invalid parameter: limit", "Invalid parameter: limit"]),
        (
            "block.number=gt:invalidnumber&timestamp=invalidtimestamp&order=any&limit=invalidlimit&index=2",
            [
                "Invalid parameter: block.number",
                "Invalid parameter: timestamp",
                "Invalid parameter: order",
                "Invalid parameter: limit",
                "Unknown query parameter: index",
            ],
        ),
        (
            "index=2&limit=0&block.number=x",
            ["Invalid parameter: limit", "Invalid parameter: block.number", "Unknown query parameter: index"],
        ),
    ],
)
def test_list_bad_query(client, blocks, query, messages):
    response = client.get(f"/api/v1/blocks?{query}")

    assert response.status_code == 400
    assert response.json() == envelope(*messages)
    assert "Cache-Control" not in response


def test_list_too_many_repeats(client, blocks):
    query = "&".join(f"block.number=gt:{n}" for n in range(9))

    with override_settings(MIRROR={**settings.MIRROR, "MAX_REPEATED_QUERY_PARAMETERS": 8}):
        response = client.get(f"/api/v1/blocks?{query}&foo=1&limit=0")

    # The upstream's query parser refuses the query whole, before any parameter is validated.
    assert response.status_code == 400
    assert response.json() == envelope("Array limit exceeded. Only 8 elements allowed in an array.")


@pytest.fixture
def block_17():
    create_record_files(
        record_file(16, T + 16_000),
        record_file(17, T + 17_000, hash=block_hash(17), count=5),
        record_file(18, T + 18_000),
    )
    return block_hash(17)


def expected_block_17() -> dict:
    return {
        "count": 5,
        "gas_used": 0,
        "hapi_version": "0.22.3",
        "hash": "0x" + block_hash(17),
        "logs_bloom": "0x",
        "name": "2022-04-27T12_00_17.000000000Z.rcd",
        "number": 17,
        "previous_hash": "0x" + block_hash(16),
        "size": 1000,
        "timestamp": {"from": "1676540001.000016990", "to": "1676540001.000017000"},
    }


@pytest.mark.parametrize(
    "path_for",
    [
        lambda hash: "17",
        lambda hash: hash,
        lambda hash: "0x" + hash,
        lambda hash: hash.upper(),
        lambda hash: "0x" + hash.upper(),
        lambda hash: hash[:64],
        lambda hash: "0x" + hash[:64],
        lambda hash: hash[:64].upper(),
    ],
    ids=["number", "96-hex", "96-hex-0x", "96-hex-upper", "96-hex-0x-upper", "64-hex", "64-hex-0x", "64-hex-upper"],
)
def test_detail(client, block_17, path_for):
    response = client.get(f"/api/v1/blocks/{path_for(block_17)}")

    assert response.status_code == 200
    assert response.json() == expected_block_17()
    assert response["Cache-Control"] == DETAIL_CACHE_CONTROL
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert "Link" not in response


def test_detail_trailing_slash(client, block_17):
    response = client.get("/api/v1/blocks/17/")

    assert response.status_code == 200
    assert response.json() == expected_block_17()


@pytest.mark.parametrize(
    "hash_or_number",
    [
        "b0162e8a244dc05fbd6f3",
        "0xb0162e8a244dc05fbd6f3",
        "ff90773193892540084e62086df3953d2362061",
        "invalidnumber",
        "1test",
        "-1",
        "1.5",
        "9223372036854775808",
        "0x" + "a" * 63,
        "a" * 65,
        "a" * 97,
        "0X" + "a" * 64,
        "0x11",
    ],
)
def test_detail_malformed_hash_or_number(client, block_17, hash_or_number):
    response = client.get(f"/api/v1/blocks/{hash_or_number}")

    assert response.status_code == 400
    assert response.json() == envelope("Invalid parameter: hashOrNumber")
    assert "Cache-Control" not in response


@pytest.mark.parametrize("hash_or_number", ["10", "0", "a" * 96, "0x" + "a" * 64, "9223372036854775807"])
def test_detail_not_found(client, block_17, hash_or_number):
    response = client.get(f"/api/v1/blocks/{hash_or_number}")

    assert response.status_code == 404
    assert response.json() == envelope("Not found")
    assert "Cache-Control" not in response


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        ("block.number=17", ["Unknown query parameter: block.number"]),
        ("limit=1", ["Unknown query parameter: limit"]),
        ("order=asc&Foo=1", ["Unknown query parameter: order", "Unknown query parameter: foo"]),
    ],
)
def test_detail_rejects_any_query_parameter(client, block_17, query, messages):
    response = client.get(f"/api/v1/blocks/17?{query}")

    assert response.status_code == 400
    assert response.json() == envelope(*messages)


def test_detail_checks_query_before_path(client, block_17):
    response = client.get("/api/v1/blocks/invalidnumber?block.number=9900000000000001")

    assert (response.status_code, response.json()) == (400, envelope("Unknown query parameter: block.number"))
