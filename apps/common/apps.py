from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "apps.common"
    label = "common"

    def ready(self):
        from django.db.backends.signals import connection_created

        from apps.common import lookups  # noqa: F401  (registers the `ne` lookup)
        from apps.common.database import give_up_on_silent_database
        from apps.common.observability import time_database_queries

        connection_created.connect(give_up_on_silent_database, dispatch_uid="give_up_on_silent_database")
        connection_created.connect(time_database_queries, dispatch_uid="time_database_queries")
