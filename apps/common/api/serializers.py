"""The base of a serializer that reads nothing but the row it represents.

DRF builds a serializer per request (`get_serializer`), and a serializer's constructor sets
up a field's worth of state, on the path of every answer. A `RowSerializer`
reads neither its context nor any state of its own, so one instance per class serves every
request of every route, from any thread (`MirrorViewSet.represent`). A serializer that
reads its context (a query's encoding, an answer's options) stays a plain `BaseSerializer`.
"""

from functools import cache

from rest_framework import serializers


class RowSerializer(serializers.BaseSerializer):
    @classmethod
    @cache
    def shared(cls) -> "RowSerializer":
        return cls()
