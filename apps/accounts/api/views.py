from collections.abc import Callable


from apps.accounts import selectors
from apps.accounts.api.serializers import (
    AccountSerializer,
    BalanceSerializer,
    CryptoAllowanceSerializer,
    NftAllowanceSerializer,
    StakingRewardSerializer,
    TokenAirdropSerializer,
    TokenAllowanceSerializer,
    TokenRelationshipSerializer,
)
from apps.accounts.filtersets import (
    AccountDetailFilterSet,
    AccountFilterSet,
    AccountNftFilterSet,
    BalanceFilterSet,
    CryptoAllowanceFilterSet,
    JavaListRequest,
    StakingRewardFilterSet,
    TokenAllowanceFilterSet,
    TokenRelationshipFilterSet,
    nft_allowance_request,
    parse_entity_id_or_num_alias,
    token_airdrop_request,
)
from apps.accounts.models import AccountBalance, Entity
from apps.common import clock
from apps.common.api.exceptions import DetailedError, InvalidArgument, NotFound
from apps.common.api.views import MirrorViewSet, newest_timestamp_envelope, represent
from apps.common.codecs import (
    decode_entity_id,
    format_entity_id,
    format_timestamp,
    parse_entity_id,
    parse_id_or_any_address,
    parse_timestamp,
)
from apps.common.java import JavaQuery, java_next_link
from apps.common.java import conversion_error as java_conversion_error
from apps.common.keyset import KeysetPagination
from apps.common.pagination import Anchor, next_link
from apps.common.scoped_pages import ScopedPages
from apps.tokens.api.serializers import NftSerializer
from apps.transactions import selectors as transaction_selectors
from apps.transactions.api.serializers import TransactionSerializer


def _format_account(encoded: int) -> str:
    return str(decode_entity_id(encoded))


def _parse_account(text: str) -> int:
    return parse_entity_id(text, allow_evm_address=False).encoded


class BalanceViewSet(MirrorViewSet):
    filterset_class = BalanceFilterSet
    serializer_class = BalanceSerializer
    results_key = "balances"
    pagination_anchors = (Anchor("account.id", "account_id", format=_format_account, parse=_parse_account),)

    def get_queryset(self):
        return AccountBalance.objects.none()

    def list_rows(self, filterset):
        return selectors.balance_list(criteria=filterset.list_filter(), now=clock.now_ns())

    def list_envelope(self, rows):
        return newest_timestamp_envelope(rows)


class AccountViewSet(MirrorViewSet):
    filterset_class = AccountFilterSet
    detail_filterset_class = AccountDetailFilterSet
    serializer_class = AccountSerializer
    results_key = "accounts"
    list_cache = True
    # The query may bound account.id with an EVM address too.
    pagination_anchors = (Anchor("account.id", "id", format=_format_account, parse=parse_id_or_any_address),)
    transaction_anchors = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)
    cache_control = {"list": "public, max-age=10", "retrieve": "public, max-age=2"}
    lookup_url_kwarg = "id_or_alias_or_evm_address"
    lookup_value_regex = "[^/]+"

    def get_queryset(self):
        return Entity.objects.none()

    def list_rows(self, filterset):
        return selectors.account_list(criteria=filterset.list_filter())

    def retrieve(self, request, id_or_alias_or_evm_address):
        filterset = self.get_filterset(self.detail_filterset_class)
        filterset.validate()
        account_id = selectors.account_id_from_path(id_or_alias_or_evm_address)
        if selectors.timestamp_range_is_empty(filterset.timestamps):
            raise NotFound("Timestamp range is empty")
        account = selectors.account_get(account_id=account_id, timestamps=filterset.timestamps, now=clock.now_ns())
        if account is None:
            raise NotFound()
        transactions, link = [], None
        if filterset.include_transactions:
            criteria = filterset.transaction_filter(account_id)
            timestamps = transaction_selectors.transaction_page_timestamps(criteria=criteria)
            transactions = transaction_selectors.transactions_at(timestamps=timestamps, order=criteria.order)
            if transactions and len(transactions) == criteria.limit:
                link = next_link(
                    request.path, filterset.params, criteria.order, self.transaction_anchors, transactions[-1]
                )
        return self.answer(
            {
                **AccountSerializer(account).data,
                "transactions": represent(TransactionSerializer(), transactions),
                "links": {"next": link},
            }
        )
#
# Account sub-routes
#


ID_CODEC = (format_entity_id, parse_entity_id_or_num_alias)
ID_ANCHOR = {"format": format_entity_id, "parse": parse_entity_id_or_num_alias}


class AccountPathMixin(ScopedPages):
    """Routes under `/accounts/{idOrAliasOrEvmAddress}/`, their pages compiled with the account as a parameter.

    A route that answers 404 for an unknown account (`check_account_exists`)
    reads a page that is empty without the account's entity row; a compiled page
    tells in the same statement whether the account exists (`scope_parent`), any
    other page looks the account up when it is empty. A bad query looks it up too
    (the 404 comes first).
    """

    check_account_exists = False

    def page_scope(self) -> tuple[int]:
        return (self.account_id(),)

    @property
    def scope_parent(self):
        return _account_entity if self.check_account_exists else None

    def account_id(self) -> int:
        if not hasattr(self, "_account_id"):
            self._account_id = selectors.account_id_from_path(self.kwargs["id"])
        return self._account_id

    def list_rows(self, filterset):
        if not self.check_account_exists:
            return super().list_rows(filterset)
        try:
            rows = super().list_rows(filterset)
        except InvalidArgument:
            self._require_account()
            raise
        if filterset.parent_exists is False:
            raise NotFound()
        if not rows and filterset.parent_exists is None:
            self._require_account()
        return rows

    def _require_account(self) -> None:
        if not selectors.account_exists(account_id=self.account_id()):
            raise NotFound()


def _account_entity(account_id: int):
    return selectors.entity_queryset(entity_id=account_id)


class AccountNftViewSet(AccountPathMixin, KeysetPagination, MirrorViewSet):
    filterset_class = AccountNftFilterSet
    serializer_class = NftSerializer
    results_key = "nfts"
    anchor_codecs = (ID_CODEC, (str, int))

    def scoped_queryset(self, account_id):
        return selectors.account_nft_queryset(account_id=account_id)

    def list_rows(self, filterset):
        rows = super().list_rows(filterset)
        for row in rows:
            row["deleted"] = row.pop("deleted_or_burned")
        return rows


class StakingRewardViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = StakingRewardFilterSet
    serializer_class = StakingRewardSerializer
    results_key = "rewards"
    pagination_anchors = (Anchor("timestamp", "consensus_timestamp", format=format_timestamp, parse=parse_timestamp),)
    cache_control = {"list": "public, max-age=60"}
    check_account_exists = True

    def scoped_queryset(self, account_id):
        return selectors.staking_reward_queryset(account_id=account_id)


class CryptoAllowanceViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = CryptoAllowanceFilterSet
    serializer_class = CryptoAllowanceSerializer
    results_key = "allowances"
    pagination_anchors = (Anchor("spender.id", "spender", **ID_ANCHOR),)

    def scoped_queryset(self, owner_id):
        return selectors.crypto_allowance_queryset(owner_id=owner_id)


class TokenAllowanceViewSet(AccountPathMixin, KeysetPagination, MirrorViewSet):
    filterset_class = TokenAllowanceFilterSet
    serializer_class = TokenAllowanceSerializer
    results_key = "allowances"
    anchor_codecs = (ID_CODEC, ID_CODEC)

    def scoped_queryset(self, owner_id):
        return selectors.token_allowance_queryset(owner_id=owner_id)


class TokenRelationshipViewSet(AccountPathMixin, MirrorViewSet):
    filterset_class = TokenRelationshipFilterSet
    serializer_class = TokenRelationshipSerializer
    results_key = "tokens"
    pagination_anchors = (Anchor("token.id", "token_id", **ID_ANCHOR),)
    check_account_exists = True

    def scoped_queryset(self, account_id):
        return selectors.token_relationship_queryset(account_id=account_id)


#
# Java-served account sub-routes: their own query reading, error texts and links
#


class JavaAccountListViewSet(MirrorViewSet):
    def java_list(self, request, path_text: str, read_request: Callable[[JavaQuery], JavaListRequest], rows_of):
        """Checks the path, then the query, then looks the account up, as the upstream does."""
        try:
            account = selectors.java_account_path(path_text)
        except ValueError:
            raise java_conversion_error("id") from None
        query = JavaQuery(request.META.get("QUERY_STRING", ""))
        criteria = read_request(query)
        account_id = selectors.java_account_id(account)
        if account_id is None:
            raise DetailedError(404, "No account found for the given ID")
        rows = rows_of(account_id, criteria)
        link = java_next_link(
            request.path,
            query,
            criteria.order,
            self.sort_values(rows[-1], criteria) if rows else (),
            paged_params=self.paged_params,
            limit=criteria.limit,
            count=len(rows),
        )
        return self.answer({self.results_key: self.represent(rows), "links": {"next": link}})

    # Every parameter the route pages by; their values bounding the order's direction give way to the next page's.
    paged_params: tuple[str, ...] = ()

    def sort_values(self, last_row: dict, criteria) -> list[tuple[str, str]]:
        """(parameter, the last row's value) of each sort key of the next page."""
        raise NotImplementedError


class NftAllowanceViewSet(JavaAccountListViewSet):
    serializer_class = NftAllowanceSerializer
    results_key = "allowances"
    paged_params = ("account.id", "token.id")
    query_parameters = {"list": ("account.id", "limit", "order", "owner", "token.id")}

    def list(self, request, id):
        return self.java_list(
            request,
            id,
            nft_allowance_request,
            lambda account_id, criteria: selectors.nft_allowance_list(
                account_id=account_id,
                owner=criteria.owner,
                keyset=criteria.keyset,
                order=criteria.order,
                limit=criteria.limit,
            ),
        )

    def sort_values(self, last_row, criteria):
        other = last_row["spender"] if criteria.owner else last_row["owner"]
        return [("account.id", format_entity_id(other)), ("token.id", format_entity_id(last_row["token_id"]))]


class TokenAirdropViewSet(JavaAccountListViewSet):
    serializer_class = TokenAirdropSerializer
    results_key = "airdrops"
    paged_params = ("receiver.id", "sender.id", "serialnumber", "token.id")
    # True: airdrops the account sent (`/outstanding`); False: those it is to receive (`/pending`).
    outstanding: bool

    def list(self, request, id):
        param, column = self.counterpart
        return self.java_list(
            request,
            id,
            lambda query: token_airdrop_request(query, counterpart_param=param, counterpart_column=column),
            lambda account_id, criteria: selectors.token_airdrop_list(
                account_id=account_id,
                outstanding=self.outstanding,
                keyset=criteria.keyset,
                order=criteria.order,
                limit=criteria.limit,
            ),
        )

    @property
    def counterpart(self) -> tuple[str, str]:
        return ("receiver.id", "receiver_account_id") if self.outstanding else ("sender.id", "sender_account_id")

    def sort_values(self, last_row, criteria):
        param, column = self.counterpart
        values = [(param, format_entity_id(last_row[column])), ("token.id", format_entity_id(last_row["token_id"]))]
        if last_row["serial_number"]:
            values.append(("serialnumber", str(last_row["serial_number"])))
        return values


class OutstandingAirdropViewSet(TokenAirdropViewSet):
    outstanding = True
    query_parameters = {"list": ("limit", "order", "receiver.id", "serialnumber", "token.id")}


class PendingAirdropViewSet(TokenAirdropViewSet):
    outstanding = False
    query_parameters = {"list": ("limit", "order", "sender.id", "serialnumber", "token.id")}
