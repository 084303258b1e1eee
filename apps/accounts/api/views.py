from apps.accounts import selectors
from apps.accounts.api.serializers import BalanceSerializer
from apps.accounts.filtersets import BalanceFilterSet
from apps.accounts.models import AccountBalance
from apps.common import clock
from apps.common.api.views import MirrorViewSet
from apps.common.codecs import decode_entity_id, format_timestamp, parse_entity_id
from apps.common.pagination import Anchor


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
