from django.urls import re_path

from apps.topics.api.views import TopicMessageViewSet, TopicViewSet

app_name = "topics-api"

_SEGMENT = r"[^/]+"

urlpatterns = [
    re_path(
        rf"^topics/messages/(?P<consensus_timestamp>{_SEGMENT})/?$",
        TopicMessageViewSet.as_view({"get": "retrieve_by_timestamp"}),
        name="topic-message-by-timestamp",
    ),
    re_path(
        rf"^topics/(?P<topic_id>{_SEGMENT})/messages/?$",
        TopicMessageViewSet.as_view({"get": "list"}),
        name="topic-message-list",
    ),
    re_path(
        rf"^topics/(?P<topic_id>{_SEGMENT})/messages/(?P<sequence_number>{_SEGMENT})/?$",
        TopicMessageViewSet.as_view({"get": "retrieve"}),
        name="topic-message-detail",
    ),
    re_path(
        rf"^topics/(?P<topic_id>{_SEGMENT})/?$",
        TopicViewSet.as_view({"get": "retrieve"}),
        name="topic-detail",
    ),
]
