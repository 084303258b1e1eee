"""The Hedera system contracts a call can reach, answered from the mirror tables.

- 0x168 exchange rate: `tinycentsToTinybars(uint256)`, `tinybarsToTinycents(uint256)` at the
  rate in force (file 0.0.112).
- 0x169 PRNG: `getPseudorandomSeed()`, a 32-byte seed from the block's hash.
- 0x167 token service: `isToken(address)`, `getTokenInfo(address)` and
  `redirectForToken(address,bytes)`; a call to a token's own address is the same redirect.
  Redirected reads: `name`, `symbol`, `decimals`, `totalSupply`, `balanceOf`, `allowance`.

Calls carrying value to 0x168/0x169 revert, as the upstream's. Any other function answers
501 naming its selector (`NotSupported`). Tokens and balances are read as of the call's block
(`MirrorReader`); allowances are the latest.
"""

from collections.abc import Callable

from eth.exceptions import Revert
from eth_abi import decode, encode
from eth_hash.auto import keccak

from apps.common.ledger.codecs import MAX_LONG
from apps.contracts.evm.errors import ExecutionFailed, NotSupported
from apps.contracts.evm.mirror import Account, long_zero_address

HTS_ADDRESS = (0x167).to_bytes(20, "big")
EXCHANGE_RATE_ADDRESS = (0x168).to_bytes(20, "big")
PRNG_ADDRESS = (0x169).to_bytes(20, "big")

# Gas a system-contract read costs (the upstream prices them from its fee schedule).
SYSTEM_CONTRACT_GAS = 100
SUCCESS = 22  # ResponseCodeEnum.SUCCESS


def selector(signature: str) -> bytes:
    return keccak(signature.encode())[:4]


def _exchange_rate(computation) -> tuple[int, int]:
    """(hbar_equiv, cent_equiv) of the rate in force at the call's state."""
    from apps.network.protobuf import parse_exchange_rate_set
    from apps.network.selectors import EXCHANGE_RATE_FILE, latest_system_file

    timestamp = computation.state.reader.timestamp
    rates = latest_system_file(
        EXCHANGE_RATE_FILE, upper=MAX_LONG if timestamp is None else timestamp, parse=parse_exchange_rate_set
    )
    if rates is None:
        raise ExecutionFailed("FAIL_INVALID", "File 0.0.112 not found")
    rate = rates.data.currentRate
    return rate.hbarEquiv, rate.centEquiv


def _no_value(computation) -> bytes:
    if computation.msg.value:
        raise Revert(b"")
    computation.consume_gas(SYSTEM_CONTRACT_GAS, reason="system contract")
    return bytes(computation.msg.data)


def exchange_rate(computation):
    data = _no_value(computation)
    function, argument = data[:4], data[4:]
    if function not in (TINYCENTS_TO_TINYBARS, TINYBARS_TO_TINYCENTS) or len(argument) != 32:
        raise NotSupported(f"Exchange rate system contract function 0x{function.hex()} is not supported")
    amount = int.from_bytes(argument, "big")
    hbars, cents = _exchange_rate(computation)
    converted = amount * hbars // cents if function == TINYCENTS_TO_TINYBARS else amount * cents // hbars
    computation.output = encode(["uint256"], [converted])
    return computation


def prng(computation):
    data = _no_value(computation)
    if data[:4] != GET_PSEUDORANDOM_SEED:
        raise NotSupported(f"PRNG system contract function 0x{data[:4].hex()} is not supported")
    computation.output = keccak(computation.state.execution_context.mix_hash)
    return computation


def token_service(computation):
    computation.consume_gas(SYSTEM_CONTRACT_GAS, reason="system contract")
    data = bytes(computation.msg.data)
    function = data[:4]
    if function == IS_TOKEN:
        (address,) = _decode(["address"], data)
        computation.output = encode(["int64", "bool"], [SUCCESS, _token(computation, address) is not None])
    elif function == GET_TOKEN_INFO:
        (address,) = _decode(["address"], data)
        computation.output = encode(["int64", TOKEN_INFO], [SUCCESS, _token_info(computation, address)])
    elif function == REDIRECT_FOR_TOKEN:
        address, inner = _decode(["address", "bytes"], data)
        token = _token(computation, address)
        if token is None:
            raise Revert(b"")
        computation.output = token_redirect(computation, token, inner)
    else:
        raise NotSupported(f"Token service system contract function 0x{function.hex()} is not supported")
    return computation


def call_token(computation, account: Account):
    """A call to a token's own address: the token service's redirect."""
    computation.consume_gas(SYSTEM_CONTRACT_GAS, reason="token redirect")
    token = _token_row(computation, account.entity_id)
    computation.output = token_redirect(computation, token, bytes(computation.msg.data))


def token_redirect(computation, token: dict, data: bytes) -> bytes:
    function = data[:4]
    handler = _TOKEN_READS.get(function)
    if handler is None:
        raise NotSupported(f"Token redirect function 0x{function.hex()} is not supported")
    return handler(computation, token, data)


def _decode(types: list[str], data: bytes) -> tuple:
    try:
        return decode(types, data[4:])
    except Exception:
        raise Revert(b"") from None


def _entity_id(computation, address: str) -> int | None:
    account = computation.state.mirror_account(bytes.fromhex(address[2:]))
    return account.entity_id if account else None


def _token(computation, address: str) -> dict | None:
    account = computation.state.mirror_account(bytes.fromhex(address[2:]))
    return _token_row(computation, account.entity_id) if account and account.is_token else None


def _token_row(computation, token_id: int) -> dict:
    token = computation.state.reader.token(token_id)
    if token is None:
        raise Revert(b"")
    return token


def _balance_of(computation, token: dict, data: bytes) -> bytes:
    (owner,) = _decode(["address"], data)
    account_id = _entity_id(computation, owner)
    balance = 0 if account_id is None else computation.state.reader.token_balance(account_id, token["token_id"])
    return encode(["uint256"], [balance])


def _allowance(computation, token: dict, data: bytes) -> bytes:
    owner, spender = _decode(["address", "address"], data)
    owner_id, spender_id = _entity_id(computation, owner), _entity_id(computation, spender)
    amount = 0
    if owner_id is not None and spender_id is not None:
        amount = computation.state.reader.token_allowance(owner_id, spender_id, token["token_id"])
    return encode(["uint256"], [amount])


TOKEN_INFO = (
    "((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],"
    "(int64,address,int64)),int64,bool,bool,bool,(int64,address,bool,bool,address)[],"
    "(int64,int64,int64,int64,bool,address)[],(int64,int64,int64,address,bool,address)[],string)"
)


def _token_info(computation, address: str) -> tuple:
    """The token's fields; keys and custom fees are not read (empty lists)."""
    token = _token(computation, address)
    if token is None:
        raise Revert(b"")
    hedera_token = (
        token["name"],
        token["symbol"],
        long_zero_address(token["treasury"]),
        token["memo"] or "",
        token["supply_type"] == "FINITE",
        token["max_supply"],
        token["freeze_default"],
        [],
        (
            (token["expiration"] or 0) // 10**9,
            long_zero_address(token["auto_renew_account"] or 0),
            token["auto_renew_period"] or 0,
        ),
    )
    return (
        hedera_token,
        token["total_supply"],
        bool(token["deleted"]),
        token["has_kyc_key"],
        token["pause_status"] == "PAUSED",
        [],
        [],
        [],
        computation.state.ledger_id,
    )


def _string_field(field: str) -> Callable:
    return lambda computation, token, data: encode(["string"], [token[field]])


def _uint_field(field: str) -> Callable:
    return lambda computation, token, data: encode(["uint256"], [token[field]])


TINYCENTS_TO_TINYBARS = selector("tinycentsToTinybars(uint256)")
TINYBARS_TO_TINYCENTS = selector("tinybarsToTinycents(uint256)")
GET_PSEUDORANDOM_SEED = selector("getPseudorandomSeed()")
IS_TOKEN = selector("isToken(address)")
GET_TOKEN_INFO = selector("getTokenInfo(address)")
REDIRECT_FOR_TOKEN = selector("redirectForToken(address,bytes)")
_TOKEN_READS: dict[bytes, Callable] = {
    selector("name()"): _string_field("name"),
    selector("symbol()"): _string_field("symbol"),
    selector("decimals()"): _uint_field("decimals"),
    selector("totalSupply()"): _uint_field("total_supply"),
    selector("balanceOf(address)"): _balance_of,
    selector("allowance(address,address)"): _allowance,
}

SYSTEM_CONTRACTS = {HTS_ADDRESS: token_service, EXCHANGE_RATE_ADDRESS: exchange_rate, PRNG_ADDRESS: prng}
