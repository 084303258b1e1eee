from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "apps.tokens"
    label = "tokens"
