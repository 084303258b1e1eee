from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "apps.common"
    label = "common"

    def ready(self):
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate
        from psycopg.types.json import set_json_loads

        from apps.common.configuration import warn_once_about_unread
        from apps.common.database.connections import (
            give_up_on_silent_database,
            loads_json,
        )
        from apps.common.database.roles import grant_roles
        from apps.common.observability import time_database_queries
        from apps.common.query import lookups  # noqa: F401  (registers the `ne` lookup)

        _drop_per_request_work()
        set_json_loads(loads_json)
        connection_created.connect(give_up_on_silent_database, dispatch_uid="give_up_on_silent_database")
        connection_created.connect(time_database_queries, dispatch_uid="time_database_queries")
        # post_migrate is sent once per app with models (this one has none), after every table
        # exists: the grants follow the auth app's.
        post_migrate.connect(grant_roles, sender=self.apps.get_app_config("auth"), dispatch_uid="grant_roles")
        # The process starts: the upstream's settings set and not honoured are named once.
        warn_once_about_unread()


def _drop_per_request_work() -> None:
    """Django's request signal receivers that do nothing here, yet cost every request a walk
    over every connection or cache, or a thread-local lookup:
    - our caches (local memory, django-redis, which closes nothing unless
      DJANGO_REDIS_CLOSE_CONNECTION) hold no connection to close after a request;
    - without DEBUG no statement is logged for `reset_queries` to forget (a test capturing
      statements disconnects it itself);
    - `close_old_connections` at a request's start repeats the check the previous request's end
      made (`request_finished` keeps it): a connection that errored is closed then, and one past
      CONN_MAX_AGE serves at most one more request before it is;
    - `reset_urlconf` forgets a per-request URLconf, and no middleware here sets one: the
      thread's URLconf is always ROOT_URLCONF."""
    from django.conf import settings
    from django.core.cache import close_caches
    from django.core.handlers.base import reset_urlconf
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, reset_queries

    if not settings.DEBUG:
        request_started.disconnect(reset_queries)
    if not getattr(settings, "DJANGO_REDIS_CLOSE_CONNECTION", False):
        request_finished.disconnect(close_caches)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(reset_urlconf)
