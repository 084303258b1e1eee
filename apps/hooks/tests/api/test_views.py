"""`/accounts/{id}/hooks` and `/accounts/{id}/hooks/{hookId}/storage`, served upstream by its Java
service (`HooksController`): answers, each parameter and operator, paging, errors."""

import pytest

from apps.accounts.tests.factories import create_entity
from apps.hooks.tests.factories import (
    T,
    create_change,
    create_hook,
    create_slot,
    key,
    key_hex,
)

pytestmark = pytest.mark.django_db

ALIAS = "AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQ"  # base32 of 32 bytes of 0x01
EVM_ADDRESS = "ab" * 20
MAX_LONG = (1 << 63) - 1


def details(response) -> list[tuple[str, str]]:
    return [(message["message"], message["detail"]) for message in response.json()["_status"]["messages"]]


def bad_request(client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 400, (url, response.content)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return [detail for message, detail in details(response) if message == "Bad Request"]


# --- /accounts/{id}/hooks -------------------------------------------------------------------
HOOKS = "/api/v1/accounts/0.0.1001/hooks"


@pytest.fixture
def hooks():
    create_entity(1001, alias=b"\x01" * 32, evm_address=bytes.fromhex(EVM_ADDRESS))
    for hook_id in (10, 20, 30, 40):
        create_hook(1001, hook_id, deleted=hook_id == 30)
    create_hook(1002, 50)


def hook_ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [hook["hook_id"] for hook in response.json()["hooks"]]


def test_an_accounts_hooks_newest_first(client, hooks):
    response = client.get(HOOKS)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    body = response.json()
    assert [hook["hook_id"] for hook in body["hooks"]] == [40, 30, 20, 10]
    assert body["hooks"][0] == {
        "admin_key": {"_type": "ED25519", "key": "ab" * 32},
        "contract_id": "0.0.5001",
        "created_timestamp": "1726874345.123456820",
        "deleted": False,
        "extension_point": "ACCOUNT_ALLOWANCE_HOOK",
        "hook_id": 40,
        "owner_id": "0.0.1001",
        "timestamp_range": {"from": "1726874345.123456820", "to": None},
        "type": "EVM",
    }
    assert body["hooks"][1]["deleted"] is True
    assert body["links"] == {"next": None}
    assert "Link" not in response


@pytest.mark.parametrize("url", [HOOKS, "/api/v1/accounts/0.0.1001/hooks/1/storage"])
def test_answers_carry_an_entity_tag(client, hooks, url):
    response = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])

    assert response["ETag"].startswith('"0')
    assert (again.status_code, again.content) == (304, b"")


def test_a_hook_without_optional_values(client):
    create_hook(1001, 1, contract_id=None, created_timestamp=None, timestamp_range=None, admin_key=None)
    create_hook(1001, 2, created_timestamp=0, admin_key=bytes.fromhex("3200"))

    first, second = client.get(f"{HOOKS}?order=asc").json()["hooks"]

    assert [first[name] for name in ("admin_key", "contract_id", "created_timestamp", "timestamp_range")] == [
        None, None, None, None,
    ]
    assert (second["admin_key"], second["created_timestamp"]) == (None, "0.0")


@pytest.mark.parametrize(
    "account",
    ["1001", "0.1001", "0.0.1001", ALIAS, "0." + ALIAS, "0.0." + ALIAS, EVM_ADDRESS, "0x" + EVM_ADDRESS,
     "0.0." + EVM_ADDRESS],
)
def test_the_account_as_id_alias_or_evm_address(client, hooks, account):
    assert hook_ids(client.get(f"/api/v1/accounts/{account}/hooks")) == [40, 30, 20, 10]


def test_an_unknown_account_id_has_no_hooks(client, hooks):
    assert client.get("/api/v1/accounts/0.0.9999/hooks").json() == {"hooks": [], "links": {"next": None}}
    assert client.get("/api/v1/accounts/1.2.1001/hooks").json()["hooks"] == []


@pytest.mark.parametrize("account", ["0x" + "cd" * 20, "AEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAA"])
def test_an_unknown_alias_or_evm_address_is_not_found(client, hooks, account):
    response = client.get(f"/api/v1/accounts/{account}/hooks")

    assert response.status_code == 404
    assert response.json() == {
        "_status": {"messages": [{"message": "Not Found", "detail": "No account found for the given ID"}]}
    }


@pytest.mark.parametrize(
    "account", ["abc", "0..1", "0.abc.1", "-1", ".", "0.0.", "1.2.3.4", "9999999999999999999999999"]
)
def test_a_malformed_account_fails_to_convert(client, hooks, account):
    assert bad_request(client, f"/api/v1/accounts/{account}/hooks") == ["Failed to convert 'ownerId'"]


@pytest.mark.parametrize(
    "query, expected",
    [
        # eq, or no operator
        ("hook.id=eq:20", [20]),
        ("hook.id=20", [20]),
        ("hook.id=EQ:20", [20]),
        ("hook.id=eq:20&hook.id=eq:30", [30, 20]),
        ("hook.id=20&hook.id=40", [40, 20]),
        ("hook.id=20&hook.id=eq:20", [20]),
        ("hook.id=10&hook.id=20&hook.id=eq:30", [30, 20, 10]),
        ("hook.id=20,40", [40, 20]),
        ("hook.id=%2020%20", [20]),
        ("hook.id=99", []),
        # ranges: the tightest bounds
        ("hook.id=lt:30", [20, 10]),
        ("hook.id=lte:30", [30, 20, 10]),
        ("hook.id=gt:20", [40, 30]),
        ("hook.id=gte:20", [40, 30, 20]),
        ("hook.id=Gte:20", [40, 30, 20]),
        ("hook.id=lt:30&hook.id=lt:40", [20, 10]),
        ("hook.id=lte:30&hook.id=lt:30", [20, 10]),
        ("hook.id=gt:20&hook.id=gt:10", [40, 30]),
        ("hook.id=gte:20&hook.id=gt:20", [40, 30]),
        ("hook.id=gt:10&hook.id=lt:40", [30, 20]),
        ("hook.id=gte:20&hook.id=lte:30", [30, 20]),
        ("hook.id=gt:40&hook.id=lt:10", []),
        ("hook.id=gt:30&hook.id=lt:30", []),
        ("hook.id=lt:0", []),
        ("hook.id=gt:9223372036854775807", [40, 30, 20, 10]),  # the bound wraps around, as a Java long does
        ("hook.id=gt:10,lt:40", [30, 20]),  # one value: a list
        # eq within the bounds
        ("hook.id=eq:10&hook.id=gt:20", []),
        ("hook.id=40&hook.id=lt:30", []),
        ("hook.id=eq:20&hook.id=gt:20", []),
        ("hook.id=20&hook.id=lt:20", []),
        ("hook.id=eq:20&hook.id=gt:10", [20]),
        ("hook.id=20&hook.id=gte:20", [20]),
        ("hook.id=eq:30&hook.id=lt:40", [30]),
        ("hook.id=30&hook.id=lte:30", [30]),
        ("hook.id=eq:20&hook.id=30&hook.id=gt:10", [30, 20]),
        ("hook.id=eq:20&hook.id=30&hook.id=gt:20", [30]),
        ("hook.id=eq:10&hook.id=20&hook.id=30&hook.id=gt:10&hook.id=lt:30", [20]),
        # ne is read and ignored; a blank value compares nothing
        ("hook.id=ne:20", [40, 30, 20, 10]),
        ("hook.id=&hook.id=20", [20]),
        ("hook.id=", [40, 30, 20, 10]),
        # names are case-sensitive, unknown ones ignored
        ("Hook.Id=20&unknown=1", [40, 30, 20, 10]),
    ],
)
def test_hook_id(client, hooks, query, expected):
    assert hook_ids(client.get(f"{HOOKS}?{query}")) == expected


@pytest.mark.parametrize(
    "query",
    ["hook.id=lt:abc", "hook.id=foo:123", "hook.id=lte123", "hook.id=gt=123", "hook.id=gte::123", "hook.id=-1",
     "hook.id=gt:-1", "hook.id=:20", "hook.id=ne", "hook.id=20,x", "hook.id=%2020&hook.id=30",
     "hook.id=9223372036854775808", "hook.id=x&limit=x",
     "hook.id=gte:20&hook.id=gt:10,lt:40"],  # given twice, each value is one item
)
def test_a_bad_hook_id_fails_to_convert(client, hooks, query):
    assert bad_request(client, f"{HOOKS}?{query}") == ["Failed to convert 'hook.id'"]


def test_at_most_100_hook_ids(client, hooks):
    hundred = "&".join(f"hook.id={number}" for number in range(100))

    assert hook_ids(client.get(f"{HOOKS}?{hundred}")) == [40, 30, 20, 10]
    assert bad_request(client, f"{HOOKS}?{hundred}&hook.id=100") == ["hookId size must be between 0 and 100"]
    one_list = ",".join(str(number) for number in range(101))
    assert bad_request(client, f"{HOOKS}?hook.id={one_list}") == ["hookId size must be between 0 and 100"]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("limit=0", ["limit must be greater than 0"]),
        ("limit=-5", ["limit must be greater than 0"]),
        ("limit=101", ["limit must be less than or equal to 100"]),
        ("limit=abc", ["Failed to convert 'limit'"]),
        ("limit=1&limit=2", ["Failed to convert 'limit'"]),
        ("limit=2147483648", ["Failed to convert 'limit'"]),
        ("order=foo", ["Failed to convert 'order'"]),
        ("limit=x&order=foo", ["Failed to convert 'limit'"]),
        # Every constraint at once, in the controller's order.
        ("limit=0&" + "&".join(f"hook.id={n}" for n in range(101)), [
            "hookId size must be between 0 and 100", "limit must be greater than 0",
        ]),
    ],
)
def test_limit_and_order_errors(client, hooks, query, expected):
    assert bad_request(client, f"{HOOKS}?{query}") == expected


def test_the_path_is_converted_before_the_query(client, hooks):
    assert bad_request(client, "/api/v1/accounts/x/hooks?limit=0") == ["Failed to convert 'ownerId'"]


def test_a_bad_query_is_refused_before_the_account_is_looked_up(client, hooks):
    assert bad_request(client, f"/api/v1/accounts/0x{'cd' * 20}/hooks?limit=0") == ["limit must be greater than 0"]


@pytest.mark.parametrize(
    "query, expected",
    [("limit=2", [40, 30]), ("limit=0x2", [40, 30]), ("limit=%202", [40, 30]), ("limit=", [40, 30, 20, 10]),
     ("order=asc", [10, 20, 30, 40]), ("order=ASC&limit=3", [10, 20, 30]), ("order=desc", [40, 30, 20, 10]),
     ("limit=100", [40, 30, 20, 10])],
)
def test_limit_and_order(client, hooks, query, expected):
    assert hook_ids(client.get(f"{HOOKS}?{query}")) == expected


def test_the_default_page_is_25_hooks(client):
    for hook_id in range(1, 27):
        create_hook(1001, hook_id)

    response = client.get(HOOKS)

    assert hook_ids(response) == list(range(26, 1, -1))
    assert response.json()["links"]["next"] == f"{HOOKS}?hook.id=lt:2"


@pytest.mark.parametrize(
    "order, operator, first, second", [("asc", "gt", [10, 20], [30, 40]), ("desc", "lt", [40, 30], [20, 10])]
)
def test_hook_pages(client, hooks, order, operator, first, second):
    response = client.get(f"/api/v1/accounts/1001/hooks?limit=2&order={order}")

    link = f"/api/v1/accounts/1001/hooks?limit=2&order={order}&hook.id={operator}:{first[-1]}"
    assert hook_ids(response) == first
    assert response.json()["links"]["next"] == link
    assert response["Link"] == f'<{link}>; rel="next"'
    following = client.get(link)
    assert hook_ids(following) == second
    last = client.get(following.json()["links"]["next"])
    assert (hook_ids(last), last.json()["links"]["next"]) == ([], None)


@pytest.mark.parametrize(
    "query, link",
    [
        # A bound in the order's direction gives way to the last hook's; the others stay.
        ("hook.id=gte:10&limit=2&order=asc", "limit=2&order=asc&hook.id=gt:20"),
        # A parameter the Java service never links (`x`) is left out.
        ("limit=2&hook.id=lte:40&order=asc&x=1", "limit=2&hook.id=lte:40&hook.id=gt:20&order=asc"),
        ("hook.id=lt:40&hook.id=gt:0&limit=2", "hook.id=gt:0&hook.id=lt:20&limit=2"),
        # An eq value pins the page: the link repeats the query.
        ("hook.id=10&hook.id=20&limit=2&order=asc", "hook.id=10&hook.id=20&limit=2&order=asc"),
    ],
)
def test_next_links_keep_the_query(client, hooks, query, link):
    assert client.get(f"{HOOKS}?{query}").json()["links"]["next"] == f"{HOOKS}?{link}"


def test_no_next_link_past_the_upper_bound(client, hooks):
    response = client.get(f"{HOOKS}?hook.id=lte:20&limit=2&order=asc")

    assert hook_ids(response) == [10, 20]
    assert response.json()["links"]["next"] is None


# --- /accounts/{id}/hooks/{hookId}/storage --------------------------------------------------
STORAGE = "/api/v1/accounts/0.0.1001/hooks/7/storage"
T1, T2, T3, T4 = T + 1, T + 2, T + 3, T + 4
TIMES = {1: "1726874345.123456781", 2: "1726874345.123456782", 3: "1726874345.123456783", 4: "1726874345.123456784"}
MAX_KEY = "f" * 64


@pytest.fixture
def slots():
    create_entity(1001, alias=b"\x01" * 32, evm_address=bytes.fromhex(EVM_ADDRESS))
    for number in (1, 2, 3, 4):
        create_slot(1001, 7, number)
    create_slot(1001, 7, 5, deleted=True, value=b"")
    create_slot(1001, 8, 1)
    create_slot(1002, 7, 1)


def keys(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [int(slot["key"], 16) for slot in response.json()["storage"]]


def test_a_hooks_storage_in_key_order(client, slots):
    response = client.get(STORAGE)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "hook_id": 7,
        "owner_id": "0.0.1001",
        "storage": [
            {"key": key_hex(number), "value": key_hex(number + 1000), "timestamp": f"1726874345.12345678{number}"}
            for number in (1, 2, 3, 4)
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize("account", ["1001", "0.0.1001", ALIAS, "0.0." + ALIAS, "0x" + EVM_ADDRESS, EVM_ADDRESS])
def test_the_owner_as_id_alias_or_evm_address(client, slots, account):
    body = client.get(f"/api/v1/accounts/{account}/hooks/7/storage").json()

    assert (body["owner_id"], [int(slot["key"], 16) for slot in body["storage"]]) == ("0.0.1001", [1, 2, 3, 4])


def test_an_unknown_owner_or_hook_has_no_storage(client, slots):
    assert client.get("/api/v1/accounts/1.2.1001/hooks/7/storage").json() == {
        "hook_id": 7, "owner_id": "1.2.1001", "storage": [], "links": {"next": None},
    }
    assert client.get("/api/v1/accounts/0.0.1001/hooks/9/storage").json()["storage"] == []


def test_an_unknown_alias_owner_is_not_found(client, slots):
    response = client.get(f"/api/v1/accounts/0x{'cd' * 20}/hooks/7/storage")

    assert response.status_code == 404
    assert details(response) == [("Not Found", "No account found for the given ID")]


@pytest.mark.parametrize(
    "hook_id, status, hook",
    [("0x7", 200, 7), ("%207", 200, 7), ("+7", 200, 7), ("007", 200, 7), ("9223372036854775807", 200, MAX_LONG)],
)
def test_the_hook_id_as_spring_converts_it(client, slots, hook_id, status, hook):
    response = client.get(f"/api/v1/accounts/0.0.1001/hooks/{hook_id}/storage")

    assert (response.status_code, response.json()["hook_id"]) == (status, hook)


@pytest.mark.parametrize(
    "hook_id", ["abc", "0..1", "0.abc.1", ".", "0.0.", "1.2.3.4", "9999999999999999999999999", "1.5"]
)
def test_a_malformed_hook_id_fails_to_convert(client, slots, hook_id):
    assert bad_request(client, f"/api/v1/accounts/0.0.1001/hooks/{hook_id}/storage") == ["Failed to convert 'hookId'"]


def test_path_errors(client, slots):
    assert bad_request(client, "/api/v1/accounts/x/hooks/x/storage") == ["Failed to convert 'ownerId'"]
    assert bad_request(client, "/api/v1/accounts/0.0.1001/hooks/-1/storage") == [
        "hookId must be greater than or equal to 0"
    ]
    # Conversions first, then every constraint.
    assert bad_request(client, "/api/v1/accounts/0.0.1001/hooks/-1/storage?key=x&limit=0") == [
        "Failed to convert 'key'"
    ]
    assert bad_request(client, "/api/v1/accounts/0.0.1001/hooks/-1/storage?limit=101") == [
        "hookId must be greater than or equal to 0", "limit must be less than or equal to 100",
    ]


@pytest.mark.parametrize(
    "query, expected",
    [
        (f"key=eq:{key_hex(1)}", [1]),
        (f"key={key_hex(2)}", [2]),
        ("key=2", [2]),
        ("key=eq:0x3", [3]),
        (f"key={key(2).hex()}", [2]),
        (f"key={key_hex(2)}&key=eq:{key_hex(1)}", [1, 2]),
        (f"key=eq:{key_hex(1)}&key=eq:{key_hex(1)}", [1]),
        ("key=1,3", [1, 3]),
        ("key=5", []),  # deleted
        ("key=lt:4", [1, 2, 3]),
        ("key=lte:4", [1, 2, 3, 4]),
        ("key=gt:2", [3, 4]),
        ("key=gte:0x2", [2, 3, 4]),
        ("key=lt:4&key=lt:3", [1, 2]),
        ("key=lt:4&key=lte:2", [1, 2]),
        ("key=gt:2&key=gt:3", [4]),
        ("key=gt:1&key=gte:2", [2, 3, 4]),
        ("key=gt:1&key=lt:4", [2, 3]),
        ("key=gte:1&key=lte:4", [1, 2, 3, 4]),
        ("key=gte:3&key=lte:2", []),
        ("key=eq:2&key=lte:4", [2]),
        ("key=eq:2&key=lt:2", []),
        ("key=eq:2&key=eq:4&key=lt:3", [2]),
        (f"key=gt:{MAX_KEY}", [1, 2, 3, 4]),  # the next key wraps around to zero
        ("key=lt:0", [1, 2, 3, 4]),
        ("key=&key=3", [3]),
        ("Key=3", [1, 2, 3, 4]),
    ],
)
def test_key(client, slots, query, expected):
    assert keys(client.get(f"{STORAGE}?{query}")) == expected


@pytest.mark.parametrize(
    "query",
    ["key=lt:gbc", f"key=foo:{key_hex(1)}", f"key=lte{key_hex(1)}", f"key=gt={key_hex(1)}", f"key=gte::{key_hex(1)}",
     "key=EQ:1", "key=ne:1", "key=0X1", "key=" + "1" * 65, "key=0x", "key=1,x", "key=%201&key=2"],
)
def test_a_bad_key_fails_to_convert(client, slots, query):
    assert bad_request(client, f"{STORAGE}?{query}") == ["Failed to convert 'key'"]


def test_at_most_100_keys_and_2_timestamps(client, slots):
    hundred = "&".join(f"key={number}" for number in range(100))

    assert keys(client.get(f"{STORAGE}?{hundred}")) == [1, 2, 3, 4]
    assert bad_request(client, f"{STORAGE}?{hundred}&key=1") == ["keys size must be between 0 and 100"]
    assert bad_request(client, f"{STORAGE}?timestamp=1&timestamp=2&timestamp=") == [
        "timestamps size must be between 0 and 2"
    ]
    assert bad_request(client, f"{STORAGE}?timestamp=1,2,3&limit=0") == [
        "timestamps size must be between 0 and 2", "limit must be greater than 0",
    ]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("limit=0", ["limit must be greater than 0"]),
        ("limit=101", ["limit must be less than or equal to 100"]),
        ("limit=abc", ["Failed to convert 'limit'"]),
        ("order=foo", ["Failed to convert 'order'"]),
        ("timestamp=x&key=x", ["Failed to convert 'key'"]),
        ("timestamp=x&limit=x", ["Failed to convert 'timestamp'"]),
    ],
)
def test_storage_limit_and_order_errors(client, slots, query, expected):
    assert bad_request(client, f"{STORAGE}?{query}") == expected


@pytest.mark.parametrize(
    "query, expected",
    [("limit=2", [1, 2]), ("order=desc", [4, 3, 2, 1]), ("order=DESC&limit=3", [4, 3, 2]), ("limit=100", [1, 2, 3, 4])],
)
def test_storage_limit_and_order(client, slots, query, expected):
    assert keys(client.get(f"{STORAGE}?{query}")) == expected


@pytest.mark.parametrize(
    "order, operator, first, second", [("asc", "gt", [1, 2], [3, 4]), ("desc", "lt", [4, 3], [2, 1])]
)
def test_storage_pages(client, slots, order, operator, first, second):
    response = client.get(f"/api/v1/accounts/1001/hooks/7/storage?limit=2&order={order}")

    link = f"/api/v1/accounts/1001/hooks/7/storage?limit=2&order={order}&key={operator}:{key_hex(first[-1])}"
    assert keys(response) == first
    assert response.json()["links"]["next"] == link
    assert response["Link"] == f'<{link}>; rel="next"'
    following = client.get(link)
    assert keys(following) == second
    last = client.get(following.json()["links"]["next"])
    assert (keys(last), last.json()["links"]["next"]) == ([], None)


def test_storage_next_links_keep_the_query(client, slots):
    bounded = client.get(f"{STORAGE}?key=lte:4&key=gte:0x1&limit=2&timestamp=")
    pinned = client.get(f"{STORAGE}?key=1&key=2&limit=2")

    assert bounded.json()["links"]["next"] == f"{STORAGE}?key=lte:4&key=gt:{key_hex(2)}&limit=2&timestamp="
    assert pinned.json()["links"]["next"] == f"{STORAGE}?key=1&key=2&limit=2"


# --- storage as of a timestamp --------------------------------------------------------------


@pytest.fixture
def changes():
    """Slot n (1..4) written at Tn (and slot 9 of another hook)."""
    create_entity(1001)
    for number in (1, 2, 3, 4):
        create_change(1001, 7, number, T + number)
    create_change(1001, 8, 9, T1)


@pytest.mark.parametrize(
    "query, expected",
    [
        (f"timestamp=eq:{TIMES[1]}", [1]),
        (f"timestamp=lt:{TIMES[1]}", []),
        (f"timestamp=lte:{TIMES[1]}", [1]),
        (f"timestamp=gte:{TIMES[1]}", [1, 2, 3, 4]),
        (f"timestamp=gt:{TIMES[1]}", [2, 3, 4]),
        (f"timestamp=GT:{TIMES[1]}", [2, 3, 4]),
        (f"timestamp=eq:{TIMES[2]}", [1, 2]),
        (f"timestamp={TIMES[3]}", [1, 2, 3]),
        (f"timestamp=gte:{TIMES[1]}&timestamp=lte:{TIMES[4]}", [1, 2, 3, 4]),
        (f"timestamp=gt:{TIMES[1]}&timestamp=lt:{TIMES[4]}", [2, 3]),
        (f"timestamp=gt:{TIMES[1]}&timestamp=lte:{TIMES[4]}", [2, 3, 4]),
        (f"timestamp=gte:{TIMES[1]}&timestamp=lt:{TIMES[4]}", [1, 2, 3]),
        (f"timestamp=gte:{TIMES[3]}&timestamp=lte:{TIMES[2]}", []),
        (f"timestamp=gt:{TIMES[2]}&timestamp=lt:{TIMES[3]}", []),
        (f"timestamp=gt:{TIMES[1]},lt:{TIMES[3]}", [2]),
        # The last bound of a side counts.
        (f"timestamp=gt:{TIMES[3]}&timestamp=gte:{TIMES[1]}", [1, 2, 3, 4]),
        (f"timestamp=lte:{TIMES[1]}&timestamp=lte:{TIMES[3]}", [1, 2, 3]),
        # With keys.
        (f"key=eq:2&timestamp=gte:{TIMES[1]}&timestamp=lte:{TIMES[4]}", [2]),
        (f"key=eq:2&timestamp=gt:{TIMES[1]}&timestamp=lte:{TIMES[3]}", [2]),
        (f"key=eq:2&timestamp=lt:{TIMES[1]}", []),
        (f"timestamp=eq:{TIMES[2]}&key=gte:1", [1, 2]),
        (f"timestamp=eq:{TIMES[3]}&key=lte:3", [1, 2, 3]),
        (f"key=gt:1&timestamp=lt:{TIMES[3]}", [2]),
        (f"key=lt:3&timestamp=gt:{TIMES[1]}", [2]),
        (f"key=gt:2&timestamp=gte:{TIMES[3]}", [3, 4]),
        (f"timestamp={TIMES[1]}&key=gte:2&key=lte:4", []),
        (f"timestamp={TIMES[4]}&key=lt:3", [1, 2]),
        (f"key=gt:3&timestamp=lte:{TIMES[2]}", []),
        (f"key=gt:3&key=lt:2&timestamp={TIMES[4]}", []),
        # Once one slot asked for is within the key bounds, every one asked for is read.
        (f"key=1&key=3&key=lt:2&timestamp={TIMES[4]}", [1, 3]),
        (f"key=3&key=lt:2&timestamp={TIMES[4]}", []),
        # A blank value bounds nothing: the storage as it is now (none in hook_storage here).
        ("timestamp=", []),
    ],
)
def test_storage_as_of_a_timestamp(client, changes, query, expected):
    assert keys(client.get(f"{STORAGE}?{query}")) == expected


def test_each_slot_as_its_newest_change_within_the_bounds(client, changes):
    create_change(1001, 7, 1, T + 10, written=b"\x05")
    create_change(1001, 7, 2, T + 11, written=None)
    create_change(1001, 7, 3, T + 12, written=b"")

    def storage(query):
        slots = client.get(f"{STORAGE}?{query}").json()["storage"]
        return {int(slot["key"], 16): (slot["value"], slot["timestamp"]) for slot in slots}

    assert storage("timestamp=lte:1726874345.123456795") == {
        1: ("0x05", "1726874345.123456790"),
        2: (None, "1726874345.123456791"),
        3: ("0x", "1726874345.123456792"),
        4: ("0x0304", TIMES[4]),
    }
    assert storage(f"timestamp=lte:{TIMES[4]}")[1] == ("0x0304", TIMES[1])


def test_the_nanoseconds_are_the_digits_after_the_dot(client):
    create_change(1001, 7, 1, 1_000_000_005)

    assert keys(client.get(f"{STORAGE}?timestamp=1.5")) == [1]
    assert keys(client.get(f"{STORAGE}?timestamp=1.4")) == []


@pytest.mark.parametrize(
    "query",
    ["timestamp=ne:1", "timestamp=abc", "timestamp=foo:1", "timestamp=1.1234567890", "timestamp=-1",
     "timestamp=123456789012345678", "timestamp=99999999999", "timestamp=1,x", "timestamp=%201&timestamp=2"],
)
def test_a_bad_timestamp_fails_to_convert(client, changes, query):
    assert bad_request(client, f"{STORAGE}?{query}") == ["Failed to convert 'timestamp'"]


def test_historical_pages_keep_the_timestamp(client, changes):
    url = f"{STORAGE}?limit=2&order=asc&timestamp=gte:{TIMES[1]}"
    response = client.get(url)

    assert keys(response) == [1, 2]
    assert response.json()["links"]["next"] == f"{url}&key=gt:{key_hex(2)}"
    assert keys(client.get(response.json()["links"]["next"])) == [3, 4]
    descending = client.get(f"{STORAGE}?limit=2&order=desc&timestamp=lte:{TIMES[4]}")
    assert keys(descending) == [4, 3]
    assert descending.json()["links"]["next"].endswith(f"&key=lt:{key_hex(3)}")
