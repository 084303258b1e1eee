from django.apps import AppConfig

__all__ = ("StatusConfig",)


class StatusConfig(AppConfig):
    name = "apps.status"
    label = "status"
    verbose_name = "Status page"
