from django.apps import AppConfig


class HooksConfig(AppConfig):
    name = "apps.hooks"
    label = "hooks"
