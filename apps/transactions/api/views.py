import base64
import re

from drf_spectacular.utils import extend_schema

from apps.common import clock
from apps.common.api.views import MirrorViewSet, represent
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import MAX_NUM, MAX_REALM, MAX_SHARD, encode_entity_id
from apps.transactions import selectors
from apps.transactions.api.serializers import (
    TransactionDetailSerializer,
    TransactionSerializer,
)
from apps.transactions.filtersets import (
    TransactionDetailFilterSet,
    TransactionFilterSet,
)

INVALID_TRANSACTION_ID = (
    'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds'
)
CACHE_CONTROL_PENDING_SCHEDULE = "public, max-age=5"

_TRANSACTION_ID = re.compile(r"^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$")
_HEX_HASH = re.compile(r"^(?:0x)?([0-9A-Fa-f]{96})$")
_BASE64_HASH = re.compile(r"^[A-Za-z0-9_+/-]{64}$")
NANOS_PER_SECOND = 1_000_000_000


@extend_schema(
    summary="List transactions",
    description="Transactions with their type, result, fees and transfers of hbars, tokens and NFTs, in order "
    "of consensus timestamp. `account.id` keeps those the account paid for or took part in; `type` keeps "
    "those crediting (or debiting) an account, that one when `account.id` names it.",
)
class TransactionViewSet(MirrorViewSet):
    filterset_class = TransactionFilterSet
    detail_filterset_class = TransactionDetailFilterSet
    serializer_class = TransactionSerializer
    results_key = "transactions"
    selector = selectors.transaction_list
    cache_control = {"list": "public, max-age=2", "retrieve": "public, max-age=600"}
    lookup_url_kwarg = "transaction_id_or_hash"
    lookup_value_regex = "[^/]+"

    @extend_schema(
        summary="Get a transaction",
        description="The transactions with one transaction id, or the one with a transaction hash, each with "
        "its transfers and assessed custom fees, in order of consensus timestamp. Transactions share an id "
        "when one caused others (its child transactions, told apart by `nonce`) or scheduled one (`scheduled`). "
        "None found answers 404.",
    )
    def retrieve(self, request, transaction_id_or_hash):
        filterset = self.detail_filterset_class(self.query_params(), request=request)
        filterset.validate()
        nonce, scheduled = filterset.value("nonce"), filterset.value("scheduled")
        if transaction_hash := parse_transaction_hash(transaction_id_or_hash):
            lookup = selectors.transactions_by_hash(
                transaction_hash=transaction_hash, nonce=nonce, scheduled=scheduled
            )
        else:
            payer, valid_start = parse_transaction_id(transaction_id_or_hash)
            lookup = selectors.transactions_by_id(
                payer=payer, valid_start=valid_start, nonce=nonce, scheduled=scheduled, now=clock.now_ns()
            )
        if not lookup.rows:
            raise NotFound()
        response = self.answer({"transactions": represent(TransactionDetailSerializer(), lookup.rows)})
        if lookup.pending_schedule:
            response["Cache-Control"] = CACHE_CONTROL_PENDING_SCHEDULE
        return response


def parse_transaction_hash(text: str) -> bytes | None:
    """The 48 bytes of a transaction hash written in hex (optionally 0x) or base64url; None otherwise."""
    if match := _HEX_HASH.match(text):
        return bytes.fromhex(match.group(1))
    if _BASE64_HASH.match(text):
        return base64.b64decode(text.replace("-", "+").replace("_", "/"))
    return None


def parse_transaction_id(text: str) -> tuple[int, int]:
    """(encoded payer, valid start ns) of `shard.realm.num-seconds-nanos`; InvalidArgument otherwise."""
    match = _TRANSACTION_ID.match(text)
    if not match:
        raise InvalidArgument(INVALID_TRANSACTION_ID)
    shard, realm, num, seconds, nanos = (int(part) for part in match.groups())
    valid_start = seconds * NANOS_PER_SECOND + nanos
    if shard > MAX_SHARD or realm > MAX_REALM or num > MAX_NUM or valid_start >= 1 << 63:
        raise InvalidArgument(INVALID_TRANSACTION_ID)
    return encode_entity_id(shard, realm, num), valid_start
