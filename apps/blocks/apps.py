from django.apps import AppConfig


class BlocksConfig(AppConfig):
    name = "apps.blocks"
    label = "blocks"
