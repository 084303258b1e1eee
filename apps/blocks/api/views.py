
from apps.blocks import selectors
from apps.blocks.api.serializers import BlockSerializer
from apps.blocks.filtersets import BlockFilterSet
from apps.common.api.views import MirrorViewSet
from apps.common.errors import NotFound


class BlockViewSet(MirrorViewSet):
    filterset_class = BlockFilterSet
    serializer_class = BlockSerializer
    results_key = "blocks"
    selector = selectors.block_list
    cache_control = {"retrieve": "public, max-age=600"}
    lookup_url_kwarg = "hash_or_number"
    lookup_value_regex = "[^/]+"

    def retrieve(self, request, hash_or_number):
        self.validate_detail_query()
        block = selectors.block_get(hash_or_number=hash_or_number)
        if block is None:
            raise NotFound()
        return self.answer(self.represent_one(block))
