"""`/contracts/{id}/results`, `/contracts/results` and the single-result routes over HTTP."""

import pytest
from django.conf import settings
from django.test import Client, override_settings

from apps.accounts.tests.factories import create_entity
from apps.blocks.tests.factories import block_hash, create_record_files, record_file
from apps.contracts.tests.results_factories import (
    create_ethereum_transaction,
    create_log,
    create_result,
    create_result_transaction,
    create_state_change,
    eth_hash,
)

pytestmark = pytest.mark.django_db

T = 1_676_540_001_234_390_005
CONTRACT = 5001
ADDRESS = "70f2b2914a2a4b783faefb75f459a580616fcb5e"
EOA = 9101
EOA_ADDRESS = "01beefdead0000000000000000000000abcd1234"
DELEGATE = bytes.fromhex("11" * 20)
AUTHORIZATION = [
    {
        "chain_id": "0x127",
        "address": "0x" + "11" * 20,
        "nonce": 5,
        "y_parity": "0x1",
        "r": "0x" + "22" * 32,
        "s": "0x" + "33" * 32,
    }
]


def envelope(*messages: str) -> dict:
    return {"_status": {"messages": [{"message": message} for message in messages]}}


def timestamps(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [result["timestamp"] for result in response.json()["results"]]


def ts(nanos: int) -> str:
    return f"{nanos // 10**9}.{nanos % 10**9:09d}"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def contract():
    return create_entity(CONTRACT, type="CONTRACT", evm_address=bytes.fromhex(ADDRESS))


@pytest.fixture
def results(contract):
    """Three results of the contract at T, T+1, T+2 (sent by 8001, 8002, 8001) in blocks 10, 10, 11,
    and an internal (child) result at T+3."""
    create_record_files(
        record_file(10, T + 1, consensus_start=T - 5), record_file(11, T + 9, consensus_start=T + 2)
    )
    create_result(T, CONTRACT, transaction_index=0)
    create_result(T + 1, CONTRACT, payer=8002, transaction_index=1)
    create_result(T + 2, CONTRACT, transaction_index=0)
    create_result(T + 3, CONTRACT, transaction_nonce=1)


# --- /contracts/{id}/results ----------------------------------------------------------------


def test_contract_results_render_exact_rows(client, contract):
    create_result(T, CONTRACT, created_contract_ids=[7001], bloom=b"")

    response = client.get(f"/api/v1/contracts/0.0.{CONTRACT}/results")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=1"
    assert response.json() == {
        "results": [
            {
                "address": "0x" + ADDRESS,
                "amount": 30,
                "bloom": "0x" + "00" * 256,
                "call_result": "0x0606",
                "contract_id": "0.0.5001",
                "created_contract_ids": ["0.0.7001"],
                "error_message": None,
                "from": "0x0000000000000000000000000000000000001f41",
                "function_parameters": "0x0707",
                "gas_consumed": 100,
                "gas_limit": 1000,
                "gas_used": 90,
                "hash": "0x" + eth_hash(T).hex(),
                "timestamp": ts(T),
                "to": "0x0000000000000000000000000000000000001389",
            }
        ],
        "links": {"next": None},
    }


@pytest.mark.parametrize("path", [str(CONTRACT), f"0.{CONTRACT}", ADDRESS, "0x" + ADDRESS, f"0.0.{ADDRESS}"])
def test_contract_results_accept_every_spelling_of_the_contract(client, results, path):
    assert timestamps(client.get(f"/api/v1/contracts/{path}/results")) == [ts(T + 2), ts(T + 1), ts(T)]


@pytest.mark.parametrize("path", ["0", "0.0.0"])
def test_contract_zero_lists_every_contracts_results(client, results, path):
    # As the upstream, which reads contract 0 as no contract.
    create_result(T + 4, CONTRACT + 1, transaction_index=0)

    response = client.get(f"/api/v1/contracts/{path}/results?limit=2")

    assert timestamps(response) == [ts(T + 4), ts(T + 2)]
    assert response.json()["links"]["next"] == f"/api/v1/contracts/{path}/results?limit=2&timestamp=lt:{ts(T + 2)}"


def test_contract_results_page_with_timestamp_links(client, results):
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results?limit=2")
    assert timestamps(response) == [ts(T + 2), ts(T + 1)]
    next_link = response.json()["links"]["next"]
    assert next_link == f"/api/v1/contracts/{CONTRACT}/results?limit=2&timestamp=lt:{ts(T + 1)}"
    assert response["Link"] == f'<{next_link}>; rel="next"'
    assert timestamps(client.get(next_link)) == [ts(T)]

    ascending = client.get(f"/api/v1/contracts/{CONTRACT}/results?order=asc&limit=1")
    assert (
        ascending.json()["links"]["next"]
        == f"/api/v1/contracts/{CONTRACT}/results?order=asc&limit=1&timestamp=gt:{ts(T)}"
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"timestamp={ts(T + 1)}", [T + 1]),
        (f"timestamp=eq:{ts(T)}&timestamp={ts(T + 2)}", [T + 2, T]),
        (f"timestamp=gt:{ts(T)}&timestamp=lte:{ts(T + 2)}", [T + 2, T + 1]),
        (f"timestamp=ne:{ts(T + 1)}", [T + 2, T]),
        ("from=8002", [T + 1]),
        ("from=0.0.8001", [T + 2, T]),
        ("from=0x0000000000000000000000000000000000001f42", [T + 1]),
        ("from=gt:8001", [T + 1]),
        ("block.number=10", [T + 1, T]),
        ("block.number=0xb", [T + 2]),
        ("block.number=99", []),
        (f"block.hash={block_hash(11)}", [T + 2]),
        (f"block.hash=eq:0x{block_hash(10)[:64]}", [T + 1, T]),
        (f"block.hash={'ab' * 32}", []),
        ("block.number=10&transaction.index=1", [T + 1]),
        # Repeated indexes are ORed, as upstream reads them into one `in` list.
        ("block.number=10&transaction.index=1&transaction.index=0", [T + 1, T]),
        ("block.number=10&transaction.index=1&transaction.index=eq:1", [T + 1]),
        (f"block.hash={block_hash(10)}&transaction.index=0", [T]),
        ("internal=true", [T + 3, T + 2, T + 1, T]),
        ("internal=false", [T + 2, T + 1, T]),
        ("hbar=false", [T + 2, T + 1, T]),
    ],
)
def test_contract_results_filters(client, results, query, expected):
    assert timestamps(client.get(f"/api/v1/contracts/{CONTRACT}/results?{query}")) == [
        ts(t) for t in expected
    ]


def test_contract_results_from_an_evm_address_reads_the_senders_entity(client, results):
    create_entity(8002, evm_address=bytes.fromhex("fb" * 20))
    assert timestamps(client.get(f"/api/v1/contracts/{CONTRACT}/results?from={'fb' * 20}")) == [ts(T + 1)]
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results?from={'fc' * 20}")
    assert (response.status_code, response.json()) == (404, envelope("Not found"))


def test_contract_results_skip_wrong_nonce_results(client, contract):
    create_result(T, CONTRACT, transaction_result=312)
    assert timestamps(client.get(f"/api/v1/contracts/{CONTRACT}/results")) == []


def test_contract_results_of_an_unknown_address_are_empty(client, results):
    response = client.get(f"/api/v1/contracts/0x{'55' * 20}/results")
    assert response.json() == {"results": [], "links": {"next": None}}


def test_contract_results_recover_a_sender_alias_from_the_function_result(client, contract):
    alias = bytes.fromhex("58598a70c23487d16735d18127e5deef73c94c0d")
    # ContractFunctionResult.sender_id (13) holding an AccountID with only its alias (4).
    create_result(T, CONTRACT, sender_id=None, function_result=b"\x6a\x16\x22\x14" + alias)
    create_result(T + 1, CONTRACT, sender_id=None, function_result=b"\x02\x02")
    rows = client.get(f"/api/v1/contracts/{CONTRACT}/results").json()["results"]
    assert [row["from"] for row in rows] == [None, "0x" + alias.hex()]


@pytest.mark.parametrize(
    ("query", "messages"),
    [
        (
            f"block.hash=gte:{'ab' * 32}&block.number=lt:1&transaction.index=gt:1&serialnumber=1",
            [
                "Invalid parameter: block.hash",
                "Invalid parameter: block.number",
                "Invalid parameter: transaction.index",
                "Unknown query parameter: serialnumber",
            ],
        ),
        ("from=abc&timestamp=x&internal=maybe&limit=0&order=up", None),
        (
            f"block.hash={'ab' * 32}&block.number=10",
            ["Invalid parameter usage: block.hash - cannot combine block.number and block.hash"],
        ),
        (
            "transaction.index=1",
            [
                "Invalid parameter usage: transaction.index - transaction.index requires block.number"
                " or block.hash filter to be specified"
            ],
        ),
    ],
)
def test_contract_results_reject_bad_queries(client, results, query, messages):
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results?{query}")
    assert response.status_code == 400
    if messages is None:
        messages = [
            f"Invalid parameter: {name}" for name in ("from", "timestamp", "internal", "limit", "order")
        ]
    assert response.json() == envelope(*messages)


def test_contract_results_reject_a_bad_contract(client):
    response = client.get("/api/v1/contracts/1.2.3.4/results")
    assert response.status_code == 400
    assert response.json() == envelope("Invalid parameter: contractid")


@override_settings(MIRROR={**settings.MIRROR, "LIMIT_DEFAULT": 1, "LIMIT_MAX": 2})
def test_contract_results_limit_default_and_maximum(client, results):
    assert len(timestamps(client.get(f"/api/v1/contracts/{CONTRACT}/results"))) == 1
    assert len(timestamps(client.get(f"/api/v1/contracts/{CONTRACT}/results?limit=100"))) == 2


# --- code delegation (HIP-1340) -------------------------------------------------------------------


@pytest.fixture
def delegated_account():
    """An externally owned account delegating its code, which ran a type 4 transaction."""
    create_entity(EOA, type="ACCOUNT", evm_address=bytes.fromhex(EOA_ADDRESS), delegation_address=DELEGATE)
    result = create_result(T, EOA, payer=EOA)
    create_ethereum_transaction(result, type=4, authorization_list=AUTHORIZATION)
    create_log(T, EOA, 0)
    create_state_change(T, EOA, b"\x01")
    return result


@pytest.mark.parametrize("path", [f"0.0.{EOA}", EOA_ADDRESS, "0x" + EOA_ADDRESS])
def test_an_account_with_a_delegation_has_results(client, delegated_account, path):
    rows = client.get(f"/api/v1/contracts/{path}/results").json()["results"]
    assert [(row["contract_id"], row["address"]) for row in rows] == [(f"0.0.{EOA}", "0x" + EOA_ADDRESS)]


def test_an_account_with_a_delegation_has_a_result_at_a_timestamp(client, delegated_account):
    response = client.get(f"/api/v1/contracts/0x{EOA_ADDRESS}/results/{ts(T)}")
    assert response.status_code == 200
    body = response.json()
    assert body["type"] == 4
    assert body["authorization_list"] == AUTHORIZATION
    assert [log["contract_id"] for log in body["logs"]] == [f"0.0.{EOA}"]
    assert [change["address"] for change in body["state_changes"]] == ["0x" + EOA_ADDRESS]


# --- /contracts/results -------------------------------------------------------------------------


def test_all_results_render_details_with_ethereum_data(client, results):
    create_result(T + 4, 6001, payer=8003, transaction_index=3)
    create_ethereum_transaction(
        create_result(T + 5, 6001, transaction_index=4),
        access_list=[{"address": "0x" + "a0" * 20, "storage_keys": ["0x" + "00" * 31 + "81"]}],
    )

    response = client.get("/api/v1/contracts/results?limit=2")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=10"
    ethereum, plain = response.json()["results"]
    assert ethereum == {
        "access_list": [{"address": "0x" + "a0" * 20, "storage_keys": ["0x" + "00" * 31 + "81"]}],
        "address": "0x0000000000000000000000000000000000001771",
        "amount": 20,
        "authorization_list": [],
        "block_gas_used": 0,
        "block_hash": "0x" + block_hash(11),
        "block_number": 11,
        "bloom": "0x0505",
        "call_result": "0x0606",
        "chain_id": "0x12a",
        "contract_id": "0.0.6001",
        "created_contract_ids": [],
        "error_message": None,
        "failed_initcode": None,
        "from": "0x0000000000000000000000000000000000001f41",
        "function_parameters": "0x0909",
        "gas_consumed": 100,
        "gas_limit": 1000,
        "gas_price": "0x4a817c80",
        "gas_used": 90,
        "hash": "0x" + eth_hash(T + 5).hex(),
        "max_fee_per_gas": "0x0",
        "max_priority_fee_per_gas": "0x0",
        "nonce": 4,
        "r": "0x" + "d6" * 32,
        "result": "SUCCESS",
        "s": "0x" + "24" * 32,
        "status": "0x1",
        "timestamp": ts(T + 5),
        "to": "0x0000000000000000000000000000000000001771",
        "transaction_index": 4,
        "type": 2,
        "v": 1,
    }
    assert plain["chain_id"] == "0x128"
    assert plain["gas_price"] is None
    assert "authorization_list" not in plain
    assert (plain["nonce"], plain["r"], plain["s"], plain["v"], plain["type"]) == (None, None, None, None, 0)
    assert response.json()["links"]["next"] == f"/api/v1/contracts/results?limit=2&timestamp=lt:{ts(T + 4)}"


def test_all_results_take_one_hbar_value(client, contract):
    create_result(T, CONTRACT)
    assert client.get("/api/v1/contracts/results?hbar=FALSE").json()["results"][0]["amount"] == 30 * 10**10
    response = client.get("/api/v1/contracts/results?hbar=true&hbar=false")
    assert response.json() == envelope("Invalid hbar parameter value: true,false. Must be 'true' or 'false'")
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results?hbar=true&hbar=false")
    assert response.status_code == 200


def test_all_results_in_weibar_with_hbar_false(client, contract):
    create_result(T, CONTRACT)
    create_ethereum_transaction(create_result(T + 1, CONTRACT))
    ethereum, plain = client.get("/api/v1/contracts/results?hbar=false").json()["results"]
    assert (ethereum["amount"], ethereum["gas_price"]) == (20 * 10**10, "0xad78ebc5ac620000")
    assert (ethereum["max_fee_per_gas"], ethereum["max_priority_fee_per_gas"]) == ("0x40", "0x15")
    assert plain["amount"] == 30 * 10**10


def test_all_results_filter_like_contract_results(client, results):
    create_result(T + 4, 6001, payer=8003)
    assert timestamps(client.get("/api/v1/contracts/results?from=8003")) == [ts(T + 4)]
    assert timestamps(client.get("/api/v1/contracts/results?block.number=11&transaction.index=0")) == [
        ts(T + 2)
    ]
    assert timestamps(client.get(f"/api/v1/contracts/results?order=asc&timestamp=lt:{ts(T + 2)}")) == [
        ts(T),
        ts(T + 1),
    ]


def test_all_results_include_synthetic_token_transfers(client, results):
    create_log(T + 5, 7001, 0, synthetic=True, root_contract_id=None, payer_account_id=8009)
    create_log(T + 5, 7001, 1, synthetic=True, root_contract_id=None, payer_account_id=8009)
    create_log(T + 2, 7001, 0, synthetic=True)

    rows = client.get("/api/v1/contracts/results?limit=2").json()["results"]

    assert [row["timestamp"] for row in rows] == [ts(T + 5), ts(T + 2)]
    synthetic = rows[0]
    assert (synthetic["contract_id"], synthetic["from"], synthetic["result"]) == (
        "0.0.7001",
        "0x0000000000000000000000000000000000001f49",
        "SUCCESS",
    )
    assert (synthetic["amount"], synthetic["gas_limit"], synthetic["function_parameters"]) == (None, 0, "0x")
    # Naming senders leaves the synthetic results out.
    assert timestamps(client.get("/api/v1/contracts/results?from=8009")) == []


# --- /contracts/{id}/results/{timestamp} ----------------------------------------------------------


def test_result_at_a_timestamp_has_logs_and_state_changes(client, contract):
    create_entity(5002, type="CONTRACT")
    create_record_files(record_file(17, T + 5, gas_used=-1))
    create_result(T, CONTRACT, involved=[5002], amount=None)
    create_log(T, 5002, 1, data=b"", topic1=b"")
    create_log(T, CONTRACT, 0)
    create_state_change(T, CONTRACT, b"\x01\x01", value_written=None)
    create_state_change(T, 5002, b"\x02", migration=True)
    create_state_change(T, 5002, b"\x03")

    response = client.get(f"/api/v1/contracts/{CONTRACT}/results/{ts(T)}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    body = response.json()
    assert (body["block_number"], body["block_gas_used"], body["amount"]) == (17, None, None)
    assert body["logs"] == [
        {
            "address": "0x" + ADDRESS,
            "bloom": "0x0123",
            "contract_id": "0.0.5001",
            "data": "0x" + "00" * 30 + "0123",
            "index": 0,
            "topics": ["0x" + "97" * 32, "0x" + "00" * 31 + "0a"],
        },
        {
            "address": "0x000000000000000000000000000000000000138a",
            "bloom": "0x0123",
            "contract_id": "0.0.5002",
            "data": "0x",
            "index": 1,
            "topics": ["0x" + "97" * 32, "0x" + "00" * 32],
        },
    ]
    assert body["state_changes"] == [
        {
            "address": "0x" + ADDRESS,
            "contract_id": "0.0.5001",
            "slot": "0x" + "00" * 30 + "0101",
            "value_read": "0x" + "00" * 31 + "01",
            "value_written": None,
        },
        {
            "address": "0x000000000000000000000000000000000000138a",
            "contract_id": "0.0.5002",
            "slot": "0x" + "00" * 31 + "03",
            "value_read": "0x" + "00" * 31 + "01",
            "value_written": "0x" + "00" * 31 + "a1",
        },
    ]


def test_result_at_a_timestamp_reads_its_ethereum_transaction_and_block_with_it(
    client, contract, django_assert_num_queries
):
    create_record_files(record_file(17, T + 5))
    result = create_result(T, CONTRACT)
    create_ethereum_transaction(result, type=2)

    # The contract transaction; the result with its Ethereum transaction and block; logs; state changes.
    with django_assert_num_queries(4):
        body = client.get(f"/api/v1/contracts/{CONTRACT}/results/{ts(T)}").json()

    assert (body["block_number"], body["type"], body["hash"]) == (17, 2, "0x" + eth_hash(T).hex())


def test_result_without_call_result_is_partial_content(client, contract):
    create_result(T, CONTRACT, call_result=None)
    response = client.get(f"/api/v1/contracts/{CONTRACT}/results/{ts(T)}")
    assert response.status_code == 206
    assert response.json()["call_result"] == "0x"


def test_failed_ethereum_result_names_its_error_and_failed_initcode(client, contract):
    result = create_result(T, CONTRACT, transaction_result=33, error_message="")
    create_ethereum_transaction(result, to_address=None, signature_v=None, type=0, value=b"")
    body = client.get(f"/api/v1/contracts/{CONTRACT}/results/{ts(T)}?hbar=TRUE").json()
    assert (body["error_message"], body["status"], body["failed_initcode"]) == (
        "CONTRACT_REVERT_EXECUTED",
        "0x0",
        "0x0909",
    )
    assert (body["to"], body["v"], body["amount"], body["gas_limit"]) == (
        "0x0000000000000000000000000000000000001389",
        1,
        None,
        5000,
    )


def test_result_function_parameters_from_the_call_data_file(client, contract):
    from apps.network.models import FileData

    result = create_result(T, CONTRACT, function_parameters=b"")
    create_ethereum_transaction(result, call_data=None, call_data_id=1001)
    FileData.objects.create(consensus_timestamp=1, entity_id=1001, file_data=b"\x0c\x0b", transaction_type=17)
    FileData.objects.create(consensus_timestamp=2, entity_id=1001, file_data=b"\x80", transaction_type=16)
    assert (
        client.get(f"/api/v1/contracts/{CONTRACT}/results/{ts(T)}").json()["function_parameters"]
        == "0x0c0b80"
    )


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        (f"{CONTRACT}/results/{ts(T + 1)}", 404, envelope("Not found")),
        (f"5002/results/{ts(T)}", 404, envelope("Not found")),
        (f"0x{'55' * 20}/results/{ts(T)}", 404, envelope("Not found")),
        ("x/results/1.2.3", 400, envelope("Invalid parameter: contractid", "Invalid parameter: timestamp")),
        (f"{CONTRACT}/results/abc", 400, envelope("Invalid parameter: timestamp")),
        (f"{CONTRACT}/results/{ts(T)}?limit=1", 400, envelope("Unknown query parameter: limit")),
        (
            f"{CONTRACT}/results/{ts(T)}?hbar=yes",
            400,
            envelope("Invalid hbar parameter value: yes. Must be 'true' or 'false'"),
        ),
        # This route reads `hbar` first, then its path, then the other parameters.
        (
            "x/results/1.2.3?hbar=true&hbar=true&foo=1",
            400,
            envelope("Invalid hbar parameter value: true,true. Must be 'true' or 'false'"),
        ),
        (f"{CONTRACT}/results/x?hbar=TRUE&foo=1", 400, envelope("Invalid parameter: timestamp")),
    ],
)
def test_result_at_a_timestamp_errors(client, contract, path, status, body):
    create_result(T, CONTRACT)
    response = client.get(f"/api/v1/contracts/{path}")
    assert (response.status_code, response.json()) == (status, body)


# --- /contracts/results/{transactionIdOrHash} -----------------------------------------------------


@pytest.fixture
def type4_result(contract):
    result = create_result(T, CONTRACT)
    create_result_transaction(result, T - 100)
    create_ethereum_transaction(result, type=4, authorization_list=AUTHORIZATION, chain_id=b"")
    return result


@pytest.mark.parametrize(
    "path",
    [
        f"0.0.8001-{(T - 100) // 10**9}-{(T - 100) % 10**9:09d}",
        f"0.0.8001-{(T - 100) // 10**9}-{(T - 100) % 10**9:09d}?nonce=0",
        eth_hash(T).hex(),
        "0x" + eth_hash(T).hex() + "?nonce=3",
    ],
)
def test_result_by_transaction_carries_its_authorization_list(client, type4_result, path):
    response = client.get(f"/api/v1/contracts/results/{path}")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    body = response.json()
    assert (body["type"], body["authorization_list"], body["chain_id"]) == (4, AUTHORIZATION, "0x")
    assert body["timestamp"] == ts(T)
    assert {"logs", "state_changes"} <= body.keys()


def test_result_by_hash_prefers_a_successful_transaction(client, contract):
    create_result(T, CONTRACT, transaction_result=33, transaction_hash=eth_hash(1))
    create_result(T + 1, CONTRACT, transaction_hash=eth_hash(1))
    create_result(T + 2, CONTRACT, transaction_result=33, transaction_hash=eth_hash(1))
    assert client.get(f"/api/v1/contracts/results/{eth_hash(1).hex()}").json()["timestamp"] == ts(T + 1)


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        (f"0.0.8001-{(T - 100) // 10**9}-{(T - 100) % 10**9:09d}?nonce=1", 404, envelope("Not found")),
        ("0.0.8001-1-1", 404, envelope("Not found")),
        ("ab" * 32, 404, envelope("Not found")),
        (
            "1",
            400,
            envelope(
                'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format'
                " where sss are seconds and nnn are nanoseconds"
            ),
        ),
        (
            "ab" * 48,
            400,
            envelope(
                'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format'
                " where sss are seconds and nnn are nanoseconds"
            ),
        ),
        (
            f"{'ab' * 32}?nonce=-1&nonce=lt:2",
            400,
            envelope("Invalid parameter: nonce", "Invalid parameter: nonce"),
        ),
        (
            f"{'ab' * 32}?hbar=1&foo=2",
            400,
            envelope("Invalid parameter: hbar", "Unknown query parameter: foo"),
        ),
        (
            f"{'ab' * 32}?foo=1&nonce=x&hbar=y",
            400,
            envelope("Unknown query parameter: foo", "Invalid parameter: nonce", "Invalid parameter: hbar"),
        ),
        (
            f"{'ab' * 32}?hbar=true&hbar=false",
            400,
            envelope("Invalid hbar parameter value: true,false. Must be 'true' or 'false'"),
        ),
    ],
)
def test_result_by_transaction_errors(client, type4_result, path, status, body):
    response = client.get(f"/api/v1/contracts/results/{path}")
    assert (response.status_code, response.json()) == (status, body)


def test_result_by_transaction_shows_every_non_migration_state_change(client, contract):
    create_result(T, CONTRACT)
    create_state_change(T, CONTRACT, b"\x01", migration=True)
    create_state_change(T, CONTRACT, b"\x02")
    create_state_change(T, 5009, b"\x03")
    body = client.get(f"/api/v1/contracts/results/{eth_hash(T).hex()}").json()
    assert [(change["contract_id"], change["slot"][-2:]) for change in body["state_changes"]] == [
        ("0.0.5001", "02"),
        ("0.0.5009", "03"),
    ]
