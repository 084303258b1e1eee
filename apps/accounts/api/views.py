from rest_framework.response import Response

from apps.accounts import selectors
from apps.accounts.api.serializers import AccountSerializer, BalanceSerializer
from apps.accounts.filtersets import AccountDetailFilterSet, AccountFilterSet, BalanceFilterSet, parse_account_id
from apps.accounts.models import AccountBalance, Entity
from apps.common import clock
from apps.common.api.exceptions import NotFound
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import decode_entity_id, format_timestamp, parse_entity_id, parse_timestamp
from apps.common.pagination import Anchor, next_link
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
        # The newest balance on the page: the snapshot's, or the latest current balance's.
        timestamps = [row["consensus_timestamp"] for row in rows if row["consensus_timestamp"] is not None]
        return {"timestamp": format_timestamp(max(timestamps)) if timestamps else None}


class AccountViewSet(MirrorViewSet):
    filterset_class = AccountFilterSet
    detail_filterset_class = AccountDetailFilterSet
    serializer_class = AccountSerializer
    results_key = "accounts"
    # The query may bound account.id with an EVM address too.
    pagination_anchors = (Anchor("account.id", "id", format=_format_account, parse=parse_account_id),)
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
        return Response(
            {
                **AccountSerializer(account).data,
                "transactions": TransactionSerializer(transactions, many=True).data,
                "links": {"next": link},
            }
        )
