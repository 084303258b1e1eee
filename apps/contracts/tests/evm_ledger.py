"""A small ledger of real compiled contracts (fixtures/contracts, solc 0.8.24) for the EVM tests.

Blocks 1-3; accounts 0.0.2 (treasury), 0.0.1001 (an EOA with an EVM address), 0.0.1002
(an EOA delegating to the storage contract, EIP-7702); contracts 0.0.2001 Storage,
0.0.2002 ERC20, 0.0.2003 Reverter, 0.0.2004 SystemCaller; token 0.0.3001 held by 0.0.1001;
the exchange rate 1 hbar = 12 cents.
"""

import json
from pathlib import Path

from django.conf import settings
from eth_abi import encode
from eth_hash.auto import keccak

from apps.common.database.fixtures import load_rows
from apps.network.tests.factories import create_file_data, exchange_rate_set

CONTRACTS = json.loads((Path(settings.BASE_DIR) / "fixtures" / "contracts" / "contracts.json").read_text())
SECOND = 1_000_000_000
T = 1_700_000_000 * SECOND
# Blocks: number -> (consensus_start, consensus_end)
BLOCKS = {1: (T, T + 2 * SECOND - 1), 2: (T + 2 * SECOND, T + 4 * SECOND - 1), 3: (T + 4 * SECOND, T + 6 * SECOND - 1)}

EOA = 1001
DELEGATING_EOA = 1002
STORAGE, ERC20, REVERTER, SYSTEM_CALLER = 2001, 2002, 2003, 2004
TOKEN = 3001
EOA_ADDRESS = bytes.fromhex("a1" * 20)
DELEGATING_ADDRESS = bytes.fromhex("b2" * 20)
STORAGE_ADDRESS = bytes.fromhex("c3" * 20)


def long_zero(num: int) -> bytes:
    return num.to_bytes(20, "big")


def hex0x(data: bytes) -> str:
    return "0x" + data.hex()


def calldata(signature: str, types: list[str] = (), values: list = ()) -> str:
    return hex0x(keccak(signature.encode())[:4] + encode(list(types), list(values)))


def block_hash(number: int) -> str:
    return f"{number:02x}" * 48


def word(value: int) -> bytes:
    return value.to_bytes(32, "big")


def mapping_slot(key: bytes, slot: int) -> bytes:
    return keccak(key.rjust(32, b"\x00") + word(slot))


def _bytea(data: bytes | None) -> str | None:
    return None if data is None else "\\x" + data.hex()


def _entity(num: int, type: str, *, balance: int = 0, nonce: int = 0, evm: bytes | None = None, **extra) -> dict:
    return {
        "id": num,
        "num": num,
        "realm": 0,
        "shard": 0,
        "memo": "",
        "type": type,
        "balance": balance,
        "ethereum_nonce": nonce,
        "evm_address": _bytea(evm),
        "deleted": False,
        "decline_reward": False,
        "timestamp_range": f"[{T},)",
        "created_timestamp": T,
        **extra,
    }


def _state(contract: int, slot: bytes, value: int) -> dict:
    return {"contract_id": contract, "slot": _bytea(slot), "value": _bytea(word(value)), "created_timestamp": T,
            "modified_timestamp": T}


def _change(timestamp: int, contract: int, slot: bytes, read: int, written: int | None) -> dict:
    return {
        "consensus_timestamp": timestamp,
        "contract_id": contract,
        "payer_account_id": 2,
        "slot": _bytea(slot.lstrip(b"\x00")),
        "value_read": _bytea(word(read)),
        "value_written": None if written is None else _bytea(word(written)),
        "migration": False,
    }


def _record_file(number: int) -> dict:
    start, end = BLOCKS[number]
    return {
        "name": f"{number}.rcd", "load_start": 0, "load_end": 0, "hash": block_hash(number),
        "prev_hash": block_hash(number - 1), "consensus_start": start, "consensus_end": end, "count": 1,
        "digest_algorithm": 0, "version": 6, "file_hash": "00", "index": number, "gas_used": 0,
        "sidecar_count": 0,
    }


def runtime(name: str) -> bytes:
    return bytes.fromhex(CONTRACTS[name]["runtime"][2:])


def load_ledger() -> None:
    holder_slot = mapping_slot(EOA_ADDRESS, 0)
    load_rows(
        {
            "record_file": [_record_file(number) for number in BLOCKS],
            "entity": [
                _entity(2, "ACCOUNT", balance=5_000_000_000),
                _entity(98, "ACCOUNT"),
                _entity(EOA, "ACCOUNT", balance=500, nonce=3, evm=EOA_ADDRESS),
                _entity(DELEGATING_EOA, "ACCOUNT", balance=9, evm=DELEGATING_ADDRESS,
                        delegation_address=_bytea(STORAGE_ADDRESS)),
                _entity(STORAGE, "CONTRACT", balance=1234, evm=STORAGE_ADDRESS),
                _entity(ERC20, "CONTRACT"),
                _entity(REVERTER, "CONTRACT"),
                _entity(SYSTEM_CALLER, "CONTRACT"),
                _entity(TOKEN, "TOKEN", memo="token memo"),
            ],
            "contract": [
                {"id": STORAGE, "runtime_bytecode": _bytea(runtime("Storage"))},
                {"id": ERC20, "runtime_bytecode": _bytea(runtime("ERC20"))},
                {"id": REVERTER, "runtime_bytecode": _bytea(runtime("Reverter"))},
                {"id": SYSTEM_CALLER, "runtime_bytecode": _bytea(runtime("SystemCaller"))},
            ],
            "contract_state": [
                _state(STORAGE, word(0), 7),
                _state(DELEGATING_EOA, word(0), 42),
                _state(ERC20, holder_slot, 1000),
                _state(ERC20, word(2), 1_000_000),
            ],
            # Slot 0 of the storage contract: 5 in block 1, 7 from block 3.
            "contract_state_change": [
                _change(BLOCKS[1][0] + 1, STORAGE, word(0), 0, 5),
                _change(BLOCKS[3][0] + 1, STORAGE, word(0), 5, 7),
            ],
            "token": [
                {
                    "token_id": TOKEN, "created_timestamp": T, "decimals": 2, "freeze_default": False,
                    "initial_supply": 10_000, "name": "Mirror Token", "symbol": "MIRR", "total_supply": 10_000,
                    "treasury_account_id": 2, "max_supply": 9223372036854775807, "supply_type": "INFINITE",
                    "type": "FUNGIBLE_COMMON", "pause_status": "NOT_APPLICABLE", "timestamp_range": f"[{T},)",
                    "freeze_status": 0, "kyc_status": 0,
                }
            ],
            "token_account": [
                {"account_id": EOA, "token_id": TOKEN, "associated": True, "balance": 77,
                 "timestamp_range": f"[{T},)", "created_timestamp": T},
            ],
            "token_allowance": [
                {"owner": EOA, "spender": STORAGE, "token_id": TOKEN, "amount_granted": 50, "amount": 30,
                 "payer_account_id": EOA, "timestamp_range": f"[{T},)"},
            ],
        },
        source="evm_ledger",
    )
    create_file_data(112, T, exchange_rate_set((1, 12, 4_000_000_000), (1, 15, 4_100_000_000)), type=17)
