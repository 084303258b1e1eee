"""`POST /api/v1/contracts/call`: execution over the mirror tables, block selection, errors,
estimates, limits, system contracts and EIP-7702 delegation."""

import orjson
import pytest
from django.test import Client
from eth_abi import decode, encode

from apps.contracts.evm import throttle
from apps.contracts.tests.evm_ledger import (
    CONTRACTS,
    DELEGATING_ADDRESS,
    DELEGATING_EOA,
    EOA,
    EOA_ADDRESS,
    ERC20,
    REVERTER,
    STORAGE,
    STORAGE_ADDRESS,
    SYSTEM_CALLER,
    TOKEN,
    block_hash,
    calldata,
    hex0x,
    load_ledger,
    long_zero,
)

pytestmark = pytest.mark.django_db
URL = "/api/v1/contracts/call"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture(autouse=True)
def ledger():
    throttle.reset()
    load_ledger()
    yield
    throttle.reset()


def post(client, body, content_type="application/json"):
    payload = body if isinstance(body, (bytes, str)) else orjson.dumps(body)
    return client.post(URL, payload, content_type=content_type)


def result_of(client, body) -> bytes:
    response = post(client, body)
    assert response.status_code == 200, response.json()
    return bytes.fromhex(response.json()["result"][2:])


def error(detail: str, message: str = "Bad Request", data: str = "") -> dict:
    return {"_status": {"messages": [{"message": message, "detail": detail, "data": data}]}}


# --- calls with state from the mirror tables ---


def test_reads_storage_of_a_contract_by_long_zero_and_evm_address(client):
    for to in (hex0x(long_zero(STORAGE)), hex0x(STORAGE_ADDRESS), STORAGE_ADDRESS.hex(), f"0.0.{STORAGE}"):
        assert int.from_bytes(result_of(client, {"to": to, "data": calldata("value()")}), "big") == 7


def test_answer_is_the_return_data_as_hex(client):
    response = post(client, {"to": hex0x(long_zero(STORAGE)), "data": calldata("value()")})
    assert response.status_code == 200
    assert response.json() == {"result": "0x" + format(7, "064x")}
    assert response["Content-Type"].startswith("application/json")


def test_erc20_reads_balances_and_supply_from_contract_state(client):
    to = hex0x(long_zero(ERC20))
    balance = result_of(client, {"to": to, "data": calldata("balanceOf(address)", ["address"], [EOA_ADDRESS])})
    assert decode(["uint256"], balance) == (1000,)
    assert decode(["uint256"], result_of(client, {"to": to, "data": calldata("totalSupply()")})) == (1_000_000,)
    assert decode(["string"], result_of(client, {"to": to, "data": calldata("name()")})) == ("Test Token",)


def test_a_write_is_seen_within_the_call_and_never_persists(client):
    to = hex0x(long_zero(ERC20))
    data = calldata("transfer(address,uint256)", ["address", "uint256"], [long_zero(5), 10])
    assert decode(["bool"], result_of(client, {"from": hex0x(EOA_ADDRESS), "to": to, "data": data})) == (True,)
    balance = result_of(client, {"to": to, "data": calldata("balanceOf(address)", ["address"], [EOA_ADDRESS])})
    assert decode(["uint256"], balance) == (1000,)


def test_sender_balance_and_self_are_the_mirror_accounts(client):
    data = calldata("who()")
    sender, this, balance = decode(
        ["address", "address", "uint256"],
        result_of(client, {"from": hex0x(EOA_ADDRESS), "to": hex0x(STORAGE_ADDRESS), "data": data}),
    )
    assert sender == hex0x(EOA_ADDRESS)
    assert this == hex0x(STORAGE_ADDRESS)
    assert balance == 1234 * 10**10


def test_from_may_be_an_entity_id(client):
    sender, _, _ = decode(
        ["address", "address", "uint256"],
        result_of(client, {"from": f"0.0.{EOA}", "to": hex0x(STORAGE_ADDRESS), "data": calldata("who()")}),
    )
    assert sender == hex0x(long_zero(EOA))


def test_value_is_given_in_tinybars(client):
    data = calldata("who()")
    response = post(client, {"from": hex0x(EOA_ADDRESS), "to": hex0x(STORAGE_ADDRESS), "data": data, "value": 5})
    # who() is not payable: Solidity reverts without data.
    assert response.status_code == 400
    assert response.json() == error("", "CONTRACT_REVERT_EXECUTED", "0x")


def test_call_to_an_account_without_code_answers_empty(client):
    assert result_of(client, {"to": hex0x(long_zero(EOA)), "data": "0x"}) == b""


def test_create_answers_the_runtime_code(client):
    initcode = CONTRACTS["Storage"]["initcode"]
    assert hex0x(result_of(client, {"data": initcode})) == CONTRACTS["Storage"]["runtime"]


def test_block_context_is_the_requested_block(client):
    number, timestamp, chain = decode(
        ["uint256", "uint256", "uint256"],
        result_of(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("blockInfo()"), "block": "2"}),
    )
    assert (number, timestamp, chain) == (2, 1_700_000_002, 0x128)


# --- block selection ---


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ("latest", 7),
        ("LATEST", 7),
        ("pending", 7),
        ("safe", 7),
        ("finalized", 7),
        (None, 7),
        ("", 7),
        ("earliest", 5),
        ("1", 5),
        ("2", 5),
        ("0x2", 5),
        ("3", 7),
        ("0x" + block_hash(2), 5),
        ("0x" + block_hash(2)[:64], 5),
    ],
)
def test_a_call_at_an_older_block_sees_older_storage(client, block, expected):
    body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()"), "block": block}
    assert int.from_bytes(result_of(client, body), "big") == expected


def test_a_contract_created_after_the_block_is_not_found(client):
    from apps.common.database.fixtures import load_rows

    load_rows({"entity": [{"id": 4001, "num": 4001, "realm": 0, "shard": 0, "memo": "", "type": "CONTRACT",
                           "decline_reward": False, "timestamp_range": "[1700000010000000000,)"}]}, source="test")
    body = {"to": hex0x(long_zero(4001)), "data": calldata("value()"), "block": "1"}
    assert post(client, body).json() == error("No such contract or token", "Not Found")


@pytest.mark.parametrize(
    ("block", "detail"),
    [
        ("9", "Unknown block number"),
        ("0x" + "ab" * 32, "Unknown block number"),
        ("-1", "Invalid block value: -1"),
        ("newest", "Invalid block value: newest"),
        ("99999999999999999999", "Decimal value out of range for block: 99999999999999999999"),
        ("0x" + "f" * 16, "Hex value out of range for block: 0x" + "f" * 16),
    ],
)
def test_bad_blocks_are_400(client, block, detail):
    response = post(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()"), "block": block})
    assert response.status_code == 400
    assert response.json() == error(detail)


# --- revert data and failures ---


def test_revert_with_reason_gives_the_reason_and_data(client):
    response = post(client, {"to": hex0x(long_zero(REVERTER)), "data": calldata("withReason()")})
    assert response.status_code == 400
    reason_data = bytes.fromhex("08c379a0") + encode(["string"], ["Some revert message"])
    assert response.json() == error("Some revert message", "CONTRACT_REVERT_EXECUTED", hex0x(reason_data))


def test_require_reverts_only_when_violated(client):
    to = hex0x(long_zero(REVERTER))
    allowed = result_of(client, {"to": to, "data": calldata("withRequire(uint256)", ["uint256"], [11])})
    assert decode(["uint256"], allowed) == (11,)
    response = post(client, {"to": to, "data": calldata("withRequire(uint256)", ["uint256"], [1])})
    assert response.json()["_status"]["messages"][0]["detail"] == "amount too small"


def test_custom_error_revert_has_data_and_no_detail(client):
    response = post(client, {"to": hex0x(long_zero(REVERTER)), "data": calldata("withCustomError()")})
    data = calldata("Custom(uint256)", ["uint256"], [42])
    assert response.json() == error("", "CONTRACT_REVERT_EXECUTED", data)


def test_revert_without_data(client):
    response = post(client, {"to": hex0x(long_zero(REVERTER)), "data": calldata("withoutReason()")})
    assert response.json() == error("", "CONTRACT_REVERT_EXECUTED", "0x")


def test_invalid_opcode_is_an_execution_exception(client):
    response = post(client, {"to": hex0x(long_zero(REVERTER)), "data": calldata("invalid()")})
    assert response.status_code == 400
    assert response.json() == error("", "CONTRACT_EXECUTION_EXCEPTION")


def test_running_out_of_gas_is_insufficient_gas(client):
    data = calldata("burn(uint256)", ["uint256"], [100])
    response = post(client, {"to": hex0x(STORAGE_ADDRESS), "data": data, "gas": 30000})
    assert response.status_code == 400
    assert response.json() == error("", "INSUFFICIENT_GAS")


def test_unknown_sender_is_payer_account_not_found(client):
    response = post(client, {"from": "0x" + "77" * 20, "to": hex0x(STORAGE_ADDRESS), "data": calldata("value()")})
    assert response.status_code == 400
    assert response.json() == error("Sender account not found.", "PAYER_ACCOUNT_NOT_FOUND")


def test_unknown_contract_is_404(client):
    response = post(client, {"to": "0x" + "77" * 20, "data": calldata("value()")})
    assert response.status_code == 404
    assert response.json() == error("No such contract or token", "Not Found")


# --- request validation ---


@pytest.mark.parametrize(
    ("body", "details"),
    [
        ({"gas": 20999}, ["gas field must be greater than or equal to 21000"]),
        ({"gas": 15_000_001}, ["gas field must be less than or equal to 15000000"]),
        ({"gasPrice": -1}, ["gasPrice field must be greater than or equal to 0"]),
        ({"value": -1}, ["value field must be greater than or equal to 0"]),
        ({"value": 1}, ["from field must not be empty"]),
        ({"from": "0x1234"}, ["from field invalid hexadecimal string"]),
        ({"to": "xyz"}, ["to field invalid hexadecimal string"]),
        ({"data": "0xzz"}, ["data field invalid hexadecimal string"]),
        ({"data": "0x123"}, ["data field invalid hexadecimal string: Odd number of characters."]),
        ({"gas": 1, "value": -1}, ["gas field must be greater than or equal to 21000",
                                    "value field must be greater than or equal to 0"]),
        ({"gas": "abc"}, ["JSON parse error: gas must be a number"]),
        ({"estimate": "yes"}, ["JSON parse error: estimate must be a boolean"]),
    ],
)
def test_validation_errors(client, body, details):
    response = post(client, {"to": hex0x(STORAGE_ADDRESS), **body})
    assert response.status_code == 400
    assert response.json() == {
        "_status": {"messages": [{"message": "Bad Request", "detail": detail, "data": ""} for detail in details]}
    }


def test_state_overrides_are_refused(client):
    body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()")}
    diff = [{"key": "0x" + "00" * 32, "value": "0x" + "01" * 32}]
    overrides = [{"address": hex0x(STORAGE_ADDRESS), "state_diff": diff}]
    assert post(client, {**body, "state_overrides": overrides}).json() == error("State overrides are not supported.")
    assert post(client, {**body, "state_overrides": []}).status_code == 200


def test_value_without_to_or_code_needs_to(client):
    response = post(client, {"from": hex0x(EOA_ADDRESS), "value": 1})
    assert response.json() == error("to field must not be empty")


def test_malformed_json_is_400(client):
    response = post(client, b"{not json")
    assert response.status_code == 400
    message = response.json()["_status"]["messages"][0]
    assert message["message"] == "Bad Request"
    assert message["detail"].startswith("JSON parse error: ")
    assert message["data"] == ""


def test_body_must_be_an_object(client):
    assert post(client, b"[1]").json() == error("JSON parse error: the request body must be a JSON object")


def test_unknown_fields_are_ignored(client):
    body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()"), "chainId": 1}
    assert int.from_bytes(result_of(client, body), "big") == 7


@pytest.mark.parametrize("content_type", ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded"])
def test_non_json_content_is_415(client, content_type):
    response = post(client, b"{}", content_type=content_type)
    assert response.status_code == 415
    assert response.json() == error(f"Content-Type '{content_type}' is not supported", "Unsupported Media Type")


def test_get_of_the_path_is_the_contract_route(client):
    response = client.get(URL)
    assert response.status_code == 400
    assert response.json() == {"_status": {"messages": [{"message": "Invalid parameter: contractid"}]}}


# --- estimates ---


def estimate_of(client, body) -> int:
    result = post(client, {**body, "estimate": True})
    assert result.status_code == 200, result.json()
    text = result.json()["result"]
    assert len(text) == 18
    return int(text, 16)


def test_estimate_is_enough_gas_and_close_to_the_least(client):
    data = calldata("set(uint256)", ["uint256"], [99])
    body = {"from": hex0x(EOA_ADDRESS), "to": hex0x(STORAGE_ADDRESS), "data": data}
    estimate = estimate_of(client, body)
    assert post(client, {**body, "gas": estimate}).status_code == 200
    assert post(client, {**body, "gas": estimate * 85 // 100}).status_code == 400
    assert 21000 < estimate < 60000


def test_estimate_of_a_plain_transfer_is_within_the_search_threshold_of_the_intrinsic_gas(client):
    estimate = estimate_of(client, {"from": hex0x(EOA_ADDRESS), "to": hex0x(long_zero(EOA)), "value": 1})
    assert 21000 <= estimate <= 21000 * 110 // 100


def test_estimate_of_a_revert_is_the_revert(client):
    response = post(client, {"to": hex0x(long_zero(REVERTER)), "data": calldata("withReason()"), "estimate": True})
    assert response.status_code == 400
    assert response.json()["_status"]["messages"][0]["message"] == "CONTRACT_REVERT_EXECUTED"


def test_estimate_grows_with_the_work(client):
    small = estimate_of(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("burn(uint256)", ["uint256"], [1])})
    large = estimate_of(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("burn(uint256)", ["uint256"], [20])})
    assert large > small


# --- limits ---


def test_wall_time_limit_stops_an_endless_loop(client, settings):
    settings.WEB3 = {**settings.WEB3, "TIMEOUT_SECONDS": 0.2}
    response = post(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("spin()"), "gas": 15_000_000})
    assert response.status_code == 503
    assert response.json() == error("Execution exceeded the time limit of 0.2 s", "Service Unavailable")


def test_an_endless_loop_within_the_time_limit_runs_out_of_gas(client):
    response = post(client, {"to": hex0x(STORAGE_ADDRESS), "data": calldata("spin()"), "gas": 100_000})
    assert response.json() == error("", "INSUFFICIENT_GAS")


def test_requests_per_second_limit_is_429(client, settings):
    settings.WEB3 = {**settings.WEB3, "REQUESTS_PER_SECOND": 2}
    throttle.reset()
    body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()")}
    statuses = [post(client, body).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert post(client, body).json() == error("Requests per second rate limit exceeded", "Too Many Requests")


def test_gas_per_second_limit_is_429_and_unused_gas_is_given_back(client, settings):
    settings.WEB3 = {**settings.WEB3, "GAS_PER_SECOND": 20_000_000}
    throttle.reset()
    body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("value()"), "gas": 15_000_000}
    # Each call uses little of its 15M gas and gives the rest back.
    assert [post(client, body).status_code for _ in range(3)] == [200, 200, 200]
    gas = throttle.throttle().gas
    while gas.try_consume(100):
        pass
    assert post(client, body).json() == error("Gas per second rate limit exceeded.", "Too Many Requests")


# --- system contracts ---


def test_exchange_rate_system_contract(client):
    to = hex0x(long_zero(SYSTEM_CALLER))
    tinybars = result_of(client, {"to": to, "data": calldata("toTinybars(uint256)", ["uint256"], [1200])})
    assert decode(["uint256"], tinybars) == (100,)
    tinycents = result_of(client, {"to": to, "data": calldata("toTinycents(uint256)", ["uint256"], [100])})
    assert decode(["uint256"], tinycents) == (1200,)


def test_exchange_rate_called_directly(client):
    data = calldata("tinycentsToTinybars(uint256)", ["uint256"], [120])
    assert decode(["uint256"], result_of(client, {"to": hex0x(long_zero(0x168)), "data": data})) == (10,)


def test_prng_seed_is_32_bytes_fixed_per_block(client):
    to = hex0x(long_zero(SYSTEM_CALLER))
    seed = result_of(client, {"to": to, "data": calldata("seed()")})
    assert len(seed) == 32
    assert result_of(client, {"to": to, "data": calldata("seed()")}) == seed
    assert result_of(client, {"to": to, "data": calldata("seed()"), "block": "1"}) != seed


def test_is_token_through_a_contract(client):
    to = hex0x(long_zero(SYSTEM_CALLER))
    for address, expected in ((long_zero(TOKEN), True), (long_zero(EOA), False)):
        answer = result_of(client, {"to": to, "data": calldata("isToken(address)", ["address"], [address])})
        assert decode(["int64", "bool"], answer) == (22, expected)


def test_token_reads_through_a_contract(client):
    to = hex0x(long_zero(SYSTEM_CALLER))
    name = result_of(client, {"to": to, "data": calldata("tokenName(address)", ["address"], [long_zero(TOKEN)])})
    assert decode(["string"], name) == ("Mirror Token",)
    data = calldata("tokenBalance(address,address)", ["address", "address"], [long_zero(TOKEN), EOA_ADDRESS])
    assert decode(["uint256"], result_of(client, {"to": to, "data": data})) == (77,)


@pytest.mark.parametrize(
    ("signature", "types", "values", "answer_types", "expected"),
    [
        ("name()", [], [], ["string"], ("Mirror Token",)),
        ("symbol()", [], [], ["string"], ("MIRR",)),
        ("decimals()", [], [], ["uint8"], (2,)),
        ("totalSupply()", [], [], ["uint256"], (10_000,)),
        ("balanceOf(address)", ["address"], [EOA_ADDRESS], ["uint256"], (77,)),
        ("balanceOf(address)", ["address"], [long_zero(5)], ["uint256"], (0,)),
        ("allowance(address,address)", ["address", "address"], [EOA_ADDRESS, STORAGE_ADDRESS], ["uint256"], (30,)),
    ],
)
def test_erc20_reads_of_a_token_address(client, signature, types, values, answer_types, expected):
    answer = result_of(client, {"to": hex0x(long_zero(TOKEN)), "data": calldata(signature, types, values)})
    assert decode(answer_types, answer) == expected


def test_redirect_for_token_on_the_token_service(client):
    inner = bytes.fromhex(calldata("symbol()")[2:])
    data = calldata("redirectForToken(address,bytes)", ["address", "bytes"], [long_zero(TOKEN), inner])
    assert decode(["string"], result_of(client, {"to": hex0x(long_zero(0x167)), "data": data})) == ("MIRR",)


def test_get_token_info(client):
    from apps.contracts.evm.system import TOKEN_INFO

    data = calldata("getTokenInfo(address)", ["address"], [long_zero(TOKEN)])
    code, info = decode(["int64", TOKEN_INFO], result_of(client, {"to": hex0x(long_zero(0x167)), "data": data}))
    assert code == 22
    hedera_token, total_supply, deleted, _, paused, *_, ledger_id = info
    assert hedera_token[:4] == ("Mirror Token", "MIRR", hex0x(long_zero(2)), "token memo")
    assert (total_supply, deleted, paused, ledger_id) == (10_000, False, False, "0x01")


@pytest.mark.parametrize(
    ("to", "data", "detail"),
    [
        (
            0x167,
            calldata("mintToken(address,int64,bytes[])", ["address", "int64", "bytes[]"], [long_zero(TOKEN), 1, []]),
            "Token service system contract function 0x{} is not supported",
        ),
        (TOKEN, calldata("transfer(address,uint256)", ["address", "uint256"], [EOA_ADDRESS, 1]),
         "Token redirect function 0x{} is not supported"),
        (0x168, calldata("rate()"), "Exchange rate system contract function 0x{} is not supported"),
    ],
)
def test_unsupported_system_functions_are_501_naming_them(client, to, data, detail):
    response = post(client, {"to": hex0x(long_zero(to)), "data": data})
    assert response.status_code == 501
    assert response.json() == error(detail.format(data[2:10]), "Not Implemented")


# --- EIP-7702 delegation ---


def test_a_delegated_eoa_runs_the_delegate_code_in_its_own_storage(client):
    for to in (hex0x(DELEGATING_ADDRESS), hex0x(long_zero(DELEGATING_EOA)), f"0.0.{DELEGATING_EOA}"):
        assert int.from_bytes(result_of(client, {"to": to, "data": calldata("value()")}), "big") == 42


def test_a_delegated_eoa_sees_itself_as_the_executing_account(client):
    sender, this, balance = decode(
        ["address", "address", "uint256"],
        result_of(client, {"from": hex0x(EOA_ADDRESS), "to": hex0x(DELEGATING_ADDRESS), "data": calldata("who()")}),
    )
    assert (sender, this, balance) == (hex0x(EOA_ADDRESS), hex0x(DELEGATING_ADDRESS), 9 * 10**10)


def test_extcode_of_a_delegated_eoa_is_the_designator(client):
    data = calldata("codeOf(address)", ["address"], [DELEGATING_ADDRESS])
    size, code = decode(["uint256", "bytes"], result_of(client, {"to": hex0x(STORAGE_ADDRESS), "data": data}))
    assert (size, code) == (23, bytes.fromhex("ef0100") + STORAGE_ADDRESS)


def test_extcode_of_a_plain_eoa_is_empty(client):
    data = calldata("codeOf(address)", ["address"], [EOA_ADDRESS])
    size, code = decode(["uint256", "bytes"], result_of(client, {"to": hex0x(STORAGE_ADDRESS), "data": data}))
    assert (size, code) == (0, b"")


def test_a_zero_delegation_is_no_delegation(client):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("update entity set delegation_address = %s where id = %s", (bytes(20), DELEGATING_EOA))
    assert result_of(client, {"to": hex0x(DELEGATING_ADDRESS), "data": calldata("value()")}) == b""


# --- balances as of a block ---


def test_an_older_block_sees_the_balance_of_its_snapshot_plus_later_transfers(client):
    from apps.accounts.tests.factories import create_account_balances
    from apps.common.database.fixtures import load_rows
    from apps.contracts.tests.evm_ledger import BLOCKS

    snapshot = BLOCKS[1][0]
    create_account_balances(snapshot, {2: 5_000_000_000, STORAGE: 1000})
    transfer = {"entity_id": STORAGE, "amount": 100, "payer_account_id": 2}
    load_rows(
        {
            "crypto_transfer": [
                {**transfer, "consensus_timestamp": BLOCKS[1][0] + 5},
                {**transfer, "consensus_timestamp": BLOCKS[2][0] + 5, "amount": 7},
                {**transfer, "consensus_timestamp": BLOCKS[2][0] + 6, "amount": 999, "errata": "DELETE"},
            ]
        },
        source="test",
    )

    def balance_at(block: str) -> int:
        body = {"to": hex0x(STORAGE_ADDRESS), "data": calldata("who()"), "block": block}
        return decode(["address", "address", "uint256"], result_of(client, body))[2]

    assert balance_at("1") == 1100 * 10**10
    assert balance_at("2") == 1107 * 10**10
    assert balance_at("latest") == 1234 * 10**10


def test_token_reads_at_an_older_block_see_the_token_and_balances_then(client):
    from django.db import connection

    from apps.accounts.tests.factories import (
        create_account_balances,
        create_token_balances,
    )
    from apps.common.database.fixtures import load_rows
    from apps.contracts.tests.evm_ledger import BLOCKS

    renamed = BLOCKS[2][0]
    with connection.cursor() as cursor:
        cursor.execute("update token set timestamp_range = int8range(%s, null) where token_id = %s", (renamed, TOKEN))
        cursor.execute(
            "insert into token_history select * from token where token_id = %s", (TOKEN,)
        )
        cursor.execute(
            "update token_history set name = 'Old Name', timestamp_range = int8range(%s, %s) where token_id = %s",
            (BLOCKS[1][0] - 10, renamed, TOKEN),
        )
    create_account_balances(BLOCKS[1][0], {2: 1})
    create_token_balances(BLOCKS[1][0], EOA, {TOKEN: 40})
    load_rows(
        {"token_transfer": [{"token_id": TOKEN, "account_id": EOA, "consensus_timestamp": BLOCKS[1][0] + 3,
                             "amount": 2, "payer_account_id": 2}]},
        source="test",
    )
    token = hex0x(long_zero(TOKEN))
    balance_call = calldata("balanceOf(address)", ["address"], [EOA_ADDRESS])

    def read(data: str, block: str, types: list[str]):
        return decode(types, result_of(client, {"to": token, "data": data, "block": block}))[0]

    assert read(calldata("name()"), "1", ["string"]) == "Old Name"
    assert read(calldata("name()"), "latest", ["string"]) == "Mirror Token"
    assert read(balance_call, "1", ["uint256"]) == 42
    assert read(balance_call, "latest", ["uint256"]) == 77
