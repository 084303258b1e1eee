from django.apps import AppConfig
from django.db.models.signals import post_migrate

__all__ = ("StatusConfig",)


class StatusConfig(AppConfig):
    name = "apps.status"
    label = "status"
    verbose_name = "Status page"

    def ready(self):
        from apps.status.default_page import create_default_page

        post_migrate.connect(create_default_page, sender=self)
