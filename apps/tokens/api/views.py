import copy

from django.urls import resolve

from apps.common import clock
from apps.common.api.exceptions import InvalidArgument, NotFound, error_response
from apps.common.api.views import MirrorViewSet, newest_timestamp_envelope
from apps.common.codecs import format_entity_id, format_timestamp, parse_positive_long, parse_timestamp
from apps.common.pagination import Anchor
from apps.common.scoped_pages import ScopedPages
from apps.common.query import parse_query_string
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
    parse_equals,
    parse_token_id,
)
from apps.tokens.models import Nft, TokenAccount

TOKEN_ID_PARAM = "token.id"


def token_id_from_path(text: str) -> int:
    try:
        return parse_token_id(text)
    except ValueError:
        # The upstream names the path parameter in lower case here.
        raise InvalidArgument.for_params("tokenid") from None


def serial_number_from_path(text: str) -> int:
    try:
        return parse_positive_long(text)
    except ValueError:
        raise InvalidArgument.for_params("serialnumber") from None


class TokenViewSet(MirrorViewSet):
    filterset_class = TokenFilterSet
    detail_filterset_class = TokenDetailFilterSet
    serializer_class = TokenSerializer
    results_key = "tokens"
    pagination_anchors = (Anchor(TOKEN_ID_PARAM, "token_id", format=format_entity_id, parse=parse_token_id),)
    cache_control = {"list": "public, max-age=10", "retrieve": "public, max-age=5"}
    list_cache = True

    def get_queryset(self):
        return selectors.token_queryset()

    def get_pagination_anchors(self, filterset):
        return self.pagination_anchors if filterset.paged else ()

    def retrieve(self, request, token_id):
        token = token_id_from_path(token_id)
        # Validation only: no queryset (the list's would cost more to build than the token takes to read).
        as_of = self.detail_filterset_class(self.query_params(), request=self.request).as_of()
        info = selectors.token_info(token_id=token, as_of=as_of)
        if info is None:
            raise NotFound()
        return self.answer(TokenInfoSerializer(info).data)


class TokenBalanceViewSet(MirrorViewSet):
    filterset_class = TokenBalanceFilterSet
    serializer_class = TokenBalanceSerializer
    results_key = "balances"
    pagination_anchors = (Anchor("account.id", "account_id", format=format_entity_id, parse=parse_token_id),)

    def get_queryset(self):
        return TokenAccount.objects.none()

    def list_rows(self, filterset):
        token = token_id_from_path(self.kwargs["token_id"])
        return selectors.token_balance_list(criteria=filterset.list_filter(token), now=clock.now_ns())

    def list_envelope(self, rows):
        return newest_timestamp_envelope(rows)


class NftViewSet(ScopedPages, MirrorViewSet):
    filterset_class = NftFilterSet
    serializer_class = NftSerializer
    results_key = "nfts"
    pagination_anchors = (Anchor("serialnumber", "serial_number"),)

    def page_scope(self) -> tuple[int]:
        return (token_id_from_path(self.kwargs["token_id"]),)

    def scoped_queryset(self, token_id):
        return selectors.nft_list_queryset(token_id=token_id)

    def list_rows(self, filterset):
        rows = super().list_rows(filterset)
        for row in rows:
            row["deleted"] = row.pop("deleted_or_burned")
        return rows

    def retrieve(self, request, token_id, serial_number):
        token = token_id_from_path(token_id)
        serial = serial_number_from_path(serial_number)
        self.validate_detail_query()
        nft = selectors.nft_get(token_id=token, serial_number=serial)
        if nft is None:
            raise NotFound()
        _add_modified_timestamp(nft)
        return self.answer(self.represent_one(nft))


def _add_modified_timestamp(row: dict) -> None:
    row["modified_timestamp"] = row["timestamp_range"].lower


class NftTransactionViewSet(MirrorViewSet):
    filterset_class = NftTransactionFilterSet
    serializer_class = NftTransactionSerializer
    results_key = "transactions"
    pagination_anchors = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)

    def get_queryset(self):
        return Nft.objects.none()

    def list_rows(self, filterset):
        token = token_id_from_path(self.kwargs["token_id"])
        serial = serial_number_from_path(self.kwargs["serial_number"])
        filterset.validate()
        rows = selectors.nft_transaction_list(
            token_id=token,
            serial_number=serial,
            timestamps=tuple(filterset.form.cleaned_data.get("timestamp") or ()),
            limit=filterset.limit_value,
            order=filterset.order_value,
        )
        # Without the NFT's creation the mirror holds only part of its history.
        self.partial_history = bool(rows) and rows[0]["nft_created_timestamp"] is None
        return rows

    def list(self, request, *args, **kwargs):
        response = super().list(request, *args, **kwargs)
        if self.partial_history:
            response.status_code = 206
        return response


def token_id_param_view(request, **kwargs):
    """`/tokens/<rest>?token.id=X&...` answered as `/tokens/X/<rest>?...`, the long form it abbreviates."""
    query_string = request.META.get("QUERY_STRING", "")
    values = parse_query_string(query_string).get(TOKEN_ID_PARAM)
    if not values:
        return error_response(InvalidArgument(f"Missing required parameter: {TOKEN_ID_PARAM}"))
    try:
        if len(values) != 1 or values[0] is None:
            raise ValueError("one token id expected")
        token_text = parse_equals(values[0])
        parse_token_id(token_text)
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
