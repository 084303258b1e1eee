"""Read-only admin for tokens and their NFTs.

NFTs have a composite primary key, which the admin cannot register: a token's
NFTs, and one NFT with its transfers, are pages of the token's admin.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from apps.common.admin import (
    MirrorModelAdmin,
    column,
    detail_display,
    display_as_stored,
    display_bytes,
    display_entity_id,
    display_key,
    display_timestamp,
    entity_link,
    enum_names,
    timestamp_link,
)
from apps.common.ledger.codecs import (
    format_entity_id,
    parse_entity_id,
    parse_positive_long,
)
from apps.tokens import selectors
from apps.tokens.api.serializers import (
    FREEZE_STATUSES,
    KYC_STATUSES,
    NftTransactionSerializer,
)
from apps.tokens.models import Token, TokenType

NFTS_PER_PAGE = 100
account_link = entity_link("ACCOUNT")
KEY_COLUMNS = ("fee_schedule_key", "freeze_key", "kyc_key", "metadata_key", "pause_key", "supply_key", "wipe_key")


@admin.register(Token)
class TokenAdmin(MirrorModelAdmin):
    page_kinds = ("TOKEN",)
    list_display = (
        column("token_id", display_entity_id, description="token id", sortable=True),
        "name",
        "symbol",
        column("type", display_as_stored),
        "nfts",
    )
    search_fields = ("name", "symbol")
    search_help_text = "Token id (0.0.1234), or part of a name or symbol"
    ordering = ("token_id",)
    column_displays = {
        "token_id": display_entity_id,
        "created_timestamp": timestamp_link("TRANSACTION"),
        **dict.fromkeys(KEY_COLUMNS, display_key),
        "freeze_status": enum_names(FREEZE_STATUSES),
        "kyc_status": enum_names(KYC_STATUSES),
        "metadata": display_bytes,
        "treasury_account_id": account_link,
    }
    detail_related = ("nfts",)

    @detail_display("NFTs")
    def nfts(self, token):
        if token.type != TokenType.NON_FUNGIBLE_UNIQUE:
            return None
        return format_html('<a href="{}">NFTs</a>', reverse("admin:tokens_token_nfts", args=[token.token_id]))

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        try:
            token_id = parse_entity_id(term, allow_evm_address=False).encoded
        except ValueError:
            return super().get_search_results(request, queryset, term)
        return queryset.filter(token_id=token_id), False

    def get_urls(self):
        return [
            path("<int:token_id>/nfts/", self.admin_site.admin_view(self.nft_list_view), name="tokens_token_nfts"),
            path(
                "<int:token_id>/nfts/<int:serial_number>/",
                self.admin_site.admin_view(self.nft_view),
                name="tokens_token_nft",
            ),
            *super().get_urls(),
        ]

    def nft_list_view(self, request, token_id):
        """The token's NFTs, newest serial first; `q` finds one serial, `before` pages."""
        token = self._viewable_token(request, token_id)
        nfts = selectors.nft_queryset(token_id=token_id).order_by("-serial_number")
        search = request.GET.get("q", "").strip()
        before = request.GET.get("before")
        try:
            if search:
                nfts = nfts.filter(serial_number=parse_positive_long(search))
            if before:
                nfts = nfts.filter(serial_number__lt=parse_positive_long(before))
        except ValueError:
            nfts = nfts.none()
        page = list(nfts[:NFTS_PER_PAGE])
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"NFTs of {format_entity_id(token_id)} {token.name}",
            "token": token,
            "nfts": [
                {
                    **nft,
                    "account": account_link(nft["account_id"]),
                    "created_timestamp": display_timestamp(nft["created_timestamp"]),
                }
                for nft in page
            ],
            "search": search,
            "next_before": page[-1]["serial_number"] if len(page) == NFTS_PER_PAGE else None,
        }
        return TemplateResponse(request, "admin/tokens/nft_list.html", context)

    def nft_view(self, request, token_id, serial_number):
        """One NFT and its transfers, newest first."""
        token = self._viewable_token(request, token_id)
        nft = selectors.nft_get(token_id=token_id, serial_number=serial_number)
        if nft is None:
            raise Http404("No such NFT")
        transfers = selectors.nft_transactions(
            token_id=token_id, serial_number=serial_number, timestamps=(), limit=NFTS_PER_PAGE, order="desc"
        )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"NFT {format_entity_id(token_id)} #{serial_number}",
            "token": token,
            "nft": {
                **nft,
                "account": account_link(nft["account_id"]),
                "spender_id": account_link(nft["spender"]),
                "created_timestamp": timestamp_link("TRANSACTION")(nft["created_timestamp"]),
                "modified_timestamp": display_timestamp(nft["timestamp_range"].lower),
            },
            "transfers": NftTransactionSerializer(transfers, many=True).data,
        }
        return TemplateResponse(request, "admin/tokens/nft_detail.html", context)

    def _viewable_token(self, request, token_id) -> Token:
        if not self.has_view_permission(request):
            raise PermissionDenied
        token = Token.objects.filter(token_id=token_id).first()
        if token is None:
            raise Http404("No such token")
        return token
