import copy

from django.urls import resolve
from drf_spectacular.utils import extend_schema

from apps.accounts.filtersets import parse_entity_id_or_num_alias
from apps.common.api.exceptions import error_response
from apps.common.api.views import MirrorViewSet, newest_timestamp_envelope
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import parse_positive_long
from apps.common.query.filters import equals_only
from apps.common.query.params import parse_query_string
from apps.tokens import selectors
from apps.tokens.api.serializers import (
    NftSerializer,
    NftTransactionSerializer,
    TokenBalanceSerializer,
    TokenInfoSerializer,
    TokenSerializer,
)
from apps.tokens.filtersets import (
    NftFilterSet,
    NftTransactionFilterSet,
    TokenBalanceFilterSet,
    TokenDetailFilterSet,
    TokenFilterSet,
)

TOKEN_ID_PARAM = "token.id"


def token_id_from_path(text: str) -> int:
    try:
        return parse_entity_id_or_num_alias(text)
    except ValueError:
        # The upstream names the path parameter in lower case here.
        raise InvalidArgument.for_params("tokenid") from None


def serial_number_from_path(text: str) -> int:
    try:
        return parse_positive_long(text)
    except ValueError:
        raise InvalidArgument.for_params("serialnumber") from None


@extend_schema(
    summary="List tokens",
    description="Tokens, each with its name, symbol, type, decimals, metadata and admin key, in order of "
    "token id. `name` finds the tokens whose name contains it (in any case) and answers one page, with no "
    "`links.next`; it goes with neither `token.id` nor `account.id`.",
)
class TokenViewSet(MirrorViewSet):
    filterset_class = TokenFilterSet
    detail_filterset_class = TokenDetailFilterSet
    selector = selectors.token_list
    serializer_class = TokenSerializer
    results_key = "tokens"
    cache_control = {"list": "public, max-age=10", "retrieve": "public, max-age=5"}
    list_cache = True

    @extend_schema(
        summary="Get a token",
        description="One token with its keys, supplies, custom fees, treasury, expiry and status: as it is "
        "now or, with `timestamp`, as it was then. A token that does not exist, or had no custom fees "
        "recorded at that time, answers 404.",
    )
    def retrieve(self, request, token_id):
        token = token_id_from_path(token_id)
        as_of = self.detail_filterset_class(self.query_params(), request=self.request).as_of()
        info = selectors.token_info(token_id=token, as_of=as_of)
        if info is None:
            raise NotFound()
        return self.answer(TokenInfoSerializer(info).data)


@extend_schema(
    summary="List a token's balances",
    description="The accounts holding the token, each with its balance of it: as they are now or, with "
    "`timestamp`, as recorded by the newest balance snapshot in that range. The answer's `timestamp` is when "
    "the newest balance on the page was recorded. The accounts come in order of account id.",
)
class TokenBalanceViewSet(MirrorViewSet):
    filterset_class = TokenBalanceFilterSet
    selector = selectors.token_balance_list
    serializer_class = TokenBalanceSerializer
    results_key = "balances"

    def scope(self) -> tuple[int]:
        return (token_id_from_path(self.kwargs["token_id"]),)

    def list_envelope(self, rows):
        return newest_timestamp_envelope(rows)


@extend_schema(
    summary="List a token's NFTs",
    description="The NFTs of a non-fungible token, each with its owner, spender, metadata and whether it was "
    "deleted, in order of serial number.",
)
class NftViewSet(MirrorViewSet):
    filterset_class = NftFilterSet
    selector = selectors.nft_list
    serializer_class = NftSerializer
    results_key = "nfts"

    def scope(self) -> tuple[int]:
        return (token_id_from_path(self.kwargs["token_id"]),)

    @extend_schema(
        summary="Get an NFT",
        description="One NFT of a token, by serial number: its owner, spender, metadata and whether it was "
        "deleted. It takes no query parameter. An NFT that does not exist answers 404.",
    )
    def retrieve(self, request, token_id, serial_number):
        token = token_id_from_path(token_id)
        serial = serial_number_from_path(serial_number)
        self.validate_detail_query()
        nft = selectors.nft_get(token_id=token, serial_number=serial)
        if nft is None:
            raise NotFound()
        nft["modified_timestamp"] = nft["timestamp_range"].lower
        return self.answer(self.represent_one(nft))


@extend_schema(
    summary="List an NFT's transactions",
    description="The transactions that minted, transferred, burned or wiped the NFT, or deleted its token, "
    "each with its sender, receiver and type, in order of consensus timestamp. The answer is 206 Partial "
    "Content when the mirror does not hold the NFT's creation, so its history may be incomplete.",
)
class NftTransactionViewSet(MirrorViewSet):
    filterset_class = NftTransactionFilterSet
    selector = selectors.nft_transaction_list
    serializer_class = NftTransactionSerializer
    results_key = "transactions"

    def scope(self) -> tuple[int, int]:
        return token_id_from_path(self.kwargs["token_id"]), serial_number_from_path(self.kwargs["serial_number"])

    def list_status(self, rows: list) -> int:
        # Without the NFT's creation the mirror holds only part of its history.
        return 206 if rows and rows[0]["nft_created_timestamp"] is None else 200


def token_id_param_view(request, **kwargs):
    """`/tokens/<rest>?token.id=X&...` answered as `/tokens/X/<rest>?...`, the long form it abbreviates."""
    query_string = request.META.get("QUERY_STRING", "")
    values = parse_query_string(query_string).get(TOKEN_ID_PARAM)
    if not values:
        return error_response(InvalidArgument(f"Missing required parameter: {TOKEN_ID_PARAM}"))
    try:
        if len(values) != 1 or values[0] is None:
            raise ValueError("one token id expected")
        token_text = equals_only(str)(values[0])
        parse_entity_id_or_num_alias(token_text)
    except ValueError:
        return error_response(InvalidArgument.for_params(TOKEN_ID_PARAM))

    path_info = request.path_info.replace("/tokens/", f"/tokens/{token_text}/", 1)
    kept = "&".join(part for part in query_string.split("&") if TOKEN_ID_PARAM not in parse_query_string(part))
    forwarded = copy.copy(request)
    forwarded.META = forwarded.environ = {**request.META, "PATH_INFO": path_info, "QUERY_STRING": kept}
    forwarded.path = request.path.removesuffix(request.path_info) + path_info
    forwarded.path_info = path_info
    forwarded.__dict__.pop("GET", None)
    match = resolve(path_info)
    forwarded.resolver_match = match
    return match.func(forwarded, *match.args, **match.kwargs)
