from rest_framework.renderers import JSONRenderer


class MirrorJSONRenderer(JSONRenderer):
    """Compact UTF-8 JSON, declared as `application/json; charset=utf-8` like the upstream."""

    charset = "utf-8"
    ensure_ascii = False
