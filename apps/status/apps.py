from django.apps import AppConfig
from django.db.models.signals import post_migrate

__all__ = ("StatusConfig",)


class StatusConfig(AppConfig):
    name = "apps.status"
    label = "status"
    verbose_name = "Status page"

    def ready(self):
        from apps.common.database.replicas import read_on_primary
        from apps.status.conf import api_prefix
        from apps.status.default_page import create_default_page

        post_migrate.connect(create_default_page, sender=self)
        # django-cachalot keeps the page's reads until the next edit, trusting a read after an
        # edit to see it: a replica behind would have the page from before the edit kept as
        # current. The page's tables are read on the primary (rarely: cachalot spares it); the
        # live checks read a replica (`live_checks.read_mirror`).
        read_on_primary("/" + api_prefix())
