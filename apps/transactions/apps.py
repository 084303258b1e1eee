from django.apps import AppConfig


class TransactionsConfig(AppConfig):
    name = "apps.transactions"
    label = "transactions"
