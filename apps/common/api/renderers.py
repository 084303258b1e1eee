"""JSON rendering with orjson: compact UTF-8, declared as `application/json; charset=utf-8` like the upstream.

orjson renders a page several times faster than the standard library. What it
cannot render (integers beyond 64 bits, decimals, non-string keys) falls back
to DRF's encoder, so the output never depends on which one rendered it.
"""

import orjson
from rest_framework.renderers import JSONRenderer


class MirrorJSONRenderer(JSONRenderer):
    charset = "utf-8"
    ensure_ascii = False

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        try:
            return orjson.dumps(data)
        except TypeError:
            return super().render(data, accepted_media_type, renderer_context)
