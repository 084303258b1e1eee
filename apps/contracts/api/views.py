from apps.common.api.views import MirrorViewSet
from apps.common.codecs import format_timestamp, parse_timestamp
from apps.common.filters import Comparison
from apps.common.pagination import Anchor
from apps.contracts import selectors
from apps.contracts.api.serializers import ContractLogSerializer
from apps.contracts.filtersets import (
    ContractLogFilterSet,
    AllContractLogFilterSet,
    KeyBound,
    LogCriteria,
    parse_log_index,
)
from apps.contracts.models import ContractLog

# --- Logs ---


class ContractLogViewSet(MirrorViewSet):
    """`/contracts/{contractIdOrAddress}/results/logs`: the logs a contract, or an
    account with a code delegation, emitted."""

    filterset_class = ContractLogFilterSet
    serializer_class = ContractLogSerializer
    results_key = "logs"
    criteria: LogCriteria | None = None

    def get_queryset(self):
        return ContractLog.objects.none()

    def list_rows(self, filterset) -> list:
        filterset.validate()
        contract_id = selectors.contract_id_from_path(self.kwargs["contract_id_or_address"])
        self.criteria = filterset.criteria()
        if contract_id is None:
            return []
        return selectors.contract_log_list(criteria=self.criteria, contract_id=contract_id)

    @property
    def pagination_anchors(self) -> tuple[Anchor, ...]:
        """Past the last row on the keyset columns the query does not pin with an
        equality; the timestamp stays inclusive, as more logs may share it."""
        timestamp, index = self.criteria.timestamp, self.criteria.index
        anchors = []
        if not timestamp.equal:
            anchors.append(
                Anchor(
                    "timestamp",
                    "consensus_timestamp",
                    format=format_timestamp,
                    parse=parse_timestamp,
                    inclusive=not index.equal,
                )
            )
        if not index.equal:
            anchors.append(Anchor("index", "index", parse=parse_log_index))
        return tuple(anchors)


class AllContractLogViewSet(ContractLogViewSet):
    """`/contracts/results/logs`: the logs of every contract, optionally of one transaction."""

    filterset_class = AllContractLogFilterSet
    cache_control = {"list": "public, max-age=10"}

    def list_rows(self, filterset) -> list:
        filterset.validate()
        self.criteria = filterset.criteria()
        if not self.restrict_to_transaction(filterset):
            return []
        return selectors.contract_log_list(criteria=self.criteria)

    def restrict_to_transaction(self, filterset) -> bool:
        """Pins the timestamp to the transaction `transaction.hash` names; False when none matches."""
        transaction_hash = filterset.transaction_hash_value()
        if transaction_hash is None:
            return True
        timestamp = selectors.transaction_timestamp_by_hash(
            transaction_hash=transaction_hash, timestamps=self.criteria.timestamp
        )
        if timestamp is None:
            return False
        self.criteria.timestamp = KeyBound("timestamp", equal=Comparison("eq", timestamp))
        return True
