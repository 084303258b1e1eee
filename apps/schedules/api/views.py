
from drf_spectacular.utils import extend_schema

from apps.common import clock
from apps.common.api.views import MirrorViewSet
from apps.common.errors import InvalidArgument, NotFound
from apps.common.ledger.codecs import parse_entity_id
from apps.schedules import selectors
from apps.schedules.api.serializers import ScheduleSerializer
from apps.schedules.filtersets import ScheduleFilterSet

CACHE_CONTROL_FINAL = "public, max-age=3600"


@extend_schema(
    summary="List schedules",
    description="Scheduled transactions, each with its creator, payer, transaction body, signatures, expiry "
    "and when it executed, in order of schedule id.",
)
class ScheduleViewSet(MirrorViewSet):
    filterset_class = ScheduleFilterSet
    serializer_class = ScheduleSerializer
    results_key = "schedules"
    selector = selectors.schedule_list
    list_cache = True
    cache_control = {"list": "public, max-age=10"}
    lookup_url_kwarg = "schedule_id"
    lookup_value_regex = "[^/]+"

    @extend_schema(
        summary="Get a schedule",
        description="One scheduled transaction with its creator, payer, transaction body, signatures, expiry "
        "and when it executed. It takes no query parameter. A schedule that does not exist answers 404.",
    )
    def retrieve(self, request, schedule_id):
        try:
            encoded = parse_entity_id(schedule_id, allow_evm_address=False).encoded
        except ValueError:
            raise InvalidArgument.for_params("scheduleid") from None
        self.validate_detail_query()
        schedule = selectors.schedule_get(schedule_id=encoded)
        if schedule is None:
            raise NotFound()
        response = self.answer(self.represent_one(schedule))
        if selectors.is_final(schedule, now=clock.now_ns()):
            response["Cache-Control"] = CACHE_CONTROL_FINAL
        return response
