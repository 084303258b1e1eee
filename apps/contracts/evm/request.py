"""The `POST /contracts/call` body, read and validated as the upstream's web3 service does.

Unknown fields are ignored; each violated field gives one `Bad Request` message.
"""

import re
from dataclasses import dataclass

import orjson
from django.conf import settings

from apps.common.ledger.codecs import MAX_LONG, encode_entity_id
from apps.contracts.evm.errors import BadRequest
from apps.contracts.evm.mirror import long_zero_address

_BLOCK_TAG = re.compile(r"^(earliest|finalized|latest|pending|safe)$", re.IGNORECASE)
_BLOCK_DECIMAL = re.compile(r"^\d{1,20}$")
_BLOCK_HEX_NUMBER = re.compile(r"^0x[0-9a-f]{1,16}$", re.IGNORECASE)
_BLOCK_HASH = re.compile(r"^0x([0-9a-f]{64}|[0-9a-f]{96})$", re.IGNORECASE)
_BLOCK_HEX = re.compile(r"^0x[0-9a-f]+$", re.IGNORECASE)
_DATA = re.compile(r"^(0[xX])?[0-9a-fA-F]*$")
_ADDRESS = re.compile(r"^(0x)?[0-9a-fA-F]{40}$")
_ENTITY_ID = re.compile(r"^(\d{1,4})\.(\d{1,5})\.(\d{1,12})$")
MAX_DATA_HEX_DIGITS = 1048576


@dataclass(frozen=True, slots=True)
class BlockSelector:
    """`tag` is `latest` or `earliest`; otherwise a `number` or a `hash` (hex, no 0x)."""

    tag: str | None = None
    number: int | None = None
    hash: str | None = None


LATEST = BlockSelector(tag="latest")


@dataclass(frozen=True, slots=True)
class CallRequest:
    block: BlockSelector
    data: bytes
    estimate: bool
    sender: bytes | None
    gas: int
    gas_price: int
    to: bytes | None
    value: int


def parse_block(value) -> BlockSelector:
    if value is None or value == "":
        return LATEST
    text = str(value)
    if _BLOCK_TAG.match(text):
        tag = text.lower()
        return BlockSelector(tag="earliest" if tag == "earliest" else "latest")
    if _BLOCK_DECIMAL.match(text):
        number = int(text)
        if number > MAX_LONG:
            raise BadRequest(f"Decimal value out of range for block: {text}")
        return BlockSelector(number=number)
    if _BLOCK_HASH.match(text):
        return BlockSelector(hash=text[2:].lower())
    if _BLOCK_HEX_NUMBER.match(text):
        number = int(text, 16)
        if number > MAX_LONG:
            raise BadRequest(f"Hex value out of range for block: {text}")
        return BlockSelector(number=number)
    if _BLOCK_HEX.match(text) and len(text) <= 18:
        raise BadRequest(f"Hex value out of range for block: {text}")
    raise BadRequest(f"Invalid block value: {text}")


def parse_call_request(body: bytes) -> CallRequest:
    try:
        document = orjson.loads(body or b"")
    except orjson.JSONDecodeError as error:
        raise BadRequest(f"JSON parse error: {error}") from None
    if not isinstance(document, dict):
        raise BadRequest("JSON parse error: the request body must be a JSON object")
    problems: list[str] = []
    if document.get("state_overrides"):
        raise BadRequest("State overrides are not supported.")

    def number(name: str, default: int) -> int:
        value = document.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            problems.append(f"JSON parse error: {name} must be a number")
            return default
        try:
            parsed = int(value)
        except ValueError:
            problems.append(f"JSON parse error: {name} must be a number")
            return default
        if not -MAX_LONG - 1 <= parsed <= MAX_LONG:
            problems.append(f"JSON parse error: {name} is out of range of a long")
            return default
        return parsed

    def address(name: str) -> bytes | None:
        value = document.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            problems.append(f"{name} field invalid hexadecimal string")
            return None
        if _ADDRESS.match(value):
            return bytes.fromhex(value[-40:])
        entity = _ENTITY_ID.match(value)
        if entity:
            shard, realm, num = map(int, entity.groups())
            if (shard, realm) == (settings.MIRROR["SHARD"], settings.MIRROR["REALM"]):
                return long_zero_address(encode_entity_id(shard, realm, num))
        problems.append(f"{name} field invalid hexadecimal string")
        return None

    block = LATEST
    try:
        block = parse_block(document.get("block"))
    except BadRequest as error:
        problems.extend(message["detail"] for message in error.messages)

    data = b""
    raw_data = document.get("data")
    if raw_data is not None:
        if not isinstance(raw_data, str) or not _DATA.match(raw_data) or len(raw_data) > MAX_DATA_HEX_DIGITS + 2:
            problems.append("data field invalid hexadecimal string")
        else:
            digits = raw_data[2:] if raw_data[:2] in ("0x", "0X") else raw_data
            if len(digits) % 2:
                problems.append("data field invalid hexadecimal string: Odd number of characters.")
            else:
                data = bytes.fromhex(digits)

    estimate = document.get("estimate")
    if estimate is not None and not isinstance(estimate, bool):
        problems.append("JSON parse error: estimate must be a boolean")
    sender = address("from")
    to = address("to")
    max_gas = settings.WEB3["MAX_GAS_LIMIT"]
    gas = number("gas", max_gas)
    if gas < 21000:
        problems.append("gas field must be greater than or equal to 21000")
    elif gas > max_gas:
        problems.append(f"gas field must be less than or equal to {max_gas}")
    gas_price = number("gasPrice", 0)
    if gas_price < 0:
        problems.append("gasPrice field must be greater than or equal to 0")
    value = number("value", 0)
    if value < 0:
        problems.append("value field must be greater than or equal to 0")
    if value > 0 and sender is None and "from field invalid hexadecimal string" not in problems:
        problems.append("from field must not be empty")
    if value > 0 and sender is not None and to is None and not data:
        problems.append("to field must not be empty")
    if problems:
        raise BadRequest(*problems)
    return CallRequest(
        block=block,
        data=data,
        estimate=bool(estimate),
        sender=sender,
        gas=gas,
        gas_price=gas_price,
        to=to,
        value=value,
    )
