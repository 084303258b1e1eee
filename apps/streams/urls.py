from django.urls import re_path

from apps.streams.views import (
    AccountTransactionStreamView,
    BlockStreamView,
    TopicMessageStreamView,
)

app_name = "streams"

urlpatterns = [
    re_path(r"^blocks/stream/?$", BlockStreamView.as_view(), name="blocks"),
    re_path(r"^topics/(?P<topic_id>[^/]+)/messages/stream/?$", TopicMessageStreamView.as_view(), name="topic"),
    re_path(
        r"^accounts/(?P<id_or_alias_or_evm_address>[^/]+)/transactions/stream/?$",
        AccountTransactionStreamView.as_view(),
        name="account",
    ),
]
