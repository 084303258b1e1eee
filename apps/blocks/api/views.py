
from drf_spectacular.utils import extend_schema

from apps.blocks import selectors
from apps.blocks.api.serializers import BlockSerializer
from apps.blocks.filtersets import BlockFilterSet
from apps.common.api.views import MirrorViewSet
from apps.common.errors import NotFound


@extend_schema(
    summary="List blocks",
    description="Blocks, each with its number, hash, previous hash, time range, transaction count, gas used, "
    "logs bloom and size, in order of block number (their times follow the same order).",
)
class BlockViewSet(MirrorViewSet):
    filterset_class = BlockFilterSet
    serializer_class = BlockSerializer
    results_key = "blocks"
    selector = selectors.block_list
    cache_control = {"retrieve": "public, max-age=600"}
    lookup_url_kwarg = "hash_or_number"
    lookup_value_regex = "[^/]+"

    @extend_schema(
        summary="Get a block",
        description="One block, by number or by hash. It takes no query parameter. A block that does not "
        "exist answers 404.",
    )
    def retrieve(self, request, hash_or_number):
        self.validate_detail_query()
        block = selectors.block_get(hash_or_number=hash_or_number)
        if block is None:
            raise NotFound()
        return self.answer(self.represent_one(block))
